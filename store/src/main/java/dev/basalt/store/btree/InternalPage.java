package dev.basalt.store.btree;

import java.util.Arrays;

import dev.basalt.store.cache.ClockCache;

import static dev.basalt.store.btree.PageFormat.INTERNAL;
import static dev.basalt.store.btree.PageFormat.INTERNAL_HEADER_BYTES;
import static dev.basalt.store.btree.PageFormat.readInt;
import static dev.basalt.store.btree.PageFormat.readLong;

/**
 * A clean internal page, fully decoded into parallel arrays (internal pages are few and hot, so
 * binary search over decoded separators beats in-place scans). Coding: kind (1), child count
 * {@code n} (4), then {@code n} children of address (8), CRC32C (4) and entry count (varint), then
 * {@code n - 1} separators each front-coded against the previous one: varint shared, varint suffix
 * length, suffix. Immutable; safe to share between threads.
 */
final class InternalPage implements InternalNode, Page {
    private final long address;
    private final int checksum;
    private final byte[][] separators;
    /**
     * Each separator's first and second eight bytes as numbers ({@link PageFormat#head}), at
     * {@code 2i} and {@code 2i + 1}: a descent compares these, in one flat array, and reads a
     * separator's own array only when both tie. Binary search over the separators' own small
     * arrays touched one more object (and cache line) per step; with 8-byte term ids the numbers
     * are a key's first two ids.
     */
    private final long[] heads;
    private final long[] children;
    private final int[] checksums;
    private final long[] counts;
    private final int weight;
    /**
     * Decoded internal children, filled as descents pass (never leaves): a descent then needs no
     * page-cache lookup above the leaf level. Internal pages are about 1 % of a tree's pages, so
     * children held here beyond the cache's own eviction stay a small, bounded share; a child
     * is immutable and always the record this page points to (copy-on-write never changes a
     * page's children, and a freed child's parent is itself obsolete). Racy but safe: pages have
     * final fields only.
     */
    private InternalNode[] internalChildren;
    /**
     * The children's page-cache entries, filled as descents pass: reaching a cached leaf then
     * takes no lookup in the cache's table (whose random probes were the largest single cost of
     * short queries). An entry's value is cleared when the cache evicts it, so holding entries
     * does not hold pages. Racy but safe, as {@link #internalChildren}.
     */
    private ClockCache.Handle<Page>[] handles;

    InternalPage(long address, int checksum, byte[][] separators, long[] addresses, int[] checksums, long[] counts) {
        this.address = address;
        this.checksum = checksum;
        this.separators = separators;
        this.heads = new long[2 * separators.length];
        for (int i = 0; i < separators.length; i++) {
            heads[2 * i] = PageFormat.head(separators[i], 0, separators[i].length, 0);
            heads[2 * i + 1] = PageFormat.head(separators[i], 0, separators[i].length, 8);
        }
        this.children = addresses;
        this.checksums = checksums;
        this.counts = counts;
        // per child: address, checksum, count, held child and cache entry references, and the
        // separator's array header and reference; the separators' bytes are added below
        int w = 96 + 64 * addresses.length;
        for (byte[] s : separators) {
            w += 16 + s.length;
        }
        this.weight = w;
    }

    /** The decoded internal child at {@code index} if a descent kept it, else null. */
    InternalNode heldChild(int index) {
        InternalNode[] held = internalChildren;
        return held == null ? null : held[index];
    }

    void holdChild(int index, InternalNode child) {
        InternalNode[] held = internalChildren;
        if (held == null) {
            held = new InternalNode[children.length];
            internalChildren = held;
        }
        held[index] = child;
    }

    /** The cache entry of child {@code index} if a descent kept it, else null. */
    ClockCache.Handle<Page> childHandle(int index) {
        ClockCache.Handle<Page>[] held = handles;
        return held == null ? null : held[index];
    }

    @SuppressWarnings("unchecked")
    void holdHandle(int index, ClockCache.Handle<Page> handle) {
        ClockCache.Handle<Page>[] held = handles;
        if (held == null) {
            held = new ClockCache.Handle[children.length];
            handles = held;
        }
        held[index] = handle;
    }

