package dev.basalt.store.btree;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Read-only views of an old checkpoint keep answering from it while the writer moves on. */
class BTreeSnapshotTest {
    private static final BTreeConfig CONFIG = BTreeConfig.builder().leafMaxEntries(16).internalMaxEntries(8)
            .inlineValueThreshold(32).writeRetentionCapacity(8).build();

    private static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i * 3).array();
    }

    private static byte[] value(int i, int version) {
        return ByteBuffer.allocate(i % 7 == 0 ? 64 : 8).putInt(i).putInt(version).array();
    }

    @Test
    void oldCheckpointIsReadableWhileTheWriterContinues() {
        TestStores.DeferredFreeStore store = new TestStores.DeferredFreeStore();
        PageCache cache = new PageCache(1 << 20);
        BTree writer = BTree.create(store, CONFIG, cache);
        for (int i = 0; i < 3000; i++) {
            writer.put(key(i), value(i, 0));
        }
        BTreeCheckpoint old = writer.checkpoint();
        BTree reader = BTree.openReadOnly(store, old, CONFIG, cache);
        BTreeCursor openCursor = reader.cursor(key(100), null);
        assertTrue(openCursor.next());

        Random rnd = new Random(3);
        for (int round = 0; round < 5; round++) {
            for (int j = 0; j < 2000; j++) {
                int k = rnd.nextInt(4000);
                if (rnd.nextInt(3) == 0) {
                    writer.remove(key(k));
                } else {
                    writer.put(key(k), value(k, round + 1));
                }
            }
            writer.checkpoint();
        }
        assertTrue(store.deferredCount() > 0, "the writer released pages of the old checkpoint");

        assertEquals(3000, reader.size());
        assertEquals(3000, reader.verify().entries());
        for (int i = 0; i < 3000; i += 13) {
            assertArrayEquals(value(i, 0), reader.get(key(i)));
        }
        assertEquals(1000, reader.rangeCount(key(1000), key(2000)));
        int expected = 101;
        while (openCursor.next()) {
            assertArrayEquals(key(expected), openCursor.key());
            assertArrayEquals(value(expected, 0), openCursor.value());
            expected++;
        }
        assertEquals(3000, expected);

        store.releaseDeferred();
        writer.verify();
        assertEquals(BTreeModelTest.reachableRecords(writer), store.inner.recordCount(),
                "once the reader is gone, only the writer's records remain");
    }

    @Test
    void concurrentReadersSeeTheirSnapshotWithoutLocks() throws Exception {
        TestStores.DeferredFreeStore store = new TestStores.DeferredFreeStore();
        PageCache cache = new PageCache(256 * 1024);
        BTree writer = BTree.create(store, CONFIG, cache);
        for (int i = 0; i < 2000; i++) {
            writer.put(key(i), value(i, 0));
        }
        BTreeCheckpoint old = writer.checkpoint();
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<Integer>> scans = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                boolean descending = t == 1;
                scans.add(pool.submit(() -> {
                    BTree reader = BTree.openReadOnly(store, old, CONFIG, cache);
                    int passes = 0;
                    do {
                        int n = 0;
                        BTreeCursor c = descending ? reader.descendingCursor(null, null) : reader.cursor(null, null);
                        while (c.next()) {
                            int i = descending ? 1999 - n : n;
                            if (!java.util.Arrays.equals(key(i), c.key()) || !java.util.Arrays.equals(value(i, 0), c.value())) {
                                throw new AssertionError("reader saw a change at entry " + n);
                            }
                            n++;
                        }
                        if (n != 2000 || reader.rangeCount(null, key(1000)) != 1000) {
                            throw new AssertionError("reader saw " + n + " entries");
                        }
                        passes++;
                    } while (!stop.get() || passes < 2);
                    return passes;
                }));
            }
            Random rnd = new Random(5);
            for (int j = 0; j < 20_000; j++) {
                int k = rnd.nextInt(3000);
                if (rnd.nextInt(3) == 0) {
                    writer.remove(key(k));
                } else {
                    writer.put(key(k), value(k, 1 + j));
                }
                if (j % 2000 == 0) {
                    writer.checkpoint();
                }
            }
            stop.set(true);
            for (Future<Integer> f : scans) {
                assertTrue(f.get(60, TimeUnit.SECONDS) >= 2);
            }
        } finally {
            stop.set(true);
            pool.shutdownNow();
        }
        writer.checkpoint();
        store.releaseDeferred();
        assertFalse(writer.verify().entries() == 0);
    }
}
