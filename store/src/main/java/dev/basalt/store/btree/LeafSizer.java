package dev.basalt.store.btree;

/**
 * The exact encoded size of the leaf a {@link BulkBuilder} is filling, entry by entry, so that a
 * bulk-built leaf can be cut where its record fits its slot rather than where the estimate of
 * {@link DirtyLeaf#estimatedBytes()} (which ignores front coding and delta coding, and so
 * overstates an id-tuple leaf about eight times) says. It knows the two layouts of
 * docs/FORMAT.md section 3 as {@link DirtyLeaf#encode} chooses them: an id-tuple leaf for a tree
 * of id-tuple keys whose entries have no values, a front-coded leaf for any other tree; for an
 * id-tuple tree with values or with a key of another width it answers {@link #UNKNOWN}.
 *
 * <p>Owned by one builder on its thread; not thread-safe.
 */
final class LeafSizer {
    static final long UNKNOWN = -1;

    private final int width;
    private final int interval;
    private int n;
    private long bytes;
    private byte[] last;
    private boolean unknown;

    LeafSizer(BTreeConfig config) {
        this.width = config.idTupleWidth();
        this.interval = config.restartInterval();
        reset();
    }

    /** Starts a new, empty leaf. */
    void reset() {
        n = 0;
        last = null;
        unknown = false;
        bytes = width > 0 ? IdTupleCoding.HEADER_BYTES : PageFormat.LEAF_HEADER_BYTES;
    }

    /** The leaf's encoded bytes with {@code key} and {@code stored} appended, or {@link #UNKNOWN}. */
    long bytesWith(byte[] key, Object stored) {
        if (unknown) {
            return UNKNOWN;
        }
        if (width > 0) {
            if (key.length != 8 * width || stored != BulkBuilder.NO_VALUE) {
                return UNKNOWN;
            }
            return bytes + IdTupleCoding.entryBytes(last, key, width);
        }
        int shared = n % interval == 0 ? 0 : PageFormat.sharedPrefix(last, key);
        int restart = n % interval == 0 ? 4 : 0;
        int valueBytes = stored instanceof byte[] inline ? inline.length : PageFormat.LARGE_REF_BYTES;
        long length = stored instanceof byte[] inline ? inline.length : ((LargeValue) stored).length();
        return bytes + restart + PageFormat.varintSize(shared) + PageFormat.varintSize(key.length - shared)
                + PageFormat.varintSize(length << 1) + key.length - shared + valueBytes;
    }

    /** Appends an entry whose size {@link #bytesWith} gave as {@code newBytes}. */
    void add(byte[] key, long newBytes) {
        if (newBytes == UNKNOWN) {
            unknown = true;
        }
        bytes = newBytes;
        last = key;
        n++;
    }
}
