package dev.basalt.store.btree;

import java.util.Arrays;
import java.util.ConcurrentModificationException;

/**
 * A forward-only cursor over the keys of a {@link BTree} in {@code [from, to)}, ascending or
 * descending. Call {@link #next()} to move to the first and each following entry; then
 * {@link #key()} and {@link #value()} give copies the caller owns, and {@link #keyView()} gives
 * the key without a copy.
 *
 * <p>An ascending scan rebuilds each front-coded key in one buffer the cursor reuses: the prefix
 * the key shares with the previous one is already there, so only its suffix is copied, and values
 * are read only when {@link #value()} asks, so moving through entries allocates nothing. A
 * descending scan decodes a restart run at a time (up to the tree's restart interval) into fresh
 * arrays, since front coding runs forwards.
 *
 * <p>The block readers ({@link #nextIds}, {@link #nextIdColumns}) check the range's end on the decoded
 * ids ({@link IdKeyBounds}).
 *
 * <p>A cursor holds the pages of its current path: on a read-only view it stays valid while the
 * writer changes the writable tree; on a writable tree any change invalidates it, and the next
 * call throws {@link ConcurrentModificationException}. Not thread-safe itself.
 */
public final class BTreeCursor {
    private static final byte[][] NO_KEYS = new byte[0][];
    private static final Object[] NO_VALUES = new Object[0];

    private final BTree tree;
    private byte[] from;
    private byte[] to;
    /** Ascending prefix cursors: every key starts with it; the first key that does not ends the scan. */
    private byte[] prefix;
    private final boolean descending;
    private int expectedModCount;
    private InternalNode[] path;
    private int[] index;
    private LeafNode leaf;
    /** The leaf at the end of {@link #path} after the last positioning, kept for {@link #reset}. */
    private LeafNode pathLeaf;
    /** {@link #path} is complete and valid for the current tree state. */
    private boolean pathValid;
    private int pos;
    private boolean started;
    private boolean exhausted;

    // ascending: while scanning is true, the scan stands on entry pos of the leaf
    private LeafScan scan;
    private boolean scanning;

    // descending: the decoded run holding pos
    private byte[][] runKeys = NO_KEYS;
    private Object[] runValues = NO_VALUES;
    private int runFirst;
    private int runCount;

    // the current entry: its key bytes are view[0, viewLength); view is null when not on an entry
    private byte[] view;
    private int viewLength;
    private Object runValue;

    // nextIds: the bound whose ids idsOfBound holds
    private byte[] idsOf;
    private long[] idsOfBound;
    /** nextIdColumns of a range that ends at a key: the block of ids it copies to the columns. */
    private long[] idBlock;

    /** Takes ownership of the bound arrays: callers pass arrays nobody else changes. */
    BTreeCursor(BTree tree, byte[] from, byte[] to, byte[] prefix, boolean descending) {
        assert prefix == null || !descending && to == null && from == prefix;
        this.tree = tree;
        this.from = from;
        this.to = to;
        this.prefix = prefix;
        this.descending = descending;
        this.expectedModCount = tree.modCount();
        this.exhausted = from != null && to != null && Arrays.compareUnsigned(from, to) >= 0;
    }

    /** The tree this cursor reads. */
    public BTree tree() {
        return tree;
    }

    /**
     * Repositions this cursor on the range {@code [fromInclusive, toExclusive)} of the same tree, in
     * the same direction, as if it were new (taking ownership of the arrays, as the constructor
     * does). The path of the previous position is kept from the root down as far as it still leads
     * to the new bound (finger search), so a lookup near the previous one (the next probe of a
     * nested-loop join whose outer rows come in key order, a merge join's seek) reads only the
     * pages below the point where the paths part, often none. After a change to a writable tree
     * the descent starts at the root.
     */
    public void reset(byte[] fromInclusive, byte[] toExclusive) {
        reposition(fromInclusive, toExclusive, null);
    }

    /** Like {@link #reset} for an ascending cursor over the keys starting with {@code newPrefix}. */
    public void resetPrefix(byte[] newPrefix) {
        if (descending) {
            throw new IllegalStateException("a descending cursor has no prefix form");
        }
        reposition(newPrefix, null, newPrefix);
    }

