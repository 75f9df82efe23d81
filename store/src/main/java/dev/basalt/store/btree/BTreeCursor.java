package dev.basalt.store.btree;

import java.util.Arrays;
import java.util.ConcurrentModificationException;

/**
 * A forward-only cursor over the keys of a {@link BTree} in {@code [from, to)}, ascending or
 * descending. Call {@link #next()} to move to the first and each following entry; then
 * {@link #key()} and {@link #value()} give copies the caller owns.
 *
 * <p>Entries are decoded a restart run at a time (up to the tree's restart interval), so a scan
 * parses each front-coded key once and a descending scan costs no more than an ascending one.
 * A cursor holds the pages of its current path: on a read-only view it stays valid while the
 * writer changes the writable tree; on a writable tree any change invalidates it, and the next
 * call throws {@link ConcurrentModificationException}. Not thread-safe itself.
 */
public final class BTreeCursor {
    private final BTree tree;
    private byte[] from;
    private byte[] to;
    private final boolean descending;
    private int expectedModCount;
    private InternalNode[] path;
    private int[] index;
    private LeafNode leaf;
    /** The leaf at the end of {@link #path} after the last positioning, kept for {@link #reset}. */
    private LeafNode pathLeaf;
    /** The leaf whose entries the run arrays hold. */
    private LeafNode runLeaf;
    /** {@link #path} is complete and valid for the current tree state. */
    private boolean pathValid;
    private int pos;
    private byte[][] runKeys = new byte[0][];
    private Object[] runValues = new Object[0];
    private int runFirst;
    private int runCount;
    private boolean started;
    private boolean exhausted;
    private byte[] key;
    private Object value;

    BTreeCursor(BTree tree, byte[] from, byte[] to, boolean descending) {
        this.tree = tree;
        this.from = from == null ? null : from.clone();
        this.to = to == null ? null : to.clone();
        this.descending = descending;
        this.expectedModCount = tree.modCount();
        int depth = Math.max(0, tree.height() - 1);
        this.path = new InternalNode[depth];
        this.index = new int[depth];
        this.exhausted = from != null && to != null && Arrays.compareUnsigned(from, to) >= 0;
    }

    /**
     * Repositions this cursor on a new range of the same tree, in the same direction, as if it were
     * new. The path of the previous position is kept from the root down as far as it still leads
     * to the new bound, so a lookup near the previous one (the next probe of a nested-loop join
     * whose outer rows come in key order) reads only the pages below the point where the paths
     * part, often none. After a change to a writable tree the descent starts at the root.
     */
    public void reset(byte[] fromInclusive, byte[] toExclusive) {
        this.from = fromInclusive == null ? null : fromInclusive.clone();
        this.to = toExclusive == null ? null : toExclusive.clone();
        if (tree.modCount() != expectedModCount) {
            expectedModCount = tree.modCount();
            pathValid = false;
            runLeaf = null;
            int depth = Math.max(0, tree.height() - 1);
            if (depth != path.length) {
                path = new InternalNode[depth];
                index = new int[depth];
            }
        }
        started = false;
        key = null;
        value = null;
        leaf = null;
        exhausted = from != null && to != null && Arrays.compareUnsigned(from, to) >= 0;
    }

    /** The tree this cursor reads. */
    public BTree tree() {
        return tree;
    }

    /** Moves to the next entry in the cursor's order; false when the range is exhausted. */
    public boolean next() {
        if (tree.modCount() != expectedModCount) {
            throw new ConcurrentModificationException("the B+tree changed under this cursor");
        }
        if (exhausted) {
            return false;
        }
        if (!started) {
            started = true;
            if (!seek()) {
                return finish();
            }
        } else {
            pos += descending ? -1 : 1;
        }
        if (!settle()) {
            return finish();
        }
        if (pos < runFirst || pos >= runFirst + runCount) {
            loadRun();
        }
        key = runKeys[pos - runFirst];
        value = runValues[pos - runFirst];
        boolean beyond = descending
                ? from != null && Arrays.compareUnsigned(key, from) < 0
                : to != null && Arrays.compareUnsigned(key, to) >= 0;
        return beyond ? finish() : true;
    }

    /** The current key; the cursor does not keep or reuse the array. */
    public byte[] key() {
        checkPositioned();
        return key;
    }

    /** The current value; large values are read from the store on each call. */
    public byte[] value() {
        checkPositioned();
        return value instanceof LargeValue large ? tree.io().readLargeValue(large) : (byte[]) value;
    }

    private void checkPositioned() {
        if (key == null) {
            throw new IllegalStateException("cursor is not on an entry: call next() first and only while it returns true");
        }
    }

    private boolean finish() {
        exhausted = true;
        key = null;
        value = null;
        leaf = null;
        return false;
    }

    private boolean seek() {
        byte[] bound = descending ? to : from;
        int depth = 0;
        Node node;
        if (pathValid && bound != null && path.length == tree.height() - 1) {
            // finger search: keep every level whose chosen child still covers the bound
            while (depth < path.length && path[depth].childIndex(bound) == index[depth]) {
                depth++;
            }
            node = depth < path.length ? path[depth] : pathLeaf;
        } else {
            node = tree.root();
        }
        if (node == null) {
            return false;
        }
        while (node instanceof InternalNode in) {
            int i = bound == null ? (descending ? in.size() - 1 : 0) : in.childIndex(bound);
            path[depth] = in;
            index[depth++] = i;
            node = tree.child(in, i);
        }
        enterLeaf((LeafNode) node);
        pathValid = true;
        if (bound == null) {
            pos = descending ? leaf.size() - 1 : 0;
        } else {
            int found = leaf.search(bound);
            int insertion = found >= 0 ? found : -found - 1;
            pos = descending ? insertion - 1 : insertion;
        }
        return true;
    }

    private void enterLeaf(LeafNode node) {
        leaf = node;
        pathLeaf = node;
        if (node != runLeaf) {
            runLeaf = node;
            runFirst = 0;
            runCount = 0;
        }
    }

    /** Moves across leaves until {@code pos} is inside the current one; false at either end. */
    private boolean settle() {
        while (descending ? pos < 0 : pos >= leaf.size()) {
            if (!stepLeaf()) {
                return false;
            }
            pos = descending ? leaf.size() - 1 : 0;
        }
        return true;
    }

    private boolean stepLeaf() {
        for (int d = path.length - 1; d >= 0; d--) {
            int i = index[d] + (descending ? -1 : 1);
            if (i >= 0 && i < path[d].size()) {
                index[d] = i;
                Node node = tree.child(path[d], i);
                for (int l = d + 1; l < path.length; l++) {
                    InternalNode in = (InternalNode) node;
                    path[l] = in;
                    index[l] = descending ? in.size() - 1 : 0;
                    node = tree.child(in, index[l]);
                }
                enterLeaf((LeafNode) node);
                return true;
            }
        }
        return false;
    }

    private void loadRun() {
        int run = leaf.runLength();
        if (runKeys.length < run) {
            runKeys = new byte[run][];
            runValues = new Object[run];
        }
        runFirst = pos - pos % run;
        runCount = Math.min(run, leaf.size() - runFirst);
        leaf.decodeRun(runFirst, runCount, runKeys, runValues);
    }
}
