package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A member started as the local cluster starts it ({@link MemberServer#jarLauncher}, {@code java -jar
 * basalt-server.jar}) relaunches itself with the launcher's JVM options, as one server does: {@link MemberServer#pid}
 * is the serving JVM, whose command line holds the launcher's JIT options and the heap it was given; {@link
 * MemberServer#kill} leaves neither JVM running nor the port held.
 */
class MemberServerTest {
    @TempDir
    Path dir;

    @Test
    void aJarMemberRunsWithTheLaunchersJvmOptionsAndIsKilledWhole() throws Exception {
        Path jar = LocalClusterTest.HOME.resolve("basalt-server.jar");
        assertTrue(Files.isRegularFile(jar), "build the launcher first: " + jar);
        int port = MemberServer.freePort();
        MemberServer member = new MemberServer(MemberServer.jarLauncher(jar, "256m"), "127.0.0.1", port, dir);
        long launcher;
        long serving;
        try {
            member.start();
            serving = member.pid();
            launcher = ProcessHandle.of(serving).flatMap(ProcessHandle::parent).map(ProcessHandle::pid).orElse(-1L);
            assertNotEquals(ProcessHandle.current().pid(), launcher, "the member relaunched itself");
            String command = String.join(" ", ProcessHandle.of(serving).orElseThrow().info().arguments()
                    .map(List::of).orElse(List.of()));
            assertTrue(command.contains("-XX:MaxInlineLevel=9") && command.contains("-Xmx256m"), command);
        } finally {
            member.kill();
        }
        for (long pid : new long[] { launcher, serving }) {
            assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "process " + pid + " left running");
        }
        try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(free.isBound());
        }
    }
}
