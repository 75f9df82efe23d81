package dev.basalt.store.btree;

import dev.basalt.store.journal.MemoryRecordStore;
import org.junit.jupiter.api.Test;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BulkBuildTest {
    private static final BTreeConfig CONFIG = BTreeConfig.builder().leafMaxEntries(10).internalMaxEntries(6)
            .maxPageBytes(1024).restartInterval(4).inlineValueThreshold(40).writeRetentionCapacity(16).build();

    private static TreeMap<byte[], byte[]> randomEntries(Random rnd, int n) {
        TreeMap<byte[], byte[]> map = new TreeMap<>(Arrays::compareUnsigned);
        while (map.size() < n) {
            byte[] k = new byte[rnd.nextInt(12)];
            rnd.nextBytes(k);
            byte[] v = new byte[rnd.nextInt(30) == 0 ? 41 + rnd.nextInt(200) : rnd.nextInt(10)];
            rnd.nextBytes(v);
            map.put(k, v);
        }
        return map;
    }

    @Test
    void bulkBuildEqualsIncrementalBuildAtEverySize() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        int[] sizes = {0, 1, 2, 9, 10, 11, 19, 20, 21, 59, 60, 61, 100, 361, 1000, 4321};
        for (int n : sizes) {
            String ctx = "seed=" + seed + " n=" + n;
            TreeMap<byte[], byte[]> entries = randomEntries(rnd, n);
            MemoryRecordStore store = new MemoryRecordStore();
            BTreeCheckpoint cp = BTree.bulkBuild(store, CONFIG, entries.entrySet().iterator());
            assertEquals(n, cp.entryCount(), ctx);
            PageCache cache = new PageCache(1 << 20);
            BTree bulk = BTree.open(store, cp, CONFIG, cache);
            BTreeStats stats = bulk.verify();
            assertEquals(n, stats.entries(), ctx);
            assertEquals(BTreeModelTest.reachableRecords(bulk), store.recordCount(), ctx);

            BTree incremental = BTree.create(new MemoryRecordStore(), CONFIG, cache);
            entries.forEach(incremental::put);
            incremental.checkpoint();
            assertTrue(stats.pages() <= incremental.verify().pages(), ctx + " bulk pages are full");
            BTreeCursor a = bulk.cursor(null, null);
            BTreeCursor b = incremental.cursor(null, null);
            while (a.next()) {
                assertTrue(b.next(), ctx);
                assertArrayEquals(b.key(), a.key(), ctx);
                assertArrayEquals(b.value(), a.value(), ctx);
            }
            assertFalse(b.next(), ctx);

            List<byte[]> keys = new ArrayList<>(entries.keySet());
            for (int probe = 0; probe < 200 && n > 0; probe++) {
                byte[] from = rnd.nextInt(10) == 0 ? null : keys.get(rnd.nextInt(n));
                byte[] to = rnd.nextInt(10) == 0 ? null : keys.get(rnd.nextInt(n));
                long lo = from == null ? 0 : lowerBound(keys, from);
                long hi = to == null ? n : lowerBound(keys, to);
                long expected = Math.max(0, hi - lo);
                assertEquals(expected, bulk.rangeCount(from, to), ctx + " range " + BTreeModelTest.hex(from) + ".." + BTreeModelTest.hex(to));
                long index = rnd.nextInt(n);
                assertArrayEquals(keys.get((int) index), bulk.entryAt(index).getKey(), ctx);
            }

            // the bulk-built tree is an ordinary tree afterwards
            for (int i = 0; i < n / 2; i++) {
                bulk.remove(keys.get(rnd.nextInt(n)));
                byte[] k = new byte[5];
                rnd.nextBytes(k);
                bulk.put(k, k);
            }
            bulk.checkpoint();
            bulk.verify();
            assertEquals(BTreeModelTest.reachableRecords(bulk), store.recordCount(), ctx);
            bulk.clear();
            bulk.checkpoint();
            assertEquals(0, store.recordCount(), ctx);
        }
    }

    private static int lowerBound(List<byte[]> keys, byte[] key) {
        int i = java.util.Collections.binarySearch(keys, key, Arrays::compareUnsigned);
        return i >= 0 ? i : -i - 1;
    }

    @Test
    void unsortedOrDuplicateInputFailsAndLeavesNothingBehind() {
        MemoryRecordStore store = new MemoryRecordStore();
        List<Map.Entry<byte[], byte[]>> input = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            input.add(new AbstractMap.SimpleEntry<>(new byte[]{(byte) (i / 256), (byte) i}, new byte[i % 60]));
        }
        input.add(new AbstractMap.SimpleEntry<>(new byte[]{1, 43}, new byte[0]));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BTree.bulkBuild(store, CONFIG, input.iterator()));
        assertTrue(e.getMessage().contains("duplicate"), e.getMessage());
        assertEquals(0, store.recordCount());

        input.set(300, new AbstractMap.SimpleEntry<>(new byte[]{0, 5}, new byte[0]));
        e = assertThrows(IllegalArgumentException.class, () -> BTree.bulkBuild(store, CONFIG, input.iterator()));
        assertTrue(e.getMessage().contains("entry 300"), e.getMessage());
        assertEquals(0, store.recordCount());
    }

    @Test
    void bulkLoadIntoAWritableTreeJoinsItsTransaction() {
        MemoryRecordStore store = new MemoryRecordStore();
        TreeMap<byte[], byte[]> entries = randomEntries(new Random(BTreeModelTest.seed()), 2000);
        BTree tree = BTree.create(store, CONFIG, new PageCache(1 << 20));
        tree.bulkLoad(entries.entrySet().iterator());
        assertEquals(2000, tree.verify().entries());
        tree.abandon();
        assertTrue(tree.isEmpty());
        assertEquals(0, store.recordCount(), "abandon frees the loaded pages and large values");

        tree.bulkLoad(entries.entrySet().iterator());
        tree.checkpoint();
        assertEquals(BTreeModelTest.reachableRecords(tree), store.recordCount());
        for (var e : entries.entrySet()) {
            assertArrayEquals(e.getValue(), tree.get(e.getKey()));
        }
        assertThrows(IllegalStateException.class, () -> tree.bulkLoad(entries.entrySet().iterator()));
        tree.clear();
        tree.checkpoint();
        assertEquals(0, store.recordCount());
    }

    @Test
    void largeValuesRoundTripAndAreFreed() {
        MemoryRecordStore store = new MemoryRecordStore();
        TreeMap<byte[], byte[]> entries = new TreeMap<>(Arrays::compareUnsigned);
        for (int i = 0; i < 200; i++) {
            byte[] v = new byte[1000 + i];
            Arrays.fill(v, (byte) i);
            entries.put(new byte[]{(byte) i}, v);
        }
        BTreeCheckpoint cp = BTree.bulkBuild(store, CONFIG, entries.entrySet().iterator());
        BTree tree = BTree.openReadOnly(store, cp, CONFIG, null);
        assertEquals(200, tree.verify().largeValues());
        for (var e : entries.entrySet()) {
            assertArrayEquals(e.getValue(), tree.get(e.getKey()));
        }
        BTree.destroy(store, cp, null);
        assertEquals(0, store.recordCount());
    }
}
