package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link WriteTransaction#bulkBuild}: commit, rollback, refusal of a non-empty tree, later writes. */
class BulkBuildTransactionTest {
    @TempDir
    Path dir;

    private static List<Map.Entry<byte[], byte[]>> entries(int from, int to) {
        List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(new AbstractMap.SimpleImmutableEntry<>(key(i), new byte[] { (byte) i }));
        }
        return out;
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(8).putLong(i * 2L).array();
    }

    @Test
    void builtTreeCommitsReopensAndStaysWritable() {
        Path file = dir.resolve("b.jnl");
        try (Store store = Store.open(file, StoreConfig.defaults())) {
            try (WriteTransaction tx = store.begin()) {
                BTree t = tx.bulkBuild("t", entries(0, 50_000).iterator());
                assertEquals(50_000, t.size());
                tx.commit();
            }
            try (WriteTransaction tx = store.begin()) {
                BTree t = tx.tree("t");
                t.put(ByteBuffer.allocate(8).putLong(7).array(), new byte[0]);
                t.remove(key(10));
                tx.commit();
            }
            store.verify();
        }
        try (Store store = Store.open(file, StoreConfig.defaults()); Snapshot s = store.snapshot()) {
            BTree t = s.tree("t");
            assertEquals(50_000, t.size());
            assertNull(t.get(key(10)));
            assertArrayEquals(new byte[] { 11 }, t.get(key(11)));
            BTreeCursor c = t.cursor(null, null);
            int n = 0;
            while (c.next()) {
                n++;
            }
            assertEquals(50_000, n);
            store.verify();
        }
    }

    @Test
    void rollbackLeavesNoTraceAndNonEmptyTreeIsRefused() {
        try (Store store = Store.open(dir.resolve("r.jnl"), StoreConfig.defaults())) {
            long before = store.stats().journal().bytesInUse();
            try (WriteTransaction tx = store.begin()) {
                tx.bulkBuild("t", entries(0, 20_000).iterator());
            }
            assertEquals(before, store.stats().journal().bytesInUse());
            try (Snapshot s = store.snapshot()) {
                assertFalse(s.treeNames().contains("t"));
            }
            try (WriteTransaction tx = store.begin()) {
                tx.tree("t").put(key(1), new byte[0]);
                tx.commit();
            }
            try (WriteTransaction tx = store.begin()) {
                assertThrows(IllegalStateException.class, () -> tx.bulkBuild("t", entries(5, 6).iterator()));
            }
            try (WriteTransaction tx = store.begin()) {
                tx.tree("u");
                BTree u = tx.bulkBuild("u", entries(0, 3).iterator());
                assertEquals(3, u.size());
                assertThrows(IllegalArgumentException.class, () -> tx.bulkBuild("v", List.of(entries(3, 4).get(0),
                        entries(1, 2).get(0)).iterator()));
                tx.commit();
            }
            assertTrue(store.verify() != null);
        }
    }
}
