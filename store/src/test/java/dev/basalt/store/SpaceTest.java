package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeStats;
import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.journal.JournalStats;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Space accounting: commits that overwrite the same keys must not grow an RW store with retention
 * 0 past twice its live data; WORM grows and keeps every commit point; retention keeps the commit
 * points inside its window; an open reader pins its commit point, is reported, and its space is
 * recycled once it closes.
 */
class SpaceTest {
    private static final Logger LOG = LoggerFactory.getLogger(SpaceTest.class);
    private static final int KEYS = 100_000;

    @TempDir
    Path dir;

    private static StoreConfig config(JournalMode mode, Duration retention) {
        return StoreConfig.defaults().withJournal(StoreConfig.defaults().journal().withMode(mode)
                .withHistoryRetention(retention).withDurable(false));
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(8).putLong(i * 2654435761L).array();
    }

    private static byte[] value(int i, int commit) {
        return ByteBuffer.allocate(16).putLong(i).putLong(commit).array();
    }

    /** Runs {@code commits} commits, each overwriting {@code perCommit} of the same KEYS keys. */
    private double overwrite(Store store, int commits, int perCommit, long seed) {
        try (WriteTransaction tx = store.begin()) {
            BTree t = tx.tree("t");
            for (int i = 0; i < KEYS; i++) {
                t.put(key(i), value(i, 0));
            }
            tx.commit();
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int c = 1; c <= commits; c++) {
            try (WriteTransaction tx = store.begin()) {
                BTree t = tx.tree("t");
                if (perCommit == KEYS) {
                    for (int i = 0; i < KEYS; i++) {
                        t.put(key(i), value(i, c));
                    }
                } else {
                    for (int i = 0; i < perCommit; i++) {
                        int k = rnd.nextInt(KEYS);
                        t.put(key(k), value(k, c));
                    }
                }
                tx.commit();
            }
        }
        StoreVerifier.Report r = store.verify();
        BTreeStats s = r.trees().get("t");
        assertEquals(KEYS, s.entries());
        long file = store.stats().journal().fileBytes();
        double ratio = (double) file / s.recordBytes();
        LOG.info("{} commits x {} keys: file {} bytes, live records {} bytes, ratio {}; {}", commits, perCommit, file,
                s.recordBytes(), ratio, store.stats().journal());
        return ratio;
    }

    /**
     * Commits that each change part of the pages: the old versions are recycled, so the file stays
     * under twice the live data.
     */
    @Test
    void rwWithRetentionZeroStaysUnderTwiceTheLiveData() {
        try (Store store = Store.open(dir.resolve("rw.jnl"), config(JournalMode.RW, Duration.ZERO))) {
            double ratio = overwrite(store, 1000, 200, 1);
            assertTrue(ratio < 2.0, "file is " + ratio + "x the live data");
        }
    }

    /**
     * Commits that each overwrite all 100,000 keys rewrite every page, so between two commits the
     * file must hold the last committed version and the one being written: twice the live data is
     * the floor for any copy-on-write store, and what matters is that the file stops growing.
     */
    @Test
    void rwFullOverwritesStopGrowing() {
        try (Store store = Store.open(dir.resolve("rwfull.jnl"), config(JournalMode.RW, Duration.ZERO))) {
            double ratio = overwrite(store, 10, KEYS, 2);
            long after10 = store.stats().journal().fileBytes();
            double ratio100 = overwrite(store, 90, KEYS, 3);
            long after100 = store.stats().journal().fileBytes();
            assertTrue(after100 <= after10 + after10 / 20, "file grew from " + after10 + " to " + after100);
            assertTrue(ratio100 < 2.8, "file is " + ratio100 + "x the live data (" + ratio + " after 10 commits)");
        }
    }

