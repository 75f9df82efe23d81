package dev.basalt.store.spatial;

import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.io.Checksums;
import dev.basalt.store.journal.StoreException;

/**
 * The spatial index of a store: the tree {@value #TREE} of {@link SpatialKeys} over every
 * {@code geo:wktLiteral} term of the dictionary, and the store property {@value #PROPERTY} that
 * says which dictionary state it covers. Entries are added when the dictionary creates a term
 * (in the same write transaction, so the same commit makes both durable) and never removed, like
 * dictionary terms: a query takes candidate term ids from the index and joins them with the
 * statements, so a term no statement uses any more simply joins with nothing.
 *
 * <p>Property {@value #PROPERTY}: byte 0 the index version ({@value #VERSION}), bytes 1..4 the
 * CRC32C of the dictionary's allocator state property it was last brought up to date with. The
 * index is current for a commit point exactly when that CRC matches the commit point's allocator
 * state: a store written by a Basalt without the index (or one that wrote terms without keeping it)
 * has none or a stale one, and the owner rebuilds it on open.
 *
 * <p>This class collects one transaction's new entries ({@link #add}) and writes them in key order
 * ({@link #flush}); like the transaction, one thread at a time.
 */
public final class SpatialIndex {
    public static final String TREE = "geo.cells";
    public static final String PROPERTY = "geo.covers";
    public static final int VERSION = 1;

    private final List<byte[]> pending = new ArrayList<>();

    /** Collects the entries of a new geometry term. */
    public void add(long id, String wkt) {
        pending.addAll(SpatialKeys.of(id, GeometryBounds.of(wkt)));
    }

    public boolean hasPending() {
        return !pending.isEmpty();
    }

    /** Entries collected and not yet written; a writer flushes past {@link #FLUSH_ENTRIES} to bound its heap. */
    public int pendingCount() {
        return pending.size();
    }

    /** Collected entries past which the writer writes them out (about 60 MB of heap). */
    public static final int FLUSH_ENTRIES = 1 << 20;

    /** Writes the collected entries into {@code tree}: bottom-up if it is empty, else in key order. */
    public void flush(BTree tree) {
        if (pending.isEmpty()) {
            return;
        }
        byte[][] keys = pending.toArray(new byte[0][]);
        pending.clear();
        Arrays.sort(keys, Arrays::compareUnsigned);
        if (tree.isEmpty()) {
            byte[] none = new byte[0];
            tree.bulkLoad(Arrays.stream(keys).map(k -> (Map.Entry<byte[], byte[]>) new AbstractMap.SimpleImmutableEntry<>(k, none))
                    .iterator());
        } else {
            for (byte[] k : keys) {
                tree.put(k, new byte[0]);
            }
        }
    }

    public void discard() {
        pending.clear();
    }

    /** The property value saying the index covers the dictionary whose allocator state is {@code allocatorState}. */
    public static byte[] coverage(byte[] allocatorState) {
        byte[] v = new byte[5];
        v[0] = VERSION;
        int crc = allocatorState == null ? 0 : Checksums.crc32c(allocatorState, 0, allocatorState.length);
        v[1] = (byte) (crc >>> 24);
        v[2] = (byte) (crc >>> 16);
        v[3] = (byte) (crc >>> 8);
        v[4] = (byte) crc;
        return v;
    }

    /**
     * True if the index of a commit point with these properties covers its whole dictionary (an
     * empty dictionary needs no index).
     *
     * @throws StoreException if the index has a version this Basalt does not know
     */
    public static boolean isCurrent(byte[] coverage, byte[] allocatorState) {
        if (coverage != null && (coverage.length != 5 || coverage[0] != VERSION)) {
            throw new StoreException("this store's spatial index has version " + (coverage.length > 0 ? coverage[0] : "?")
                    + " (store property '" + PROPERTY + "') but this Basalt knows version " + VERSION
                    + " only; open it with the Basalt release that wrote it");
        }
        if (allocatorState == null) {
            return true;
        }
        return coverage != null && Arrays.equals(coverage, coverage(allocatorState));
    }
}