    private void reposition(byte[] newFrom, byte[] newTo, byte[] newPrefix) {
        this.from = newFrom;
        this.to = newTo;
        this.prefix = newPrefix;
        if (tree.modCount() != expectedModCount) {
            expectedModCount = tree.modCount();
            pathValid = false;
        }
        started = false;
        scanning = false;
        view = null;
        runValue = null;
        leaf = null;
        exhausted = from != null && to != null && Arrays.compareUnsigned(from, to) >= 0;
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
        } else if (descending) {
            pos--;
        } else if (++pos < leaf.size()) {
            // the scan stands on the previous entry of this leaf
            leaf.scanNext(scan);
            return landedAscending();
        } else {
            scanning = false;
        }
        if (descending) {
            return nextDescending();
        }
        if (!scanning) {
            if (!settle()) {
                return finish();
            }
            leaf.scanTo(pos, scan);
            scanning = true;
        }
        return landedAscending();
    }

    /**
     * Moves over up to {@code max} entries, as that many calls of {@link #next()} would, writing each
     * key as {@code width} ids (its big-endian 64-bit words) into {@code out}, {@code width} per entry;
     * returns how many it read, 0 when the range is exhausted. Every key in the range must have
     * {@code 8 * width} bytes. An ascending scan whose bound is whole ids decodes runs of a leaf's
     * entries ({@link LeafNode#scanNextIds}: 4, then twice as many each time, so that a short lookup
     * decodes few past its range) and checks the bound on the ids, without rebuilding each key's bytes. After a full block ({@code max} entries) the cursor stands on
     * the last entry read; after a shorter one the range is exhausted.
     */
    public int nextIds(long[] out, int width, int max) {
        int n = 0;
        byte[] bound = prefix != null ? prefix : to;
        boolean bulk = !descending && IdKeyBounds.wholeIds(bound, width);
        long[] boundIds = bulk && bound != null ? boundIds(bound) : null;
        int chunk = 4;
        while (n < max) {
            if (!next()) {
                return n;
            }
            for (int i = 0; i < width; i++) {
                out[n * width + i] = PageFormat.readLong(view, 8 * i);
            }
            n++;
            // a lookup's range often ends a few entries on: decode a few, then twice as many each time
            int room = bulk ? Math.min(Math.min(max - n, leaf.size() - 1 - pos), chunk) : 0;
            chunk = Math.min(2 * chunk, 1 << 12);
            if (room > 0) {
                int off = n * width;
                leaf.scanNextIds(scan, width, out, off, room);
                pos += room;
                view = scan.key;
                viewLength = scan.keyLength;
                int in = boundIds == null ? room : IdKeyBounds.inRange(boundIds, prefix != null, out, off, width, room);
                n += in;
                if (in < room) {
                    finish();
                    return n;
                }
            }
        }
        return n;
    }

    /**
     * Moves over up to {@code max} entries, as {@link #nextIds} does, writing id {@code i} of each key
     * into {@code cols[i]} from {@code off} on where {@code cols[i]} is not null ({@code cols} holds
     * {@code width} columns, one per id position; the others are not written); returns how many it
     * read, 0 when the range is exhausted. An ascending scan of a prefix of whole ids, or of every key,
     * decodes a leaf's entries straight into the columns ({@link LeafNode#scanNextColumns}), ending at
     * the first key past the prefix; other scans read blocks of {@link #nextIds} and copy them. After a
     * full block the cursor stands on the last entry read; after a shorter one the range is exhausted.
     */
    public int nextIdColumns(long[][] cols, int width, int off, int max) {
        boolean direct = !descending && (prefix != null ? IdKeyBounds.wholeIds(prefix, width) : to == null);
        if (!direct) {
            return idColumnsByBlocks(cols, width, off, max);
        }
        int keep = prefix == null ? 0 : prefix.length / 8;
        int n = 0;
        while (n < max) {
            if (!next()) {
                return n;
            }
            for (int i = 0; i < width; i++) {
                if (cols[i] != null) {
                    cols[i][off + n] = PageFormat.readLong(view, 8 * i);
                }
            }
            n++;
            int room = Math.min(max - n, leaf.size() - 1 - pos);
            if (room > 0) {
                int in = leaf.scanNextColumns(scan, width, cols, off + n, room, keep);
                n += in;
                if (in < room) {
                    finish();
                    return n;
                }
                pos += room;
                view = scan.key;
                viewLength = scan.keyLength;
            }
        }
        return n;
    }

    /** {@link #nextIdColumns} through blocks of {@link #nextIds}, for ranges whose end is not a prefix of whole ids. */
    private int idColumnsByBlocks(long[][] cols, int width, int off, int max) {
        int block = Math.min(max, 256);
        if (idBlock == null || idBlock.length < block * width) {
            idBlock = new long[Math.max(block, 16) * width];
        }
        int n = 0;
        while (n < max) {
            int want = Math.min(max - n, idBlock.length / width);
            int got = nextIds(idBlock, width, want);
            for (int i = 0; i < width; i++) {
                long[] col = cols[i];
                if (col != null) {
                    for (int e = 0; e < got; e++) {
                        col[off + n + e] = idBlock[e * width + i];
                    }
                }
            }
            n += got;
            if (got < want) {
                break;
            }
        }
        return n;
    }

    /** The ids of {@code bound} (whole ids), kept while the cursor reads the same bound. */
    private long[] boundIds(byte[] bound) {
        if (idsOf != bound) {
            if (idsOfBound == null || idsOfBound.length != bound.length / 8) {
                idsOfBound = new long[bound.length / 8];
            }
            for (int i = 0; i < idsOfBound.length; i++) {
                idsOfBound[i] = PageFormat.readLong(bound, 8 * i);
            }
            idsOf = bound;
        }
        return idsOfBound;
    }

    /** Checks the entry the scan now stands on against the upper end of the range. */
    private boolean landedAscending() {
        view = scan.key;
        viewLength = scan.keyLength;
        boolean beyond = prefix != null
                ? viewLength < prefix.length || !Arrays.equals(view, 0, prefix.length, prefix, 0, prefix.length)
                : to != null && Arrays.compareUnsigned(view, 0, viewLength, to, 0, to.length) >= 0;
        return beyond ? finish() : true;
    }

    private boolean nextDescending() {
        if (!settle()) {
            return finish();
        }
        if (pos < runFirst || pos >= runFirst + runCount) {
            loadRun();
        }
        view = runKeys[pos - runFirst];
        viewLength = view.length;
        runValue = runValues[pos - runFirst];
        boolean beyond = from != null && Arrays.compareUnsigned(view, from) < 0;
        return beyond ? finish() : true;
    }

    /** A copy of the current key that the caller owns. */
    public byte[] key() {
        checkPositioned();
        return Arrays.copyOf(view, viewLength);
    }

    /**
     * The current key without a copy: bytes {@code [0, keyLength())} of an array the cursor owns
     * and may overwrite or replace on the next call to {@link #next()}. The array may be longer
     * than the key; callers must not change it.
     */
    public byte[] keyView() {
        checkPositioned();
        return view;
    }

    /** Length of the current key, the valid part of {@link #keyView()}. */
    public int keyLength() {
        checkPositioned();
        return viewLength;
    }

    /** The current value, a copy the caller owns; large values are read from the store on each call. */
    public byte[] value() {
        checkPositioned();
        Object v = descending ? runValue : leaf.scanValue(scan);
        if (v instanceof LargeValue large) {
            return tree.io().readLargeValue(large);
        }
        // a decoded run's arrays belong to the cursor, which hands them out once per call
        return descending ? ((byte[]) v).clone() : (byte[]) v;
    }

    private void checkPositioned() {
        if (view == null) {
            throw new IllegalStateException("cursor is not on an entry: call next() first and only while it returns true");
        }
    }

    private boolean finish() {
        exhausted = true;
        view = null;
        runValue = null;
        leaf = null;
        return false;
    }

    private boolean seek() {
        byte[] bound = descending ? to : from;
        int depth = Math.max(0, tree.height() - 1);
        Node node;
        int level = 0;
        if (pathValid && bound != null && path != null && path.length == depth) {
            // finger search: keep every level whose chosen child still covers the bound; the
            // levels above the lowest node whose separators enclose the bound need no check
            level = enclosingLevel(bound, depth);
            while (level < depth && path[level].childIndex(bound) == index[level]) {
                level++;
            }
            node = level < depth ? path[level] : pathLeaf;
        } else {
            node = tree.root();
            if (path == null || path.length != depth) {
                path = new InternalNode[depth];
                index = new int[depth];
            }
        }
        if (node == null) {
            return false;
        }
        while (node instanceof InternalNode in) {
            int i = bound == null ? (descending ? in.size() - 1 : 0) : in.childIndex(bound);
            path[level] = in;
            index[level++] = i;
            node = tree.child(in, i);
        }
        enterLeaf((LeafNode) node);
        pathValid = true;
        if (!descending) {
            if (scan == null) {
                scan = new LeafScan();
            }
            if (bound == null) {
                pos = 0;
            } else {
                pos = leaf.scanCeiling(bound, scan);
                scanning = pos < leaf.size();
            }
        } else if (bound == null) {
            pos = leaf.size() - 1;
        } else {
            int found = leaf.search(bound);
            pos = (found >= 0 ? found : -found - 1) - 1;
        }
        return true;
    }

    /**
     * The lowest level of the kept path whose node's key range surely holds {@code bound}: a node
     * whose first and last separators enclose it (every key under the node lies between its
     * parent's separators, which enclose its own), or the level below a node whose chosen child's
     * two separators enclose it (then that choice stands too: for the leaf's parent, the whole
     * path and its leaf). Level 0, the root, holds every key.
     */
    private int enclosingLevel(byte[] bound, int depth) {
        for (int level = depth - 1; level >= 0; level--) {
            InternalNode in = path[level];
            int i = index[level];
            int last = in.size() - 2;
            if (i > 0 && i <= last && Arrays.compareUnsigned(in.separator(i - 1), bound) <= 0
                    && Arrays.compareUnsigned(bound, in.separator(i)) < 0) {
                return level + 1; // the same child: the path down to it still leads to the bound
            }
            if (level > 0 && last >= 0 && Arrays.compareUnsigned(in.separator(0), bound) <= 0
                    && Arrays.compareUnsigned(bound, in.separator(last)) < 0) {
                return level;
            }
        }
        return 0;
    }

    private void enterLeaf(LeafNode node) {
        leaf = node;
        pathLeaf = node;
        runFirst = 0;
        runCount = 0;
        scanning = false;
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