    @Test
    @Tag("long")
    void rwFullOverwritesThousandTimes() {
        try (Store store = Store.open(dir.resolve("rwfull.jnl"), config(JournalMode.RW, Duration.ZERO))) {
            double ratio = overwrite(store, 1000, KEYS, 2);
            assertTrue(ratio < 2.8, "file is " + ratio + "x the live data");
        }
    }

    @Test
    void wormGrowsAndKeepsEveryCommitPoint() {
        try (Store store = Store.open(dir.resolve("worm.jnl"), config(JournalMode.WORM, Duration.ZERO))) {
            double ratio = overwrite(store, 100, 2_000, 3);
            assertTrue(ratio > 5, "WORM file should keep every version: " + ratio);
            List<Long> counters = new ArrayList<>();
            store.retainedCommits().forEach(p -> counters.add(p.counter()));
            assertEquals(101, counters.size());
            for (long c : counters) {
                try (Snapshot s = store.snapshot(c)) {
                    BTree t = s.tree("t");
                    assertEquals(KEYS, t.size());
                    assertEquals(KEYS, t.verify().entries());
                }
            }
        }
    }

    @Test
    void retentionKeepsCommitPointsInsideItsWindow() {
        try (Store store = Store.open(dir.resolve("ret.jnl"), config(JournalMode.RW, Duration.ofHours(1)))) {
            overwrite(store, 20, 1_000, 4);
            assertEquals(21, store.retainedCommits().size());
            try (Snapshot s = store.snapshot(1)) {
                BTree t = s.tree("t");
                for (int i = 0; i < KEYS; i += 997) {
                    assertEquals(0, ByteBuffer.wrap(t.get(key(i))).getLong(8), "key " + i + " at commit 1");
                }
            }
        }
        try (Store store = Store.open(dir.resolve("noret.jnl"), config(JournalMode.RW, Duration.ZERO))) {
            overwrite(store, 5, 1_000, 4);
            assertEquals(1, store.retainedCommits().size());
            assertThrows(RuntimeException.class, () -> store.snapshot(2));
        }
    }

    @Test
    void aReaderPinsItsCommitPointAndReleasesSpaceWhenClosed() {
        try (Store store = Store.open(dir.resolve("pin.jnl"), config(JournalMode.RW, Duration.ZERO))) {
            overwrite(store, 1, 1_000, 5);
            Snapshot reader = store.snapshot();
            long pinned = reader.commit().counter();
            for (int c = 0; c < 20; c++) {
                try (WriteTransaction tx = store.begin()) {
                    BTree t = tx.tree("t");
                    for (int i = 0; i < KEYS; i += 10) {
                        t.put(key(i), value(i, 1000 + c));
                    }
                    tx.commit();
                }
            }
            JournalStats held = store.stats().journal();
            assertEquals(1, held.openReaders());
            assertEquals(pinned, held.oldestPinnedCommit());
            assertTrue(held.bytesPinned() > 0);
            assertEquals(KEYS, reader.tree("t").verify().entries(), "the pinned commit point is still whole");
            long fileWhilePinned = held.fileBytes();
            reader.close();
            JournalStats released = store.stats().journal();
            assertEquals(0, released.openReaders());
            assertEquals(0, released.bytesPinned());
            assertTrue(released.bytesDeferred() < held.bytesDeferred());
            for (int c = 0; c < 20; c++) {
                try (WriteTransaction tx = store.begin()) {
                    BTree t = tx.tree("t");
                    for (int i = 0; i < KEYS; i += 10) {
                        t.put(key(i), value(i, 2000 + c));
                    }
                    tx.commit();
                }
            }
            JournalStats after = store.stats().journal();
            assertTrue(after.bytesInUse() < fileWhilePinned / 4, "space is in use: " + after);
            assertTrue(after.fileBytes() <= fileWhilePinned + fileWhilePinned / 50,
                    "space held by the reader was reused after it closed: file " + store.stats().journal().fileBytes()
                            + " bytes now, " + fileWhilePinned + " while pinned; " + store.stats().journal());
            store.verify();
        }
    }
}
