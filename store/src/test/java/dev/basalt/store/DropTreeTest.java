package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Dropping a tree frees all of its space: the verifier's exact space audit finds no leak. */
class DropTreeTest {
    @TempDir
    Path dir;

    @Test
    void droppedTreeLeaksNothing() {
        StoreConfig cfg = StoreConfig.defaults().withJournal(StoreConfig.defaults().journal().withDurable(false));
        try (Store store = Store.open(dir.resolve("d.jnl"), cfg)) {
            try (WriteTransaction tx = store.begin()) {
                BTree t = tx.tree("gone");
                for (int i = 0; i < 50_000; i++) {
                    t.put(ByteBuffer.allocate(4).putInt(i).array(), new byte[i % 500 == 0 ? 2000 : 20]);
                }
                tx.tree("kept").put(new byte[]{1}, new byte[]{2});
                tx.commit();
            }
            long before = store.stats().journal().bytesInUse();
            try (WriteTransaction tx = store.begin()) {
                tx.dropTree("gone");
                assertFalse(tx.hasTree("gone"));
                tx.commit();
            }
            try (WriteTransaction tx = store.begin()) {
                tx.tree("kept").put(new byte[]{3}, new byte[]{4});
                tx.commit();
            }
            store.verify();
            assertTrue(store.stats().journal().bytesInUse() < before / 4, store.stats().journal().toString());
            try (Snapshot s = store.snapshot()) {
                assertNull(s.tree("gone"));
            }
        }
    }
}
