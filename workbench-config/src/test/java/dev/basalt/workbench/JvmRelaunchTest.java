package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JvmRelaunchTest {
    private static final List<String> COMPILER = JvmRelaunch.COMPILER_OPTIONS;

    @TempDir
    Path home;

    @Test
    void compilerOptionsAreAddedUnlessTheUserSetThem() {
        assertEquals(COMPILER, JvmRelaunch.optionsToAdd(17, List.of("-Xmx2g"), home, Map.of(), null));
        assertEquals(List.of("-XX:InlineSmallCode=1000", "-XX:FreqInlineSize=150"),
                JvmRelaunch.optionsToAdd(17, List.of("-XX:MaxInlineLevel=15"), home, Map.of(), null));
        assertEquals(List.of(), JvmRelaunch.optionsToAdd(17, List.of("-XX:MaxInlineLevel=15",
                "-XX:InlineSmallCode=2500", "-XX:FreqInlineSize=325"), home, Map.of(), null), "nothing to add");
    }

    @Test
    void theCacheIsAddedOnJava25WhenPresentAndNotChosenByTheUser() throws Exception {
        assertEquals(COMPILER, JvmRelaunch.optionsToAdd(25, List.of(), home, Map.of(), null), "no cache file");
        Path cache = Files.writeString(home.resolve(JvmRelaunch.CACHE_FILE), "x");
        List<String> withCache = new ArrayList<>(COMPILER);
        withCache.add("-XX:AOTCache=" + cache);
        assertEquals(withCache, JvmRelaunch.optionsToAdd(25, List.of("-Xmx2g"), home, Map.of(), null));
        assertEquals(withCache, JvmRelaunch.optionsToAdd(26, List.of(), home, Map.of(), null));
        assertEquals(COMPILER, JvmRelaunch.optionsToAdd(17, List.of(), home, Map.of(), null), "Java 17");
        assertEquals(COMPILER, JvmRelaunch.optionsToAdd(24, List.of(), home, Map.of(), null), "Java 24");
        for (String own : List.of("-XX:AOTCache=/x.aot", "-XX:AOTMode=off", "-XX:SharedArchiveFile=/z.jsa", "-Xshare:off")) {
            assertEquals(COMPILER, JvmRelaunch.optionsToAdd(25, List.of("-Xmx1g", own), home, Map.of(), null), own);
        }
    }

    @Test
    void theClassDataArchiveIsAddedBeforeJava25() throws Exception {
        Path archive = Files.writeString(home.resolve(JvmRelaunch.ARCHIVE_FILE), "x");
        List<String> withArchive = new ArrayList<>(COMPILER);
        withArchive.add("-XX:SharedArchiveFile=" + archive);
        assertEquals(withArchive, JvmRelaunch.optionsToAdd(17, List.of(), home, Map.of(), null));
        assertEquals(withArchive, JvmRelaunch.optionsToAdd(24, List.of(), home, Map.of(), null));
        assertEquals(COMPILER, JvmRelaunch.optionsToAdd(25, List.of(), home, Map.of(), null), "25 takes the AOT cache only");
        assertEquals(COMPILER, JvmRelaunch.optionsToAdd(17, List.of("-Xshare:off"), home, Map.of(), null));
    }

    @Test
    void noRelaunchFromTheChildWhenTurnedOffOrWithOptionsOnlyOneJvmMayHave() {
        assertEquals(List.of(), JvmRelaunch.optionsToAdd(25, List.of(), home, Map.of(JvmRelaunch.MARK, "1"), null),
                "the relaunched child never relaunches");
        assertEquals(List.of(), JvmRelaunch.optionsToAdd(17, List.of(), home, Map.of(), "false"), "turned off");
        for (String own : List.of("-agentlib:jdwp=transport=dt_socket,address=5005", "-javaagent:x.jar",
                "-Dcom.sun.management.jmxremote.port=9010", "-XX:StartFlightRecording=filename=a.jfr",
                "-XX:AOTCacheOutput=/y.aot", "-XX:AOTMode=record", "-Xlog:gc:file=gc.log", "-XX:ArchiveClassesAtExit=a.jsa",
                "-XX:LogFile=compilation.log")) {
            assertEquals(List.of(), JvmRelaunch.optionsToAdd(25, List.of("-Xmx1g", own), home, Map.of(), null), own);
        }
    }

    @Test
    void theChildGetsTheSameOptionsTheAddedOnesAndTheArguments() {
        String[] args = { "--port", "9090" };
        List<String> added = List.of("-XX:MaxInlineLevel=9", "-XX:AOTCache=/opt/basalt/basalt-server.aot");
        assertEquals(List.of("/jdk/bin/java", "-Xmx2g", "-XX:MaxInlineLevel=9",
                "-XX:AOTCache=/opt/basalt/basalt-server.aot", "-jar", "/opt/basalt/basalt-server.jar", "--port", "9090"),
                JvmRelaunch.command("/jdk/bin/java", List.of("-Xmx2g"), added,
                        "/opt/basalt/basalt-server.jar --port 9090", "/opt/basalt/basalt-server.jar", args));
        assertEquals(List.of("/jdk/bin/java", "-XX:MaxInlineLevel=9", "-XX:AOTCache=/opt/basalt/basalt-server.aot",
                "-cp", "target/classes:lib/a.jar", BasaltServer.class.getName(), "--port", "9090"),
                JvmRelaunch.command("/jdk/bin/java", List.of(), added, BasaltServer.class.getName() + " --port 9090",
                        "target/classes:lib/a.jar", args));
    }

    @Test
    void turnedOffTheLauncherStaysInItsOwnJvm() throws Exception {
        String before = System.getProperty(JvmRelaunch.DISABLE_PROPERTY);
        System.setProperty(JvmRelaunch.DISABLE_PROPERTY, "false");
        try {
            assertTrue(JvmRelaunch.relaunchIfUseful(new String[0], home).isEmpty());
        } finally {
            if (before == null) {
                System.clearProperty(JvmRelaunch.DISABLE_PROPERTY);
            } else {
                System.setProperty(JvmRelaunch.DISABLE_PROPERTY, before);
            }
        }
    }
}
