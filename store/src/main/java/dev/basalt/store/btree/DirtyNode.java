package dev.basalt.store.btree;

/**
 * A page the writer has changed since it was last written: an in-memory copy that lives in the
 * {@link WriteRetentionQueue} until it is coded and written. Every ancestor of a dirty page is
 * dirty too (copy-on-write copies the whole path), so {@link #parent} is always a dirty page or
 * null for the root. Only the writer thread touches dirty pages.
 */
abstract sealed class DirtyNode permits DirtyLeaf, DirtyInternal {
    /** The result of splitting a page: the new right sibling and the separator to put before it. */
    record Split(byte[] separator, DirtyNode right) {
    }

    DirtyInternal parent;
    // links of the write-retention queue (eldest first); owned by WriteRetentionQueue
    DirtyNode newer;
    DirtyNode older;
    boolean queued;

    abstract Node asNode();

    /** Entries of a leaf, children of an internal page. */
    abstract int width();

    /** Entries in the subtree under this page. */
    abstract long entryCount();

    /** Estimate of the encoded size, an upper bound that ignores prefix compression. */
    abstract long estimatedBytes();

    /** Whether this page has no dirty children and so can be coded now. */
    abstract boolean isWritable();

    /**
     * Where to split so that both halves keep at least one entry: the middle entry when the page
     * is over its entry limit, else the byte midpoint.
     */
    final int splitPoint(int maxWidth) {
        int n = width();
        if (n > maxWidth) {
            return n / 2;
        }
        long half = estimatedBytes() / 2;
        long acc = 0;
        for (int i = 0; i < n; i++) {
            acc += slotBytes(i);
            if (acc >= half) {
                return Math.max(1, Math.min(n - 1, i + 1));
            }
        }
        return n - 1;
    }

    abstract long slotBytes(int index);

    final int maxWidth(BTreeConfig config) {
        return this instanceof DirtyLeaf ? config.leafMaxEntries() : config.internalMaxEntries();
    }

    /** Over the entry limit, or over the byte limit with at least two entries to share out. */
    final boolean overflows(BTreeConfig config) {
        return width() > maxWidth(config) || estimatedBytes() > config.maxPageBytes() && width() >= 2;
    }

    /** Too small to stand alone below the root: few entries and few bytes, or empty. */
    final boolean underflows(BTreeConfig config) {
        int min = this instanceof DirtyLeaf ? config.minLeafEntries() : config.minInternalEntries();
        return width() == 0 || width() < min && estimatedBytes() < config.maxPageBytes() / 4;
    }

    /** Splits this page at {@link #splitPoint}. */
    final Split split(BTreeConfig config) {
        int at = splitPoint(maxWidth(config));
        return this instanceof DirtyLeaf leaf ? leaf.splitOff(at) : ((DirtyInternal) this).splitOff(at);
    }
}
