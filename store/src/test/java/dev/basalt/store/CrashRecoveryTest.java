package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.NavigableMap;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Kills a writing child JVM with SIGKILL at random moments, then checks that the store opens at a
 * commit point no older than the last one the child acknowledged (at most the one in flight is
 * newer), that its content is exactly the workload's state at that commit point, and that a full
 * verify pass (checksums, B+tree invariants and counts, allocator audit) succeeds. The store grows
 * past several pages of the allocator's region table, so kills land in commits that rewrite some
 * of them.
 */
class CrashRecoveryTest {
    private static final int KEYS = 20_000;
    private static final int OPS = 300;

    @TempDir
    Path dir;

    @Test
    void fiftyKillsLoseNoAcknowledgedCommit() throws Exception {
        killLoop(Integer.getInteger("basalt.crash.kills", 50));
    }

    @Test
    @Tag("long")
    void thousandKills() throws Exception {
        killLoop(1000);
    }

    private void killLoop(int kills) throws Exception {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Path file = dir.resolve("crash.jnl");
        Workload w = new Workload(seed, KEYS, OPS);
        NavigableMap<byte[], byte[]> model = Workload.newModel();
        long modelAt = 0;
        long lastAcked = 0;
        for (int kill = 0; kill < kills; kill++) {
            String ctx = "seed=" + seed + " kill #" + kill;
            Path ackFile = dir.resolve("acks.txt");
            AtomicLong acked = new AtomicLong(lastAcked);
            KillableChild child = KillableChild.start(line -> readAck(line, acked), CrashChild.class, file.toString(),
                    Long.toString(seed), Integer.toString(KEYS), Integer.toString(OPS), ackFile.toString());
            if (rnd.nextInt(10) == 0) {
                // sometimes kill while the child is still starting or recovering
                Thread.sleep(rnd.nextInt(400));
            } else {
                long acknowledged = lastAcked;
                child.awaitUntil(() -> acked.get() != acknowledged, System.nanoTime() + TimeUnit.SECONDS.toNanos(60));
                Thread.sleep(rnd.nextInt(200));
            }
            assertEquals(KillableChild.SIGKILL_EXIT, child.kill(ctx),
                    ctx + ": the child did not die by SIGKILL (did it fail?)");
            lastAcked = Math.max(lastAcked, lastLine(ackFile));
            try (Store store = Store.open(file, StoreConfig.defaults())) {
                long c = store.stats().journal().commitCounter();
                assertTrue(c >= lastAcked && c <= lastAcked + 1,
                        ctx + ": store opened at commit " + c + " but the child acknowledged " + lastAcked);
                lastAcked = c;
                while (modelAt < c) {
                    w.apply(++modelAt, model);
                }
                try (Snapshot s = store.snapshot()) {
                    BTree t = s.tree(Workload.TREE);
                    assertEquals(model.size(), t == null ? 0 : t.size(), ctx);
                    if (t != null) {
                        StoreModelTest.scan(t, model, null, null, false, ctx);
                    }
                    assertEquals(c == 0 ? null : Long.toString(c),
                            s.property("commit") == null ? null : new String(s.property("commit"), StandardCharsets.UTF_8), ctx);
                }
                store.verify();
            }
        }
        try (Store store = Store.open(file, StoreConfig.defaults())) {
            // the kills above hit commits that rewrote some pages of a region table of several
            int pages = store.stats().journal().tablePages();
            assertTrue(pages > 1, "seed=" + seed + ": the allocator state has " + pages + " table pages");
        }
    }

    /** The last acknowledged commit the child wrote to its file (complete lines only). */
    static long lastLine(Path ackFile) throws java.io.IOException {
        if (!java.nio.file.Files.exists(ackFile)) {
            return 0;
        }
        String text = java.nio.file.Files.readString(ackFile, StandardCharsets.US_ASCII);
        int end = text.lastIndexOf('\n');
        if (end < 0) {
            return 0;
        }
        int start = text.lastIndexOf('\n', end - 1) + 1;
        return Long.parseLong(text.substring(start, end));
    }

    /** Records an acknowledged commit ("ACK n") of the child's output in {@code acked}. */
    static void readAck(String line, AtomicLong acked) {
        if (line.startsWith("ACK ")) {
            acked.set(Long.parseLong(line.substring(4)));
        }
    }
}
