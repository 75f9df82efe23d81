package dev.basalt.store.btree;

import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The entries of a tree (through a cursor) and a sorted iterator of other entries, merged in key
 * order, as the input of a bottom-up rebuild ({@link TreeWriter#mergeBottomUp}). A key in both is
 * passed twice, so the builder refuses the merge as not strictly ascending.
 *
 * <p>Not thread-safe: the tree's writer thread, which must not change the tree while it merges.
 */
final class MergedEntries implements Iterator<Map.Entry<byte[], byte[]>> {
    private final BTreeCursor tree;
    private final Iterator<? extends Map.Entry<byte[], byte[]>> added;
    private Map.Entry<byte[], byte[]> nextTree;
    private Map.Entry<byte[], byte[]> nextAdded;

    MergedEntries(BTreeCursor tree, Iterator<? extends Map.Entry<byte[], byte[]>> added) {
        this.tree = tree;
        this.added = added;
        advanceTree();
        advanceAdded();
    }

    private void advanceTree() {
        nextTree = tree.next() ? new AbstractMap.SimpleImmutableEntry<>(tree.key(), tree.value()) : null;
    }

    private void advanceAdded() {
        nextAdded = added.hasNext() ? added.next() : null;
        if (nextAdded != null) { // the iterator may fill the same arrays again for its next entry
            nextAdded = new AbstractMap.SimpleImmutableEntry<>(nextAdded.getKey().clone(), nextAdded.getValue().clone());
        }
    }

    @Override
    public boolean hasNext() {
        return nextTree != null || nextAdded != null;
    }

    @Override
    public Map.Entry<byte[], byte[]> next() {
        Map.Entry<byte[], byte[]> e;
        if (nextTree == null && nextAdded == null) {
            throw new NoSuchElementException();
        }
        if (nextAdded == null
                || nextTree != null && Arrays.compareUnsigned(nextTree.getKey(), nextAdded.getKey()) <= 0) {
            e = nextTree;
            advanceTree();
        } else {
            e = nextAdded;
            advanceAdded();
        }
        return e;
    }
}
