package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BTree#bulkLoad} inside a store: the built tree commits, reopens and verifies with exact
 * space accounting; a rollback, a non-empty tree and unsorted input leave the store as before.
 */
class BulkLoadTest {
    private static final int N = 50_000;

    @TempDir
    Path dir;

    private static StoreConfig config() {
        return StoreConfig.defaults().withJournal(StoreConfig.defaults().journal().withDurable(false));
    }

    private static byte[] key(long i) {
        return ByteBuffer.allocate(16).putLong(i).putLong(~i).array();
    }

    private static byte[] value(long i) {
        return ByteBuffer.allocate(8).putLong(i * 31).array();
    }

    /** Keys {@code key(from)}, {@code key(from + step)}, ... ascending, {@code n} of them. */
    private static Iterator<Map.Entry<byte[], byte[]>> ascending(long from, long step, long n) {
        return new Iterator<>() {
            long i;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public Map.Entry<byte[], byte[]> next() {
                if (i >= n) {
                    throw new NoSuchElementException();
                }
                long k = from + step * i++;
                return new AbstractMap.SimpleImmutableEntry<>(key(k), value(k));
            }
        };
    }

    @Test
    void bulkLoadedTreeCommitsReopensAndVerifies() {
        Path file = dir.resolve("bulk.jnl");
        try (Store store = Store.open(file, config())) {
            try (WriteTransaction tx = store.begin()) {
                tx.tree("other").put(key(1), value(1));
                tx.commit();
            }
            try (WriteTransaction tx = store.begin()) {
                BTree t = tx.tree("kv");
                t.bulkLoad(ascending(0, 2, N));
                assertEquals(N, t.size());
                // the loaded tree takes ordinary writes in the same transaction
                t.put(key(1), value(1));
                assertArrayEquals(value(4), t.get(key(4)));
                tx.commit();
            }
            StoreVerifier.Report report = store.verify();
            assertEquals(N + 1, report.trees().get("kv").entries());
        }
        try (Store store = Store.open(file, config()); Snapshot s = store.snapshot()) {
            BTree t = s.tree("kv");
            assertEquals(N + 1, t.size());
            assertEquals(N / 2 + 1, t.rangeCount(key(0), key(N)), "even keys below N and the key 1 put afterwards");
            BTreeCursor c = t.cursor(key(2 * N - 10), null);
            int seen = 0;
            while (c.next()) {
                assertArrayEquals(value(2 * N - 10 + 2L * seen), c.value());
                seen++;
            }
            assertEquals(5, seen);
            store.verify();
        }
    }

    @Test
    void rollbackFreesTheLoadedPages() {
        try (Store store = Store.open(dir.resolve("rollback.jnl"), config())) {
            try (WriteTransaction tx = store.begin()) {
                tx.tree("kv").bulkLoad(ascending(0, 1, N));
            }
            try (Snapshot s = store.snapshot()) {
                assertNull(s.tree("kv"));
            }
            store.verify();
            try (WriteTransaction tx = store.begin()) {
                tx.tree("kv").bulkLoad(ascending(0, 1, N));
                tx.commit();
            }
            assertEquals(N, store.verify().trees().get("kv").entries());
        }
    }

    @Test
    void refusesANonEmptyTreeAndUnsortedInput() {
        try (Store store = Store.open(dir.resolve("refuse.jnl"), config())) {
            try (WriteTransaction tx = store.begin()) {
                BTree t = tx.tree("kv");
                t.put(key(5), value(5));
                assertThrows(IllegalStateException.class, () -> t.bulkLoad(ascending(0, 1, 10)));
                t.remove(key(5));
                List<Map.Entry<byte[], byte[]>> unsorted = List.of(Map.entry(key(2), value(2)), Map.entry(key(1), value(1)));
                assertThrows(IllegalArgumentException.class, () -> t.bulkLoad(unsorted.iterator()));
                assertTrue(t.isEmpty());
                assertFalse(t.containsKey(key(2)));
                t.bulkLoad(ascending(0, 1, 1000));
                tx.commit();
            }
            assertEquals(1000, store.verify().trees().get("kv").entries());
        }
    }
}
