package dev.basalt.workbench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AotRelaunchTest {
    @TempDir
    Path home;

    @Test
    void relaunchesOnlyOnJava25WithACacheAndNoChoiceOfTheUsers() throws Exception {
        Map<String, String> env = Map.of();
        assertEquals(Optional.empty(), AotRelaunch.cacheToUse(25, List.of(), home, env, null), "no cache file");
        Path cache = Files.writeString(home.resolve(AotRelaunch.CACHE_FILE), "x");
        assertEquals(Optional.of(cache), AotRelaunch.cacheToUse(25, List.of("-Xmx2g"), home, env, null));
        assertEquals(Optional.of(cache), AotRelaunch.cacheToUse(26, List.of(), home, env, null));
        assertEquals(Optional.empty(), AotRelaunch.cacheToUse(17, List.of(), home, env, null), "Java 17");
        assertEquals(Optional.empty(), AotRelaunch.cacheToUse(24, List.of(), home, env, null), "Java 24");
        assertEquals(Optional.empty(), AotRelaunch.cacheToUse(25, List.of(), home, Map.of(AotRelaunch.MARK, "1"), null),
                "the relaunched child never relaunches");
        assertEquals(Optional.empty(), AotRelaunch.cacheToUse(25, List.of(), home, env, "false"), "turned off");
        for (String own : List.of("-XX:AOTCache=/x.aot", "-XX:AOTMode=off", "-XX:AOTCacheOutput=/y.aot",
                "-XX:SharedArchiveFile=/z.jsa", "-Xshare:off")) {
            assertEquals(Optional.empty(), AotRelaunch.cacheToUse(25, List.of("-Xmx1g", own), home, env, null), own);
        }
    }

    @Test
    void theChildGetsTheSameOptionsTheCacheAndTheArguments() {
        Path cache = Path.of("/opt/basalt/basalt-server.aot");
        String[] args = { "--port", "9090" };
        assertEquals(List.of("/jdk/bin/java", "-Xmx2g", "-XX:AOTCache=/opt/basalt/basalt-server.aot", "-jar",
                "/opt/basalt/basalt-server.jar", "--port", "9090"),
                AotRelaunch.command("/jdk/bin/java", List.of("-Xmx2g"), cache, "/opt/basalt/basalt-server.jar --port 9090",
                        "/opt/basalt/basalt-server.jar", args));
        List<String> byClass = AotRelaunch.command("/jdk/bin/java", List.of(), cache,
                BasaltServer.class.getName() + " --port 9090", "target/classes:lib/a.jar", args);
        assertEquals(List.of("/jdk/bin/java", "-XX:AOTCache=/opt/basalt/basalt-server.aot", "-cp",
                "target/classes:lib/a.jar", BasaltServer.class.getName(), "--port", "9090"), byClass);
    }

    @Test
    void withoutACacheTheLauncherStaysInItsOwnJvm() throws Exception {
        // this test JVM's launcher home has no cache file, whatever the release it runs on
        assertTrue(AotRelaunch.relaunchIfUseful(new String[0], home).isEmpty());
    }
}
