package dev.basalt.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warm-up runs Ratis's leader path for real: its throwaway group elects a leader that commits
 * every entry, through both submission paths, and after that leader is closed the other two elect
 * one that commits too; it leaves no directory and no Raft server thread behind.
 */
class LeaderPathWarmUpTest {
    @TempDir
    Path dir;

    @Test
    void throwawayGroupCommitsUnderTwoLeadersAndLeavesNothing() throws Exception {
        ReplicationSettings settings = ReplicationSettings.of("n0", "n0=127.0.0.1:1");
        Path warm = dir.resolve("raft-warm-up");
        LeaderPathWarmUp.Outcome o = LeaderPathWarmUp.run(settings, warm, 40, System.nanoTime() + 120_000_000_000L);
        System.out.println("warm-up phases, ms: " + java.util.Arrays.toString(o.millis()));
        assertArrayEquals(new int[] {40, 4}, o.entries());
        assertFalse(Files.exists(warm), "the warm-up's directory is deleted");
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (raftThreads() > 0) {
            assertTrue(System.nanoTime() < deadline, raftThreads() + " threads of the warm-up's servers still run");
            Thread.sleep(50);
        }
    }

    /** Live threads named after a warm-up member. */
    private static long raftThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().contains("warm-up-")).count();
    }
}
