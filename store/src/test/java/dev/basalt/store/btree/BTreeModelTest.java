package dev.basalt.store.btree;

import dev.basalt.store.journal.MemoryRecordStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Randomized test against {@link TreeMap}: puts, overwrites, removes, lookups, scans in both
 * directions with random bounds, counts, ranks, positional access, checkpoints, reopening,
 * abandoning and verification, with the tree growing and shrinking through several heights.
 * The seed is in every failure message; rerun with {@code -Dbasalt.seed=N}.
 */
class BTreeModelTest {
    private static final BTreeConfig SMALL = BTreeConfig.builder().leafMaxEntries(8).internalMaxEntries(5)
            .maxPageBytes(512).restartInterval(3).inlineValueThreshold(32).writeRetentionCapacity(7).build();
    private static final BTreeConfig MEDIUM = BTreeConfig.builder().leafMaxEntries(64).internalMaxEntries(16)
            .restartInterval(16).inlineValueThreshold(64).writeRetentionCapacity(64).build();

    static long seed() {
        String s = System.getProperty("basalt.seed");
        return s == null || s.isBlank() ? System.nanoTime() : Long.parseLong(s.trim());
    }

    @Test
    void smallPagesAgreeWithTreeMap() {
        new Run(seed(), SMALL, 3000).run(200_000);
    }

    @Test
    void mediumPagesAgreeWithTreeMap() {
        new Run(seed(), MEDIUM, 20_000).run(100_000);
    }

    /**
     * Statement-index shape: keys of four ids (and, rarely, a key of another length, whose leaf is
     * then written front-coded), in id-tuple leaves small enough to split and merge often; once
     * with empty values as in the statement indices, once with values of every size.
     */
    @Test
    void idTupleLeavesAgreeWithTreeMap() {
        long seed = seed();
        Run empty = new Run(seed, SMALL.toBuilder().idTupleWidth(4).build(), 3000);
        empty.keys = BTreeModelTest::quadKey;
        empty.emptyValues = true;
        empty.run(150_000);
        BTreeStats stats = empty.tree.verify();
        assertTrue(stats.idTupleLeafPages() > 0 && stats.idTupleLeafPages() <= stats.leafPages(), stats.toString());
        Run valued = new Run(seed + 1, MEDIUM.toBuilder().idTupleWidth(4).build(), 20_000);
        valued.keys = BTreeModelTest::quadKey;
        valued.run(100_000);
        assertTrue(valued.tree.verify().idTupleLeafPages() > 0);
    }

    /**
     * A tree of front-coded leaves under a version-1 checkpoint (what page format 1 wrote), reopened
     * as an id-tuple tree: it reads as before, holds both leaf kinds while the writer replaces the
     * leaves it changes, and agrees with the model throughout.
     */
    @Test
    void formatOneTreeTakesIdTupleLeaves() {
        long seed = seed();
        Run run = new Run(seed, SMALL, 3000);
        run.keys = BTreeModelTest::quadKey;
        run.emptyValues = true;
        run.run(20_000);
        assertEquals(0, run.tree.verify().idTupleLeafPages());
        run.reopenAsFormatOne(SMALL.toBuilder().idTupleWidth(4).build());
        for (int i = 0; i < 200; i++) {
            run.lookup();
            run.scan();
        }
        // a few operations at a time until a written leaf was replaced: a short run may end in an
        // abandon (or in no write that reaches a checkpoint), which leaves every leaf as it was
        BTreeStats mixed = run.tree.verify();
        for (int round = 0; round < 20 && mixed.idTupleLeafPages() == 0; round++) {
            run.run(40);
            mixed = run.tree.verify();
        }
        assertTrue(mixed.idTupleLeafPages() > 0 && mixed.idTupleLeafPages() < mixed.leafPages(),
                "seed " + seed + ": " + mixed);
        run.run(30_000);
    }

    /**
     * Deterministic four-id key for a number: ids of term-id shapes (small counters, inline ids with
     * centred payloads, the smallest and largest ids, any 64 bits) chosen so that neighbours often
     * share leading ids; one number in 997 gives a 3-byte key instead.
     */
    static byte[] quadKey(int k) {
        if (k % 997 == 0) {
            return new byte[]{(byte) (k >>> 8), (byte) k, 7};
        }
        long h = k * 0x9E3779B97F4A7C15L;
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(32);
        for (int i = 0; i < 4; i++) {
            long id = switch ((int) (h >>> (61 - 3 * i)) & 7) {
                case 0 -> 0x2000000000000000L | (k >>> (2 * i)) % 50;
                case 1 -> 0x3000000000000000L | (h >>> 20 & 0xfffff);
                case 2 -> 0x7800000000000000L | (long) (k % 13) << 4;
                case 3 -> i == 3 ? 1 : 0xB800000000000000L + ((h >>> 30 & 0xffffff) << 7);
                case 4 -> -1L - k % 3;
                case 5 -> k % 3;
                case 6 -> h;
                default -> 0x1000000000000000L | i;
            };
            b.putLong(id);
        }
        return b.array();
    }

