package dev.basalt.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.journal.Addresses;
import dev.basalt.store.journal.JournalMode;

/**
 * Online compaction repacks the trees: after inserts in key order (every split leaves a half-full
 * leaf) and deletes of three keys in five (leaves down to about a fifth, merged below a quarter),
 * the records of the newest commit point take no more than 1.05x the space of an offline copy's
 * (every tree built bottom-up into full pages), while readers that open snapshots throughout
 * the compaction read every entry as it was. Three trees: 8-byte keys, variable-length string keys in random
 * order (a lexicon's shape) and id-tuple keys of four ids (a statement index). Fixed seed for the
 * strings ({@code -Dbasalt.seed=N} to vary).
 */
class OnlineRepackTest {
    private static final int SUBJECTS = 20_000;

    @TempDir
    Path dir;

    private static StoreConfig config() {
        return StoreConfig.defaults()
                .withJournal(StoreConfig.defaults().journal().withMode(JournalMode.RW).withHistoryRetention(Duration.ZERO))
                .withTreesStartingWith("quads", BTreeConfig.builder().idTupleWidth(4).build());
    }

    private static byte[] quad(int subject, int predicate) {
        return ByteBuffer.allocate(32).putLong(1000 + subject).putLong(10 + predicate).putLong(subject * 7L + predicate)
                .putLong(1).array();
    }

    private static byte[] term(long k) {
        return ("http://example.org/resource/" + Long.toString(k, 36) + "/" + (k % 97))
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] eight(long k) {
        return ByteBuffer.allocate(8).putLong(k).array();
    }

    @Test
    void compactionRepacksLeavesToTheDensityOfAnOfflineCopy() throws Exception {
        long seed = Long.getLong("basalt.seed", 22);
        Random rnd = new Random(seed);
        long[] terms = new long[SUBJECTS];
        for (int i = 0; i < SUBJECTS; i++) {
            terms[i] = rnd.nextLong() >>> 1;
        }
        Path file = dir.resolve("r.jnl");
        long[] before;
        OnlineCompactor.Result r;
        try (Store s = Store.open(file, config())) {
            // appended in key order: every split leaves a half-full leaf behind
            for (int batch = 0; batch < 8; batch++) {
                try (WriteTransaction tx = s.begin()) {
                    for (int i = batch * SUBJECTS / 8; i < (batch + 1) * SUBJECTS / 8; i++) {
                        tx.tree("eight").put(eight(i), eight(terms[i]));
                        tx.tree("terms").put(term(terms[i]), eight(i));
                        for (int p = 0; p < 5; p++) {
                            tx.tree("quads").put(quad(i, p), new byte[0]);
                        }
                    }
                    tx.commit();
                }
            }
            // four in five go, one predicate at a time: leaves thin out, and are merged below a quarter
            for (int gone = 1; gone <= 4; gone++) {
                try (WriteTransaction tx = s.begin()) {
                    for (int i = 0; i < SUBJECTS; i++) {
                        tx.tree("quads").remove(quad(i, gone));
                        if (i % 5 == gone) {
                            tx.tree("eight").remove(eight(i));
                            tx.tree("terms").remove(term(terms[i]));
                        }
                    }
                    tx.commit();
                }
            }
            before = records(s);
            // readers open snapshots throughout: a repack replaces pages they may be reading
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicInteger reads = new AtomicInteger();
            Thread reader = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        try (Snapshot snap = s.snapshot()) {
                            checkContent(snap, terms, seed, 1 + reads.getAndIncrement() % 97);
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            reader.start();
            try {
                r = OnlineCompactor.compact(s, OnlineCompactor.Options.DEFAULT, () -> { });
            } finally {
                stop.set(true);
                reader.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("seed " + seed + ": a reader failed after " + reads + " reads", failure.get());
            }
            assertTrue(r.pagesRepacked() > 0, "seed " + seed + ": nothing was repacked: " + r);
            OnlineCompactor.Result second = OnlineCompactor.compact(s, OnlineCompactor.Options.DEFAULT, () -> { });
            assertEquals(0, second.pagesRepacked(), "seed " + seed + ": a dense store was repacked again: " + second);
            try (Snapshot snap = s.snapshot()) {
                checkContent(snap, terms, seed, 1);
            }
        }
        Path copy = dir.resolve("copy.jnl");
        Files.copy(file, copy);
        StoreCompactor.compact(copy, config());
        long[] online;
        long[] offline;
        try (Store s = Store.open(file, config())) {
            s.verify();
            online = records(s);
        }
        try (Store s = Store.open(copy, config())) {
            offline = records(s);
        }
        double pages = (double) online[0] / offline[0];
        double bytes = (double) online[1] / offline[1];
        String figures = String.format("seed %d: records of the trees before: %,d (%,d bytes); after online compaction: %,d"
                + " (%,d bytes); offline copy: %,d (%,d bytes)", seed, before[0], before[1], online[0], online[1],
                offline[0], offline[1]);
        LoggerFactory.getLogger(OnlineRepackTest.class).info("{}; {}", figures, r);
        System.err.println(figures + "; " + r);
        assertTrue(before[0] > 1.5 * offline[0], figures + ": the deletes did not leave the leaves underfull, the test"
                + " would not see a missing repack");
        assertTrue(pages <= 1.05, figures + ": the trees were not repacked to the offline copy's pages");
        assertTrue(bytes <= 1.05, figures + ": the trees' records take more than 1.05x the offline copy's space");
    }

    /** Records of the user trees at the newest commit point, and the bytes of the slots and extents they take. */
    private static long[] records(Store s) {
        long[] sum = new long[2];
        try (Snapshot snap = s.snapshot()) {
            for (String name : snap.treeNames()) {
                snap.tree(name).forEachRecord(address -> {
                    sum[0]++;
                    sum[1] += Addresses.span(address);
                });
            }
        }
        return sum;
    }

    /** Checks every {@code step}th subject. */
    private static void checkContent(Snapshot snap, long[] terms, long seed, int step) {
        BTree eight = snap.tree("eight");
        BTree lexicon = snap.tree("terms");
        BTree quads = snap.tree("quads");
        assertEquals(SUBJECTS, quads.size(), "seed " + seed);
        for (int i = 0; i < SUBJECTS; i += step) {
            boolean kept = i % 5 == 0;
            assertArrayEquals(kept ? eight(terms[i]) : null, eight.get(eight(i)), "seed " + seed + " eight " + i);
            assertArrayEquals(kept ? eight(i) : null, lexicon.get(term(terms[i])), "seed " + seed + " terms " + i);
            for (int p = 0; p < 5; p++) {
                assertEquals(p == 0, quads.containsKey(quad(i, p)), "seed " + seed + " quads " + i + " " + p);
            }
        }
    }
}
