package dev.basalt.store.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.basalt.store.journal.MemoryRecordStore;

/**
 * {@link PagePrewarm} reads every page of read-only trees into the cache when the budget allows, the upper levels
 * of every tree before any leaf when it does not, then the leaves of the tree with fewer leaves before those of a
 * larger one, stops when told, and refuses a writable tree.
 */
class PagePrewarmTest {
    private static final BTreeConfig CONFIG = BTreeConfig.builder().leafMaxEntries(8).internalMaxEntries(4).build();

    /** A committed tree of {@code n} entries, written through a cache other than the one the test reads with. */
    private static BTreeCheckpoint tree(MemoryRecordStore store, int n, int salt) {
        BTree writer = BTree.create(store, CONFIG, null);
        for (int i = 0; i < n; i++) {
            byte[] k = ByteBuffer.allocate(8).putInt(salt).putInt(i).array();
            writer.put(k, k);
        }
        return writer.checkpoint();
    }

    /** The addresses of a tree's pages, level by level from the root (the tree's records: no large values here). */
    private static Set<Long> pages(BTree tree) {
        Set<Long> out = new HashSet<>();
        tree.forEachRecord(out::add);
        return out;
    }

    @Test
    void readsEveryPageOfEveryTreeWhenTheBudgetAllows() {
        MemoryRecordStore store = new MemoryRecordStore();
        List<BTreeCheckpoint> checkpoints = List.of(tree(store, 2_000, 1), tree(store, 300, 2), BTreeCheckpoint.EMPTY);
        List<BTree> trees = views(store, checkpoints, new PageCache(64 << 20));
        long expected = pages(trees.get(0)).size() + pages(trees.get(1)).size();
        PageCache cache = new PageCache(64 << 20);
        trees = views(store, checkpoints, cache);

        PagePrewarm.Result r = PagePrewarm.run(trees, cache, Long.MAX_VALUE, () -> false);

        assertTrue(r.complete());
        assertEquals(expected, r.pages());
        assertEquals(trees.get(0).height(), r.levels(), "levels of the highest tree");
        for (BTree t : trees) {
            for (long address : pages(t)) {
                assertTrue(cached(cache, address), "page " + address + " cached");
            }
        }
    }

    @Test
    void upperLevelsOfEveryTreeComeBeforeAnyLeaf() {
        MemoryRecordStore store = new MemoryRecordStore();
        List<BTreeCheckpoint> checkpoints = List.of(tree(store, 3_000, 1), tree(store, 3_000, 2));
        PageCache cache = new PageCache(64 << 20);
        List<BTree> trees = views(store, checkpoints, cache);
        assertTrue(trees.get(0).height() >= 3 && trees.get(0).height() == trees.get(1).height(),
                "two trees of one height with a level between root and leaves");
        Kinds pages = Kinds.of(trees, cache);
        // new views and an empty cache, as a freshly opened store has
        PageCache fresh = new PageCache(64 << 20);

        PagePrewarm.Result r = PagePrewarm.run(views(store, checkpoints, fresh), fresh, pages.internalBytes(),
                () -> false);

        assertFalse(r.complete());
        assertEquals(pages.internal().size(), r.pages(), "the internal pages, then the budget was reached");
        for (long address : pages.internal()) {
            assertTrue(cached(fresh, address), "internal page " + address + " cached");
        }
        assertEquals(0, pages.leaves().stream().filter(address -> cached(fresh, address)).count(), "leaves cached");
    }

    @Test
    void theLeavesOfTheSmallerTreeComeFirst() {
        MemoryRecordStore store = new MemoryRecordStore();
        // the larger tree first, as a dictionary's tree comes before the statement indices by name
        List<BTreeCheckpoint> checkpoints = List.of(tree(store, 3_000, 1), tree(store, 600, 2));
        PageCache cache = new PageCache(64 << 20);
        List<BTree> trees = views(store, checkpoints, cache);
        Kinds large = Kinds.of(List.of(trees.get(0)), cache);
        Kinds small = Kinds.of(List.of(trees.get(1)), cache);
        PageCache fresh = new PageCache(64 << 20);

        PagePrewarm.Result r = PagePrewarm.run(views(store, checkpoints, fresh), fresh,
                large.internalBytes() + small.internalBytes() + small.leafBytes(), () -> false);

        assertFalse(r.complete());
        for (long address : small.leaves()) {
            assertTrue(cached(fresh, address), "leaf " + address + " of the smaller tree cached");
        }
        assertEquals(0, large.leaves().stream().filter(address -> cached(fresh, address)).count(),
                "leaves of the larger tree cached");
    }

