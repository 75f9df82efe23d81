package dev.basalt.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.PagePrewarm;

/**
 * {@link Store#prewarm} reads the newest commit's pages of every tree into a reopened store's empty page cache,
 * stops at its budget, and leaves the store readable as before.
 */
class StorePrewarmTest {
    @TempDir
    Path dir;

    private static final StoreConfig CONFIG = StoreConfig.defaults()
            .withJournal(StoreConfig.defaults().journal().withDurable(false));

    private void write(Path file) {
        try (Store store = Store.open(file, CONFIG); WriteTransaction tx = store.begin()) {
            BTree a = tx.tree("a");
            BTree b = tx.tree("b");
            for (int i = 0; i < 40_000; i++) {
                a.put(ByteBuffer.allocate(4).putInt(i).array(), new byte[20]);
                b.put(ByteBuffer.allocate(8).putInt(i).putInt(-i).array(), new byte[4]);
            }
            tx.commit();
        }
    }

    @Test
    void readsEveryPageOfAReopenedStore() {
        Path file = dir.resolve("p.jnl");
        write(file);
        try (Store store = Store.open(file, CONFIG)) {
            assertEquals(0, store.cache().weightedSize(), "a reopened store's cache is empty");
            long records;
            try (Snapshot s = store.snapshot()) {
                long[] n = new long[1];
                for (String name : s.treeNames()) {
                    s.tree(name).forEachRecord(address -> n[0]++);
                }
                records = n[0];
            }
            store.cache().invalidateAll();

            PagePrewarm.Result r = store.prewarm(Long.MAX_VALUE, () -> false);

            assertTrue(r.complete());
            assertEquals(records, r.pages(), "every page of every tree (no large values here)");
            assertTrue(store.cache().weightedSize() > 0);
            try (Snapshot s = store.snapshot()) {
                assertEquals(40_000, s.tree("a").size());
                assertTrue(s.tree("b").containsKey(ByteBuffer.allocate(8).putInt(7).putInt(-7).array()));
            }
        }
    }

    @Test
    void stopsAtItsBudget() {
        Path file = dir.resolve("q.jnl");
        write(file);
        try (Store store = Store.open(file, CONFIG)) {
            PagePrewarm.Result r = store.prewarm(16 * 1024, () -> false);
            assertFalse(r.complete());
            assertTrue(store.cache().weightedSize() >= 16 * 1024
                    && store.cache().weightedSize() < 16 * 1024 + 64 * 1024, "one page past the budget at most: "
                    + store.cache().weightedSize());
        }
    }

    /**
     * The miss rehearsal reads leaves of every tree from the file without caching them: the cache holds what it held
     * (the internal pages it descends through were cached already), and it reads at most as many leaves as asked,
     * from each tree.
     */
    @Test
    void rehearsedMissesReadLeavesOfEveryTreeUncached() {
        Path file = dir.resolve("r.jnl");
        write(file);
        try (Store store = Store.open(file, CONFIG)) {
            long leaves;
            try (Snapshot s = store.snapshot()) {
                long[] n = new long[1];
                for (String name : s.treeNames()) {
                    s.tree(name).forEachRecord(address -> n[0]++);
                }
                leaves = n[0];
            }
            store.prewarm(Long.MAX_VALUE, () -> false);
            long cached = store.cache().weightedSize();

            long read = store.rehearsePageMisses(100, () -> false);

            assertTrue(read > 50 && read <= 100, "about the leaves asked: " + read + " of " + leaves + " pages");
            assertEquals(cached, store.cache().weightedSize(), "nothing added to the cache");
            assertEquals(0, store.rehearsePageMisses(100, () -> true), "stops when told");
            assertTrue(store.rehearsePageMisses(Integer.MAX_VALUE, () -> false) < leaves,
                    "leaves only: fewer than every page");
        }
    }
}
