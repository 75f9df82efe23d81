package dev.basalt.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.journal.JournalStats;

/**
 * After an online compaction packed a store grown by deletes, a steady stream of small commits
 * with readers pinning the last few commit points (what clients of a server do) reuses the free
 * space inside the file before the file grows: leaf pages that grow by one entry move to the next
 * size class, the space they leave behind must serve other classes, and regions made at the file's
 * end must not be much larger than what the commit needs.
 *
 * <p>Deterministic: one thread, a fixed seed ({@code -Dbasalt.seed=N} varies it), and the
 * compaction moves each round in one transaction, so the layout does not depend on timing.
 */
class SteadyWritesAfterCompactionTest {
    private static final int KEYS = 40_000;
    private static final int COMMITS = 600;
    /** Snapshots held open at once: each commit point stays pinned for this many later commits. */
    private static final int READERS = 8;
    /** Six trees, like an RDF store's statement indices and lexicon: each commit changes one leaf in each. */
    private static final String[] TREES = {"spo", "pos", "osp", "cspo", "t2i", "i2t"};
    /**
     * The file may grow only while less than this share of the space in use is free in it: what
     * is left then is the slack of partly used regions, one per size class in use.
     */
    private static final double FREE_SHARE_WHEN_GROWING = 0.2;

    @TempDir
    Path dir;

    private static byte[] key(String tree, long i) {
        return ByteBuffer.allocate(8).putLong((i + tree.hashCode()) * 2654435761L).array();
    }

    private static byte[] value(long i) {
        byte[] v = new byte[24];
        ByteBuffer.wrap(v).putLong(i);
        return v;
    }

    /** KEYS entries in every tree, then all but every fifth deleted: the file is about 15x what it holds. */
    private static void growByDeletes(Store s) {
        for (int batch = 0; batch < 5; batch++) {
            try (WriteTransaction tx = s.begin()) {
                for (int i = batch; i < KEYS; i += 5) {
                    for (String t : TREES) {
                        tx.tree(t).put(key(t, i), value(i));
                    }
                }
                tx.commit();
            }
        }
        for (int batch = 0; batch < 4; batch++) {
            try (WriteTransaction tx = s.begin()) {
                for (int i = batch; i < KEYS; i += 4) {
                    if (i % 5 != 0) {
                        for (String t : TREES) {
                            tx.tree(t).remove(key(t, i));
                        }
                    }
                }
                tx.commit();
            }
        }
    }

    @Test
    void steadySmallCommitsReuseTheFreeSpaceACompactionLeft() {
        long seed = Long.getLong("basalt.seed", 21);
        LoggerFactory.getLogger(SteadyWritesAfterCompactionTest.class).info("seed {}", seed);
        StoreConfig config = StoreConfig.defaults().withJournal(StoreConfig.defaults().journal()
                .withMode(JournalMode.RW).withHistoryRetention(Duration.ZERO));
        try (Store s = Store.open(dir.resolve("s.jnl"), config)) {
            growByDeletes(s);
            OnlineCompactor.Result compaction = OnlineCompactor.compact(s,
                    new OnlineCompactor.Options(Duration.ofHours(1), Duration.ofSeconds(30), 16), () -> { });
            long compacted = s.stats().journal().fileBytes();
            assertTrue(compaction.bytesAfter() < compaction.bytesBefore() / 5, compaction.toString());

            SplittableRandom random = new SplittableRandom(seed);
            Deque<Snapshot> readers = new ArrayDeque<>();
            List<String> wrongGrowth = new ArrayList<>();
            long maxFile = compacted;
            long maxInUse = 0;
            long next = KEYS;
            for (int commit = 0; commit < COMMITS; commit++) {
                JournalStats before = s.stats().journal();
                long k = commit % 2 == 0 ? next++ : random.nextInt(KEYS);
                try (WriteTransaction tx = s.begin()) {
                    for (String t : TREES) {
                        tx.tree(t).put(key(t, k), value(k));
                    }
                    tx.commit();
                }
                readers.addLast(s.snapshot());
                if (readers.size() > READERS) {
                    readers.removeFirst().close();
                }
                JournalStats after = s.stats().journal();
                long free = before.fileBytes() - before.bytesInUse();
                if (after.fileBytes() > before.fileBytes() && free > FREE_SHARE_WHEN_GROWING * before.bytesInUse()) {
                    wrongGrowth.add(String.format("commit %d grew the file %,d -> %,d bytes with %,d bytes free"
                                    + " (%,d in use, %,d of them held by readers)", commit, before.fileBytes(),
                            after.fileBytes(), free, before.bytesInUse(), before.bytesPinned()));
                }
                maxFile = Math.max(maxFile, after.fileBytes());
                maxInUse = Math.max(maxInUse, after.bytesInUse());
            }
            readers.forEach(Snapshot::close);
            String summary = String.format("compacted to %,d bytes, then %d commits: file at most %,d bytes, in use at"
                    + " most %,d (%.2fx); seed %d", compacted, COMMITS, maxFile, maxInUse,
                    (double) maxFile / maxInUse, seed);
            LoggerFactory.getLogger(SteadyWritesAfterCompactionTest.class).info(summary);
            assertTrue(wrongGrowth.isEmpty(), summary + "; " + wrongGrowth.size() + " commits grew the file with"
                    + " more than " + FREE_SHARE_WHEN_GROWING + " of the space in use free, e.g. "
                    + wrongGrowth.subList(0, Math.min(3, wrongGrowth.size())));
            assertTrue(maxFile <= (1 + FREE_SHARE_WHEN_GROWING) * maxInUse, summary);
            s.verify();
            try (Snapshot snap = s.snapshot()) {
                for (int i = 0; i < KEYS; i += 5) {
                    assertArrayEquals(value(i), snap.tree("spo").get(key("spo", i)), "key " + i);
                }
            }
        }
    }
}
