package dev.basalt.store.btree;

import dev.basalt.store.journal.MemoryRecordStore;
import dev.basalt.store.journal.RecordStore;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Record accounting: nothing leaks, nothing is freed twice, a hot page is written once per commit. */
class BTreeRecordsTest {
    private static final BTreeConfig CONFIG = BTreeConfig.builder().leafMaxEntries(16).internalMaxEntries(8)
            .inlineValueThreshold(24).writeRetentionCapacity(4).build();

    private final MemoryRecordStore store = new MemoryRecordStore();
    private final PageCache cache = new PageCache(1 << 20);

    private static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    private static byte[] value(int i, boolean large) {
        byte[] v = new byte[large ? 40 + i % 50 : i % 10];
        Arrays.fill(v, (byte) i);
        return v;
    }

    @Test
    void afterEveryCheckpointTheStoreHoldsExactlyTheReachableRecords() {
        BTree tree = BTree.create(store, CONFIG, cache);
        for (int i = 0; i < 5000; i++) {
            tree.put(key(i), value(i, i % 3 == 0));
        }
        tree.checkpoint();
        assertEquals(BTreeModelTest.reachableRecords(tree), store.recordCount());
        for (int i = 0; i < 5000; i += 2) {
            tree.remove(key(i));
        }
        for (int i = 1; i < 5000; i += 4) {
            tree.put(key(i), value(i + 1, i % 5 == 0));
        }
        tree.checkpoint();
        assertEquals(BTreeModelTest.reachableRecords(tree), store.recordCount());
        assertEquals(2500, tree.verify().entries());
        tree.clear();
        assertEquals(0, tree.size());
        tree.checkpoint();
        assertEquals(0, store.recordCount(), "clear() releases every page and large value");
    }

    @Test
    void abandonFreesWhatTheTransactionWroteAndRestoresTheCheckpoint() {
        BTree tree = BTree.create(store, CONFIG, cache);
        TreeMap<Integer, byte[]> committed = new TreeMap<>();
        for (int i = 0; i < 2000; i++) {
            tree.put(key(i), value(i, i % 4 == 0));
            committed.put(i, value(i, i % 4 == 0));
        }
        BTreeCheckpoint cp = tree.checkpoint();
        int recordsAtCheckpoint = store.recordCount();
        Random rnd = new Random(7);
        for (int i = 0; i < 3000; i++) {
            int k = rnd.nextInt(4000);
            if (rnd.nextBoolean()) {
                tree.put(key(k), value(k + 3, k % 2 == 0));
            } else {
                tree.remove(key(k));
            }
        }
        assertTrue(store.recordCount() > recordsAtCheckpoint, "the retention queue wrote pages during the transaction");
        tree.abandon();
        assertEquals(recordsAtCheckpoint, store.recordCount(), "abandon() frees every record the transaction wrote");
        assertEquals(cp, tree.lastCheckpoint());
        assertEquals(committed.size(), tree.size());
        tree.verify();
        for (var e : committed.entrySet()) {
            assertArrayEquals(e.getValue(), tree.get(key(e.getKey())));
        }
        tree.put(key(1), value(99, true));
        tree.checkpoint();
        assertEquals(BTreeModelTest.reachableRecords(tree), store.recordCount());
    }

    @Test
    void destroyFreesEveryRecord() {
        BTree tree = BTree.create(store, CONFIG, cache);
        for (int i = 0; i < 3000; i++) {
            tree.put(key(i), value(i, i % 2 == 0));
        }
        BTreeCheckpoint cp = tree.checkpoint();
        BTree.destroy(store, cp, cache);
        assertEquals(0, store.recordCount());
    }

    /** Counts writes and frees passing through to a memory store. */
    private static final class CountingStore implements RecordStore {
        final MemoryRecordStore inner = new MemoryRecordStore();
        int writes;
        int frees;

        @Override
        public long write(ByteBuffer payload) {
            writes++;
            return inner.write(payload);
        }

        @Override
        public ByteBuffer read(long address, int expectedChecksum) {
            return inner.read(address, expectedChecksum);
        }

        @Override
        public void free(long address) {
            frees++;
            inner.free(address);
        }
    }

    @Test
    void aHotPageIsWrittenOncePerCommit() {
        CountingStore counting = new CountingStore();
        BTreeConfig config = BTreeConfig.builder().leafMaxEntries(16).internalMaxEntries(8).writeRetentionCapacity(100).build();
        BTree tree = BTree.create(counting, config, cache);
        for (int i = 0; i < 2000; i++) {
            tree.put(key(i), value(i, false));
        }
        tree.checkpoint();
        int height = tree.height();
        counting.writes = 0;
        counting.frees = 0;
        for (int round = 0; round < 1000; round++) {
            tree.put(key(777), value(round, false));
        }
        assertEquals(0, counting.writes, "nothing is written while the path stays in the retention queue");
        tree.checkpoint();
        assertEquals(height, counting.writes, "one record per page on the changed path");
        assertEquals(height, counting.frees, "the old path is freed at the checkpoint");
    }

    @Test
    void aPageWrittenAndDirtiedAgainInOneTransactionIsFreedAtOnce() {
        CountingStore counting = new CountingStore();
        BTreeConfig config = BTreeConfig.builder().leafMaxEntries(16).internalMaxEntries(8).writeRetentionCapacity(1).build();
        BTree tree = BTree.create(counting, config, cache);
        for (int i = 0; i < 500; i++) {
            tree.put(key(i), value(i, false));
        }
        tree.checkpoint();
        int before = counting.inner.recordCount();
        for (int round = 0; round < 200; round++) {
            tree.put(key(round % 2 == 0 ? 10 : 400), value(round, false));
        }
        assertTrue(counting.writes > 100, "capacity 1 forces writes during the transaction");
        assertTrue(counting.inner.recordCount() <= before + 2 * tree.height(),
                "records rewritten in the transaction are freed at once, not piled up: " + counting.inner.recordCount());
        tree.checkpoint();
        assertEquals(BTreeModelTest.reachableRecords(tree), counting.inner.recordCount());
    }
}