    @Test
    @Tag("long")
    void millionsOfOperations() {
        long seed = seed();
        Run small = new Run(seed, SMALL, 10_000);
        small.checkpointOneIn = 10;
        small.run(2_000_000);
        Run medium = new Run(seed + 1, MEDIUM, 100_000);
        medium.checkpointOneIn = 20;
        medium.run(2_000_000);
    }

    /** Deterministic key for a number: prefix-heavy, varying length, order unrelated to the number. */
    static byte[] key(int k) {
        int extra = k % 7;
        byte[] key = new byte[5 + extra];
        key[0] = (byte) (k % 3);
        key[1] = (byte) (k >>> 24);
        key[2] = (byte) (k >>> 16);
        key[3] = (byte) (k >>> 8);
        key[4] = (byte) k;
        Arrays.fill(key, 5, key.length, (byte) (k * 31));
        return k % 1000 == 0 ? new byte[k % 3000 == 0 ? 0 : 1] : key;
    }

    static final class Run {
        final long seed;
        BTreeConfig config;
        final int keySpace;
        final Random rnd;
        final MemoryRecordStore store = new MemoryRecordStore();
        final PageCache cache = new PageCache(256 * 1024);
        BTree tree;
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        TreeMap<byte[], byte[]> committed = new TreeMap<>(Arrays::compareUnsigned);
        int op;
        /** Of the operations drawn as checkpoint/reopen/abandon, the share actually done (1 in N). */
        int checkpointOneIn = 1;
        java.util.function.IntFunction<byte[]> keys = BTreeModelTest::key;
        boolean emptyValues;

        Run(long seed, BTreeConfig config, int keySpace) {
            this.seed = seed;
            this.config = config;
            this.keySpace = keySpace;
            this.rnd = new Random(seed);
            this.tree = BTree.create(store, config, cache);
        }

        String ctx() {
            return "seed=" + seed + " op=" + op + " config=" + config;
        }

        byte[] value() {
            if (emptyValues) {
                return new byte[0];
            }
            int len = rnd.nextInt(40) == 0 ? config.inlineValueThreshold() + rnd.nextInt(3 * config.inlineValueThreshold())
                    : rnd.nextInt(Math.min(20, config.inlineValueThreshold() + 1));
            byte[] v = new byte[len];
            rnd.nextBytes(v);
            return v;
        }

        byte[] bound() {
            if (rnd.nextInt(8) == 0) {
                return null;
            }
            byte[] k = keys.apply(rnd.nextInt(keySpace));
            return rnd.nextInt(4) == 0 ? Arrays.copyOf(k, rnd.nextInt(k.length + 2)) : k;
        }

        void run(int ops) {
            try {
                runOps(ops);
            } catch (RuntimeException e) {
                throw new AssertionError(ctx() + ": " + e, e);
            }
        }

        private void runOps(int ops) {
            for (op = 0; op < ops; op++) {
                // alternate growing and shrinking phases so the height goes up and down
                boolean growing = (op / (ops / 6 + 1)) % 2 == 0;
                int r = rnd.nextInt(1000);
                if (r < (growing ? 500 : 250)) {
                    put();
                } else if (r < 690) {
                    remove();
                } else if (r < 700) {
                    repack();
                } else if (r < 850) {
                    lookup();
                } else if (r < 920) {
                    counts();
                } else if (r < 990) {
                    scan();
                } else if (rnd.nextInt(checkpointOneIn) != 0) {
                    lookup();
                } else if (r < 997) {
                    checkpoint();
                } else if (r < 998) {
                    reopen();
                } else {
                    abandon();
                }
                if (op % 25_000 == 0) {
                    verify();
                }
            }
            checkpoint();
            verify();
        }

        void put() {
            byte[] k = keys.apply(rnd.nextInt(keySpace));
            byte[] v = value();
            byte[] expected = model.put(k, v);
            assertArrayEquals(expected, tree.put(k, v), ctx());
            assertEquals(model.size(), tree.size(), ctx());
        }

        void remove() {
            byte[] k = keys.apply(rnd.nextInt(keySpace));
            assertArrayEquals(model.remove(k), tree.remove(k), ctx());
            assertEquals(model.size(), tree.size(), ctx());
        }

        /** Repacks the children of a page at a random height around a random key: entries unchanged. */
        void repack() {
            if (tree.height() >= 2) {
                int height = 2 + rnd.nextInt(tree.height() - 1);
                int saved = tree.repack(keys.apply(rnd.nextInt(keySpace)), height);
                assertTrue(saved >= 0, ctx());
                assertEquals(model.size(), tree.size(), ctx());
            }
        }

        void lookup() {
            byte[] k = keys.apply(rnd.nextInt(keySpace));
            assertArrayEquals(model.get(k), tree.get(k), ctx());
            assertEquals(model.containsKey(k), tree.containsKey(k), ctx());
        }