    /** Decodes an internal page; {@code IllegalStateException} if malformed. */
    static InternalPage decode(long address, int checksum, byte[] b) {
        if (b.length < INTERNAL_HEADER_BYTES || b[0] != INTERNAL) {
            throw new IllegalStateException("not an internal page (kind byte 0x12)");
        }
        int n = readInt(b, 1);
        if (n < 1 || n > b.length) {
            throw new IllegalStateException("internal page claims " + n + " children");
        }
        try {
            long[] addresses = new long[n];
            int[] checksums = new int[n];
            long[] counts = new long[n];
            int[] pos = {INTERNAL_HEADER_BYTES};
            for (int i = 0; i < n; i++) {
                addresses[i] = readLong(b, pos[0]);
                checksums[i] = readInt(b, pos[0] + 8);
                pos[0] += 12;
                counts[i] = readVarLong(b, pos);
            }
            byte[][] separators = new byte[n - 1][];
            byte[] prev = null;
            for (int i = 0; i < n - 1; i++) {
                int shared = (int) readVarLong(b, pos);
                int suffix = (int) readVarLong(b, pos);
                if (shared > (prev == null ? 0 : prev.length) || suffix < 0 || pos[0] + suffix > b.length) {
                    throw new IllegalStateException("separator " + i + " is malformed");
                }
                byte[] s = new byte[shared + suffix];
                if (shared > 0) {
                    System.arraycopy(prev, 0, s, 0, shared);
                }
                System.arraycopy(b, pos[0], s, shared, suffix);
                pos[0] += suffix;
                separators[i] = s;
                prev = s;
            }
            if (pos[0] != b.length) {
                throw new IllegalStateException("internal page ends at " + pos[0] + " of " + b.length + " bytes");
            }
            return new InternalPage(address, checksum, separators, addresses, checksums, counts);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalStateException("internal page is truncated", e);
        }
    }

    private static long readVarLong(byte[] b, int[] pos) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte x = b[pos[0]++];
            v |= (long) (x & 0x7f) << shift;
            if (x >= 0) {
                return v;
            }
        }
        throw new IllegalStateException("malformed varint at offset " + pos[0]);
    }

    /** Codes {@code n} children and their {@code n - 1} separators. */
    static byte[] encode(byte[][] separators, long[] addresses, int[] checksums, long[] counts, int n) {
        PageFormat.Sink out = new PageFormat.Sink(INTERNAL_HEADER_BYTES + 24 * n);
        out.putByte(INTERNAL);
        out.putInt(n);
        for (int i = 0; i < n; i++) {
            out.putLong(addresses[i]);
            out.putInt(checksums[i]);
            out.putVarint(counts[i]);
        }
        byte[] prev = null;
        for (int i = 0; i < n - 1; i++) {
            byte[] s = separators[i];
            int shared = prev == null ? 0 : PageFormat.sharedPrefix(prev, s);
            out.putVarint(shared);
            out.putVarint(s.length - shared);
            out.putBytes(s, shared, s.length - shared);
            prev = s;
        }
        return out.toArray();
    }

    @Override
    public long address() {
        return address;
    }

    @Override
    public int checksum() {
        return checksum;
    }

    @Override
    public int weight() {
        return weight;
    }

    @Override
    public int size() {
        return children.length;
    }

    @Override
    public int childIndex(byte[] key) {
        long k0 = PageFormat.head(key, 0, key.length, 0);
        long k1 = PageFormat.head(key, 0, key.length, 8);
        int lo = 0;
        int hi = separators.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(heads[2 * mid], k0);
            if (c == 0) {
                c = Long.compareUnsigned(heads[2 * mid + 1], k1);
                if (c == 0) {
                    c = Arrays.compareUnsigned(separators[mid], key);
                }
            }
            if (c <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }


    /** Number of the first {@code n} separators that are {@code <= key}. */
    static int upperBound(byte[][] separators, int n, byte[] key) {
        int lo = 0;
        int hi = n;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Arrays.compareUnsigned(separators[mid], key) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    @Override
    public byte[] separator(int index) {
        return separators[index];
    }

    @Override
    public long childEntries(int index) {
        return counts[index];
    }

    @Override
    public long childAddress(int index) {
        return children[index];
    }

    @Override
    public int childChecksum(int index) {
        return checksums[index];
    }

    @Override
    public DirtyNode dirtyChild(int index) {
        return null;
    }
}
