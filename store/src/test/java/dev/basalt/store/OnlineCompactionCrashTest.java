package dev.basalt.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.NavigableMap;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import dev.basalt.store.btree.BTree;

/**
 * Kills a child JVM with SIGKILL at random moments while it compacts its store online (repacking
 * its tree's pages and moving them) and a writer commits meanwhile ({@link OnlineCompactChild}); the store must reopen at the last acknowledged
 * write step (or the one in flight), hold exactly the workload's state at that step, and verify
 * (checksums, tree invariants, allocator audit, file end).
 */
class OnlineCompactionCrashTest {
    private static final int KEYS = 20_000;
    private static final int OPS = 400;
    private static final int KILLS = 20;

    @TempDir
    Path dir;

    @Test
    void killsDuringOnlineCompactionLoseNoAcknowledgedWrite() throws Exception {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        Random rnd = new Random(seed);
        Path file = dir.resolve("online.jnl");
        Workload w = new Workload(seed, KEYS, OPS);
        NavigableMap<byte[], byte[]> model = Workload.newModel();
        long modelAt = 0;
        long lastAcked = 0;
        int compactions = 0;
        long shrunk = 0;
        long repacked = 0;
        for (int kill = 0; kill < KILLS; kill++) {
            String ctx = "seed=" + seed + " kill #" + kill;
            Path ackFile = dir.resolve("acks.txt");
            AtomicLong acked = new AtomicLong(lastAcked);
            AtomicLongArray compacted = new AtomicLongArray(3);
            KillableChild child = KillableChild.start(line -> readOutput(line, acked, compacted),
                    OnlineCompactChild.class, file.toString(), Long.toString(seed), Integer.toString(KEYS),
                    Integer.toString(OPS), ackFile.toString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            long acknowledged = lastAcked;
            child.awaitUntil(() -> acked.get() != acknowledged, deadline);
            // every fourth child is killed only after it finished a compaction (on a busy machine the
            // others may all die in their first one), at a random moment of the next
            if (kill % 4 == 3) {
                child.awaitUntil(() -> compacted.get(0) != 0, deadline);
            }
            Thread.sleep(100 + rnd.nextInt(900));
            assertEquals(KillableChild.SIGKILL_EXIT, child.kill(ctx),
                    ctx + ": the child did not die by SIGKILL (did it fail?)");
            compactions += (int) compacted.get(0);
            shrunk += compacted.get(1);
            repacked += compacted.get(2);
            lastAcked = Math.max(lastAcked, CrashRecoveryTest.lastLine(ackFile));
            try (Store store = Store.open(file, StoreConfig.defaults())) {
                long step;
                try (Snapshot s = store.snapshot()) {
                    byte[] v = s.property("step");
                    step = v == null ? 0 : Long.parseLong(new String(v, StandardCharsets.US_ASCII));
                    assertTrue(step >= lastAcked && step <= lastAcked + 1,
                            ctx + ": store opened at step " + step + " but the child acknowledged " + lastAcked);
                    while (modelAt < step) {
                        w.apply(++modelAt, model);
                    }
                    BTree t = s.tree(Workload.TREE);
                    assertEquals(model.size(), t == null ? 0 : t.size(), ctx);
                    if (t != null) {
                        StoreModelTest.scan(t, model, null, null, false, ctx);
                    }
                }
                lastAcked = step;
                store.verify();
                assertTrue(Files.size(file) >= store.stats().journal().fileBytes() - 1, ctx);
            }
        }
        LoggerFactory.getLogger(OnlineCompactionCrashTest.class).info(
                "{} kills over {} write steps; the children finished {} online compactions, {} bytes given back, {}"
                        + " pages saved by repacking", KILLS, lastAcked, compactions, shrunk, repacked);
        assertTrue(compactions > 0, "no online compaction finished in any child: the kills tested nothing of it");
        assertTrue(repacked > 0, "no finished online compaction repacked a page: the kills tested nothing of repacking");
    }

    /** Records "ACK n" and "COMPACTED ..." lines of the child's output (finished compactions, bytes given back, pages saved). */
    private static void readOutput(String line, AtomicLong acked, AtomicLongArray compacted) {
        if (line.startsWith("COMPACTED ")) {
            String[] f = line.split(" ");
            compacted.addAndGet(1, Math.max(0, Long.parseLong(f[1]) - Long.parseLong(f[2])));
            compacted.addAndGet(2, Long.parseLong(f[4]));
            compacted.incrementAndGet(0);
        } else {
            CrashRecoveryTest.readAck(line, acked);
        }
    }
}