        void counts() {
            byte[] from = bound();
            byte[] to = bound();
            long expected = from != null && to != null && Arrays.compareUnsigned(from, to) >= 0 ? 0
                    : sub(from, to).size();
            assertEquals(expected, tree.rangeCount(from, to), ctx() + " rangeCount");
            if (from != null) {
                assertEquals(model.headMap(from, false).size(), tree.rank(from), ctx() + " rank");
            }
            if (!model.isEmpty() && rnd.nextInt(4) == 0) {
                int index = rnd.nextInt(model.size());
                byte[] k = index < model.size() / 2 ? model.navigableKeySet().stream().skip(index).findFirst().orElseThrow()
                        : model.descendingKeySet().stream().skip(model.size() - 1 - index).findFirst().orElseThrow();
                Map.Entry<byte[], byte[]> e = tree.entryAt(index);
                assertArrayEquals(k, e.getKey(), ctx() + " entryAt " + index);
                assertArrayEquals(model.get(k), e.getValue(), ctx() + " entryAt " + index);
            }
        }

        NavigableMap<byte[], byte[]> sub(byte[] from, byte[] to) {
            NavigableMap<byte[], byte[]> m = model;
            if (from != null) {
                m = m.tailMap(from, true);
            }
            if (to != null) {
                m = m.headMap(to, false);
            }
            return m;
        }

        void scan() {
            byte[] from = bound();
            byte[] to = bound();
            boolean descending = rnd.nextBoolean();
            int limit = 1 + rnd.nextInt(40);
            BTreeCursor cursor = descending ? tree.descendingCursor(from, to) : tree.cursor(from, to);
            Iterator<Map.Entry<byte[], byte[]>> expected;
            if (from != null && to != null && Arrays.compareUnsigned(from, to) >= 0) {
                expected = java.util.Collections.emptyIterator();
            } else {
                NavigableMap<byte[], byte[]> m = sub(from, to);
                expected = (descending ? m.descendingMap() : m).entrySet().iterator();
            }
            for (int i = 0; i < limit; i++) {
                boolean has = expected.hasNext();
                String where = ctx() + " scan " + (descending ? "desc" : "asc") + " from " + hex(from) + " to " + hex(to) + " #" + i;
                assertEquals(has, cursor.next(), where);
                if (!has) {
                    break;
                }
                Map.Entry<byte[], byte[]> e = expected.next();
                assertArrayEquals(e.getKey(), cursor.key(), where);
                assertArrayEquals(e.getValue(), cursor.value(), where);
            }
        }

        void checkpoint() {
            BTreeCheckpoint cp = tree.checkpoint();
            assertEquals(0, tree.dirtyPages(), ctx());
            assertEquals(model.size(), cp.entryCount(), ctx());
            committed = new TreeMap<>(model);
            assertEquals(reachableRecords(tree), store.recordCount(), ctx() + " records leaked or lost at checkpoint");
        }

        void reopen() {
            BTreeCheckpoint cp = tree.checkpoint();
            committed = new TreeMap<>(model);
            BTreeCheckpoint copy = BTreeCheckpoint.fromBytes(java.nio.ByteBuffer.wrap(cp.toBytes()));
            assertEquals(cp, copy, ctx());
            tree = BTree.open(store, copy, config, rnd.nextBoolean() ? cache : new PageCache(64 * 1024));
            assertEquals(model.size(), tree.size(), ctx());
        }

        /**
         * Checkpoints, then reopens the tree with {@code next} from a copy of its checkpoint marked
         * version 1, as a Basalt of page format 1 wrote it.
         */
        void reopenAsFormatOne(BTreeConfig next) {
            byte[] cp = tree.checkpoint().toBytes();
            committed = new TreeMap<>(model);
            cp[0] = 1;
            config = next;
            tree = BTree.open(store, BTreeCheckpoint.fromBytes(java.nio.ByteBuffer.wrap(cp)), config, cache);
            assertEquals(model.size(), tree.size(), ctx());
        }

        void abandon() {
            tree.abandon();
            model = new TreeMap<>(committed);
            assertEquals(model.size(), tree.size(), ctx());
            assertEquals(reachableRecords(tree), store.recordCount(), ctx() + " abandon left records behind");
        }

        void verify() {
            BTreeStats stats = tree.verify();
            assertEquals(model.size(), stats.entries(), ctx());
            assertEquals(model.size(), tree.size(), ctx());
            assertTrue(tree.height() <= 20, ctx());
            if (model.isEmpty()) {
                assertEquals(0, tree.height(), ctx());
                assertFalse(tree.cursor(null, null).next(), ctx());
            }
        }
    }

    static int reachableRecords(BTree tree) {
        List<Long> records = new ArrayList<>();
        tree.forEachRecord(records::add);
        assertEquals(records.size(), records.stream().distinct().count(), "a record is reachable twice");
        return records.size();
    }

    static String hex(byte[] b) {
        return b == null ? "null" : HexFormat.of().formatHex(b);
    }

    @Test
    void seedIsReproducible() {
        Run a = new Run(42, SMALL, 500);
        a.run(3000);
        Run b = new Run(42, SMALL, 500);
        b.run(3000);
        assertEquals(a.store.recordCount(), b.store.recordCount());
        assertNull(null);
    }
}
