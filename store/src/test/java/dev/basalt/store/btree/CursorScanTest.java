package dev.basalt.store.btree;

import dev.basalt.store.journal.MemoryRecordStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The allocation-free scan paths agree with the decoded model: a leaf's incremental scan
 * ({@link LeafNode#scanTo}, {@link LeafNode#scanNext}, {@link LeafNode#scanCeiling}) with
 * {@link LeafNode#keyAt}, {@link LeafNode#valueAt} and {@link LeafNode#search}; and cursors
 * (ascending, descending, by prefix) over clean and dirty trees with a {@link TreeMap}, with
 * {@link BTreeCursor#keyView()} equal to {@link BTreeCursor#key()} on every entry.
 */
class CursorScanTest {
    private static final int[] INTERVALS = {1, 2, 16};

    @Test
    void leafScanAgreesWithDecodedEntries() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        for (int round = 0; round < 300; round++) {
            TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
            int n = rnd.nextInt(80);
            while (set.size() < n) {
                set.add(randomKey(rnd));
            }
            byte[][] keys = set.toArray(new byte[0][]);
            Object[] values = new Object[keys.length];
            for (int i = 0; i < keys.length; i++) {
                values[i] = randomStored(rnd, i);
            }
            int interval = round < 3 * INTERVALS.length ? INTERVALS[round % INTERVALS.length] : 1 + rnd.nextInt(20);
            LeafPage page = LeafPage.decode(1, 0, LeafPage.encode(keys, values, keys.length, interval, 16));
            DirtyLeaf dirty = DirtyLeaf.copyOf(page, 4);
            String ctx = "seed=" + seed + " round=" + round + " interval=" + interval;
            for (LeafNode leaf : List.<LeafNode>of(page, dirty)) {
                LeafScan scan = new LeafScan();
                for (int i = 0; i < keys.length; i++) {
                    if (i == 0 || rnd.nextInt(4) == 0) {
                        leaf.scanTo(i, scan);
                    } else {
                        leaf.scanNext(scan);
                    }
                    assertEquals(i, scan.index, ctx);
                    assertArrayEquals(keys[i], Arrays.copyOf(scan.key, scan.keyLength), ctx + " entry " + i);
                    assertStoredEquals(leaf.valueAt(i), leaf.scanValue(scan), ctx + " entry " + i);
                }
                for (int probe = 0; probe < 100; probe++) {
                    byte[] k = probe % 3 == 0 && keys.length > 0 ? keys[rnd.nextInt(keys.length)] : randomKey(rnd);
                    int found = leaf.search(k);
                    int expected = found >= 0 ? found : -found - 1;
                    LeafScan s = new LeafScan();
                    assertEquals(expected, leaf.scanCeiling(k, s), ctx + " probe " + BTreeModelTest.hex(k));
                    if (expected < keys.length) {
                        assertArrayEquals(keys[expected], Arrays.copyOf(s.key, s.keyLength), ctx);
                        if (expected + 1 < keys.length) {
                            leaf.scanNext(s);
                            assertArrayEquals(keys[expected + 1], Arrays.copyOf(s.key, s.keyLength), ctx);
                        }
                    }
                }
            }
        }
    }

    @Test
    void cursorsAgreeWithTreeMapOnCleanAndDirtyTrees() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        for (int interval : INTERVALS) {
            BTreeConfig config = BTreeConfig.builder().leafMaxEntries(4 + rnd.nextInt(40)).internalMaxEntries(4)
                    .restartInterval(interval).inlineValueThreshold(8).build();
            checkTree(config, () -> randomKey(rnd), rnd, "seed=" + seed + " interval=" + interval);
        }
    }

    /**
     * The same over a tree declared to hold keys of four ids, in id-tuple leaves: keys of term-id
     * shapes that often share leading ids, and one in twenty of another length, so that some leaves
     * are front-coded and cursors cross between the two kinds.
     */
    @Test
    void cursorsAgreeWithTreeMapOverIdTupleLeaves() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        for (int interval : INTERVALS) {
            BTreeConfig config = BTreeConfig.builder().leafMaxEntries(4 + rnd.nextInt(40)).internalMaxEntries(4)
                    .restartInterval(interval).inlineValueThreshold(8).idTupleWidth(4).build();
            byte[][] last = {null};
            BTreeStats stats = checkTree(config, () -> {
                if (rnd.nextInt(20) == 0) {
                    return randomKey(rnd);
                }
                last[0] = IdTupleLeafPageTest.tuple(rnd, 4, last[0]);
                return last[0];
            }, rnd, "seed=" + seed + " interval=" + interval);
            assertTrue(stats.idTupleLeafPages() > 0 && stats.idTupleLeafPages() < stats.leafPages(), stats.toString());
        }
    }

    /**
     * Fills a tree with 2000 keys from {@code keys} and checks its cursors dirty, clean, read-only,
     * uncached, and with some pages dirty again; returns what verifying the clean tree found.
     */
    private static BTreeStats checkTree(BTreeConfig config, java.util.function.Supplier<byte[]> keys, Random rnd, String ctx) {
        MemoryRecordStore store = new MemoryRecordStore();
        PageCache cache = new PageCache(1 << 20);
        BTree tree = BTree.create(store, config, cache);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < 2000; i++) {
            byte[] k = keys.get();
            byte[] v = new byte[rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(20)];
            rnd.nextBytes(v);
            tree.put(k, v);
            model.put(k, v);
        }
        checkCursors(tree, model, rnd, ctx + " dirty");
        BTreeCheckpoint cp = tree.checkpoint();
        BTreeStats stats = tree.verify();
        checkCursors(tree, model, rnd, ctx + " writable, clean");
        checkCursors(BTree.openReadOnly(store, cp, config, cache), model, rnd, ctx + " read-only");
        checkCursors(BTree.openReadOnly(store, cp, config, null), model, rnd, ctx + " uncached");
        // some pages dirty again: cursors cross between clean and dirty leaves
        for (int i = 0; i < 50; i++) {
            byte[] k = keys.get();
            tree.put(k, new byte[]{1});
            model.put(k, new byte[]{1});
        }
        checkCursors(tree, model, rnd, ctx + " mixed");
        return stats;
    }

    private static void checkCursors(BTree tree, NavigableMap<byte[], byte[]> model, Random rnd, String ctx) {
        List<byte[]> keys = new ArrayList<>(model.keySet());
        for (int probe = 0; probe < 300; probe++) {
            byte[] from = bound(rnd, keys);
            byte[] to = bound(rnd, keys);
            NavigableMap<byte[], byte[]> expected = range(model, from, to);
            String c = ctx + " [" + BTreeModelTest.hex(from) + ", " + BTreeModelTest.hex(to) + ")";
            assertSame(expected, tree.cursor(from, to), c, rnd);
            assertSame(expected.descendingMap(), tree.descendingCursor(from, to), c + " descending", rnd);
            byte[] prefix = from == null ? new byte[0] : Arrays.copyOf(from, rnd.nextInt(from.length + 1));
            NavigableMap<byte[], byte[]> withPrefix = new TreeMap<>(Arrays::compareUnsigned);
            for (Map.Entry<byte[], byte[]> e : model.tailMap(prefix, true).entrySet()) {
                byte[] k = e.getKey();
                if (k.length < prefix.length || !Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)) {
                    break;
                }
                withPrefix.put(k, e.getValue());
            }
            assertSame(withPrefix, tree.prefixCursor(prefix.clone()), ctx + " prefix " + BTreeModelTest.hex(prefix), rnd);
        }
    }

    /** The entries of {@code model} in {@code [from, to)}, a null end open. */
    static NavigableMap<byte[], byte[]> range(NavigableMap<byte[], byte[]> model, byte[] from, byte[] to) {
        return from != null && to != null && Arrays.compareUnsigned(from, to) >= 0
                ? new TreeMap<>()
                : from == null ? (to == null ? model : model.headMap(to, false))
                : to == null ? model.tailMap(from, true) : model.subMap(from, true, to, false);
    }

    /** A key of the tree, a key between (or beyond) them, or no bound. */
    private static byte[] bound(Random rnd, List<byte[]> keys) {
        return switch (rnd.nextInt(5)) {
            case 0 -> null;
            case 1, 2 -> keys.get(rnd.nextInt(keys.size())).clone();
            default -> randomKey(rnd);
        };
    }

    private static void assertSame(NavigableMap<byte[], byte[]> expected, BTreeCursor cursor, String ctx, Random rnd) {
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
            assertTrue(cursor.next(), ctx + " ends after " + i + " of " + expected.size());
            byte[] key = cursor.key();
            assertArrayEquals(e.getKey(), key, ctx + " entry " + i);
            assertArrayEquals(key, Arrays.copyOf(cursor.keyView(), cursor.keyLength()), ctx + " view of entry " + i);
            if (rnd.nextBoolean()) {
                byte[] value = cursor.value();
                assertArrayEquals(e.getValue(), value, ctx + " value of entry " + i);
                Arrays.fill(value, (byte) 0x5a);
                if (key.length > 0) {
                    key[0] ^= 1;
                }
                assertArrayEquals(e.getValue(), cursor.value(), ctx + " value is the caller's copy");
                assertArrayEquals(e.getKey(), cursor.key(), ctx + " key is the caller's copy");
            }
            i++;
        }
        assertFalse(cursor.next(), ctx + " has more than " + expected.size());
        assertFalse(cursor.next(), ctx);
        assertThrows(IllegalStateException.class, cursor::keyView, ctx);
    }

    @Test
    void emptyRangesAndEmptyTrees() {
        BTree empty = BTree.create(new MemoryRecordStore(), BTreeConfig.DEFAULT, new PageCache(1 << 16));
        assertFalse(empty.cursor(null, null).next());
        assertFalse(empty.prefixCursor(new byte[]{1}).next());
        assertFalse(empty.descendingCursor(null, null).next());
        BTree tree = BTree.create(new MemoryRecordStore(), BTreeConfig.builder().leafMaxEntries(4).build(), new PageCache(1 << 16));
        for (int i = 0; i < 100; i += 2) {
            tree.put(new byte[]{(byte) i}, new byte[0]);
        }
        tree.checkpoint();
        assertFalse(tree.cursor(new byte[]{9}, new byte[]{9}).next());
        assertFalse(tree.cursor(new byte[]{9}, new byte[]{5}).next());
        assertFalse(tree.cursor(new byte[]{9}, new byte[]{10}).next(), "between two keys");
        assertFalse(tree.cursor(new byte[]{(byte) 200}, null).next(), "past the last key");
        assertFalse(tree.prefixCursor(new byte[]{9}).next());
        assertFalse(tree.prefixCursor(new byte[]{8, 0}).next());
        BTreeCursor c = tree.prefixCursor(new byte[]{8});
        assertTrue(c.next());
        assertArrayEquals(new byte[]{8}, c.key());
        assertEquals(0, c.value().length);
        assertFalse(c.next());
    }

    private static Object randomStored(Random rnd, int i) {
        return switch (rnd.nextInt(4)) {
            case 0 -> new LargeValue(64L * (i + 1) << 22 | 1, i, 1000 + i);
            case 1 -> new byte[0];
            default -> {
                byte[] v = new byte[1 + rnd.nextInt(10)];
                rnd.nextBytes(v);
                yield v;
            }
        };
    }

    private static void assertStoredEquals(Object expected, Object actual, String ctx) {
        if (expected instanceof byte[] b) {
            assertArrayEquals(b, (byte[]) actual, ctx);
        } else {
            assertEquals(expected, actual, ctx);
        }
    }

    /** Keys of 0 to 40 bytes over a small alphabet with long common prefixes, so front coding shares a lot. */
    private static byte[] randomKey(Random rnd) {
        int length = rnd.nextInt(4) == 0 ? rnd.nextInt(6) : 20 + rnd.nextInt(21);
        byte[] k = new byte[length];
        for (int i = 0; i < length; i++) {
            k[i] = i < 16 && rnd.nextInt(8) != 0 ? (byte) 0x42 : (byte) (rnd.nextInt(3) * 0x7f);
        }
        return k;
    }
}