    @Test
    void treesOfDifferentHeightsAreReadWhole() {
        MemoryRecordStore store = new MemoryRecordStore();
        List<BTreeCheckpoint> checkpoints = List.of(tree(store, 5, 1), tree(store, 12, 2), tree(store, 3_000, 3));
        PageCache cache = new PageCache(64 << 20);
        List<BTree> trees = views(store, checkpoints, cache);
        assertTrue(trees.get(0).height() == 1 && trees.get(1).height() > 1
                && trees.get(2).height() > trees.get(1).height(), "a root leaf and two trees of different heights");

        PagePrewarm.Result r = PagePrewarm.run(trees, cache, Long.MAX_VALUE, () -> false);

        assertTrue(r.complete());
        assertEquals(trees.get(2).height(), r.levels(), "levels of the highest tree");
        long expected = 0;
        for (BTree t : trees) {
            expected += pages(t).size();
            for (long address : pages(t)) {
                assertTrue(cached(cache, address), "page " + address + " cached");
            }
        }
        assertEquals(expected, r.pages());
    }

    /** The addresses of the trees' internal pages and leaves and their decoded bytes, read whole into {@code cache}. */
    private record Kinds(Set<Long> internal, Set<Long> leaves, long internalBytes, long leafBytes) {
        static Kinds of(List<BTree> trees, PageCache cache) {
            PagePrewarm.run(trees, cache, Long.MAX_VALUE, () -> false);
            Set<Long> internal = new HashSet<>();
            Set<Long> leaves = new HashSet<>();
            long internalBytes = 0;
            long leafBytes = 0;
            for (BTree t : trees) {
                for (long address : pages(t)) {
                    Page page = cache.handle(address).get();
                    if (page instanceof LeafNode) {
                        leaves.add(address);
                        leafBytes += page.weight();
                    } else {
                        internal.add(address);
                        internalBytes += page.weight();
                    }
                }
            }
            return new Kinds(internal, leaves, internalBytes, leafBytes);
        }
    }

    private static List<BTree> views(MemoryRecordStore store, List<BTreeCheckpoint> checkpoints, PageCache cache) {
        return checkpoints.stream().map(cp -> BTree.openReadOnly(store, cp, CONFIG, cache)).toList();
    }

    private static boolean cached(PageCache cache, long address) {
        return cache.handle(address) != null && cache.handle(address).get() != null;
    }

    @Test
    void anEmptyTreeHasNoLevels() {
        MemoryRecordStore store = new MemoryRecordStore();
        PageCache cache = new PageCache(1 << 20);
        PagePrewarm.Result r = PagePrewarm.run(views(store, List.of(BTreeCheckpoint.EMPTY), cache), cache,
                Long.MAX_VALUE, () -> false);
        assertEquals(new PagePrewarm.Result(0, 0, true), r);
    }

    @Test
    void stopsWhenTold() {
        MemoryRecordStore store = new MemoryRecordStore();
        PageCache cache = new PageCache(64 << 20);
        BTree t = BTree.openReadOnly(store, tree(store, 2_000, 1), CONFIG, cache);
        AtomicInteger asked = new AtomicInteger();

        PagePrewarm.Result r = PagePrewarm.run(List.of(t), cache, Long.MAX_VALUE, () -> asked.incrementAndGet() > 10);

        assertFalse(r.complete());
        assertEquals(10, r.pages());
    }

    @Test
    void refusesAWritableTree() {
        MemoryRecordStore store = new MemoryRecordStore();
        PageCache cache = new PageCache(1 << 20);
        BTree writable = BTree.open(store, tree(store, 100, 1), CONFIG, cache);
        assertThrows(IllegalArgumentException.class,
                () -> PagePrewarm.run(List.of(writable), cache, Long.MAX_VALUE, () -> false));
    }
}
