package dev.basalt.store.btree;

import java.util.Arrays;

/**
 * The named constants of the B+tree's on-disk coding and the primitive readers shared by the page
 * classes. Every page and large-value record starts with one kind byte whose high nibble is the
 * page format version that introduced its layout and whose low nibble is the kind; a reader of
 * format {@link #FORMAT_VERSION} reads every kind listed here. Multi-byte integers are big-endian;
 * varints are unsigned LEB128 (7 bits a byte, low group first). See docs/FORMAT.md, "B+tree pages".
 *
 * <p>Constants and pure functions, safe from any thread; a {@link PageFormat.Sink} is a buffer of
 * the one thread coding a page.
 */
final class PageFormat {
    /** The page format this build writes: version 2's kinds plus the compressed page. */
    static final int FORMAT_VERSION = 3;
    /** Front-coded leaf (format 1). */
    static final byte LEAF = 0x11;
    /** Internal page (format 1). */
    static final byte INTERNAL = 0x12;
    /** Large value (format 1). */
    static final byte LARGE_VALUE = 0x13;
    /** Leaf of fixed-width id-tuple keys, delta-coded (format 2; {@link IdTupleCoding}). */
    static final byte ID_TUPLE_LEAF = 0x24;
    /** A leaf or internal page of format 1 or 2, Zstandard-compressed (format 3; {@link PageCompression}). */
    static final byte COMPRESSED_PAGE = 0x35;

    /** Leaf header: kind (1), entry count (4), restart interval (1); the restart table follows. */
    static final int LEAF_HEADER_BYTES = 6;
    /** Internal header: kind (1), child count (4); the child table follows. */
    static final int INTERNAL_HEADER_BYTES = 5;
    /** A large-value reference in a leaf: address (8) and CRC32C (4); the length is in the tag. */
    static final int LARGE_REF_BYTES = 12;

    private PageFormat() {
    }

    private static final byte[] EMPTY = new byte[0];

    /** Offset just past a leaf entry whose value tag is {@code tag} and whose value starts at {@code valueStart}. */
    static int entryEnd(int valueStart, int tag) {
        return valueStart + ((tag & 1) == 0 ? tag >>> 1 : LARGE_REF_BYTES);
    }

    /**
     * The value of a leaf entry, given its tag ({@code length << 1 | large}): a copy of the inline
     * bytes, or the large value's reference. An empty array cannot be changed, so one instance
     * serves every empty value (all entries of the statement indexes).
     */
    static Object storedValue(byte[] page, int valueStart, int tag) {
        if ((tag & 1) == 0) {
            int length = tag >>> 1;
            return length == 0 ? EMPTY : Arrays.copyOfRange(page, valueStart, valueStart + length);
        }
        return new LargeValue(readLong(page, valueStart), readInt(page, valueStart + 8), tag >>> 1);
    }

    static int readInt(byte[] b, int p) {
        return (b[p] & 0xff) << 24 | (b[p + 1] & 0xff) << 16 | (b[p + 2] & 0xff) << 8 | (b[p + 3] & 0xff);
    }

    /**
     * Bytes {@code [from, from + 8)} of the key {@code b[start, start + length)} as an unsigned
     * big-endian number, zero-padded past the key's end. Where two keys' numbers differ, the keys
     * differ the same way in unsigned order (a shorter key's padding sorts like the prefix it is),
     * so searches compare these first and the keys themselves only on a tie.
     */
    static long head(byte[] b, int start, int length, int from) {
        if (length >= from + 8) {
            return readLong(b, start + from);
        }
        long v = 0;
        for (int i = from; i < from + 8; i++) {
            v = v << 8 | (i < length ? b[start + i] & 0xff : 0);
        }
        return v;
    }

    static long readLong(byte[] b, int p) {
        return (long) readInt(b, p) << 32 | (readInt(b, p + 4) & 0xffffffffL);
    }

    /**
     * Reads a varint of at most 31 bits at {@code p}; returns the value in the high 32 bits and the
     * position after it in the low 32 bits, so scans over encoded pages allocate nothing.
     */
    static long readVarint(byte[] b, int p) {
        int value = 0;
        for (int shift = 0; shift < 32; shift += 7) {
            int x = b[p++];
            value |= (x & 0x7f) << shift;
            if (x >= 0) {
                if (value < 0) {
                    break;
                }
                return (long) value << 32 | p;
            }
        }
        throw new IllegalStateException("malformed varint at offset " + (p - 1));
    }

    static int value(long packed) {
        return (int) (packed >>> 32);
    }

    static int next(long packed) {
        return (int) packed;
    }

    /**
     * Writes {@code v} (unsigned) as a varint at {@code b[p]}, seven bits a byte, low bits first,
     * the high bit set on every byte but the last; returns the position after it. {@code b} must
     * have {@link #varintSize} bytes from {@code p}.
     */
    static int writeVarint(byte[] b, int p, long v) {
        while ((v & ~0x7fL) != 0) {
            b[p++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        return p;
    }

    /** Bytes {@link #writeVarint} writes for {@code v}. */
    static int varintSize(long v) {
        int n = 1;
        while ((v & ~0x7fL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** Length of the prefix {@code a} and {@code b} share. */
    static int sharedPrefix(byte[] a, byte[] b) {
        int m = Arrays.mismatch(a, b);
        return m < 0 ? a.length : m;
    }

    /**
     * The shortest key {@code s} with {@code left < s <= right} (unsigned order), given
     * {@code left < right}: the prefix of {@code right} one byte past where the two first differ.
     * Short separators keep internal pages small and wide.
     */
    static byte[] shortestSeparator(byte[] left, byte[] right) {
        int m = Arrays.mismatch(left, right);
        return Arrays.copyOf(right, Math.min(right.length, m + 1));
    }

    /** A growable big-endian byte sink for coding pages. */
    static final class Sink {
        private byte[] buf;
        private int pos;

        Sink(int capacity) {
            buf = new byte[Math.max(16, capacity)];
        }

        private void ensure(int n) {
            if (pos + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, pos + n));
            }
        }

        int position() {
            return pos;
        }

        void putByte(int v) {
            ensure(1);
            buf[pos++] = (byte) v;
        }

        void putInt(int v) {
            ensure(4);
            putIntAt(pos, v);
            pos += 4;
        }

        void putIntAt(int at, int v) {
            buf[at] = (byte) (v >>> 24);
            buf[at + 1] = (byte) (v >>> 16);
            buf[at + 2] = (byte) (v >>> 8);
            buf[at + 3] = (byte) v;
        }

        void putLong(long v) {
            putInt((int) (v >>> 32));
            putInt((int) v);
        }

        void putVarint(long v) {
            ensure(10);
            pos = writeVarint(buf, pos, v);
        }

        void putBytes(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, buf, pos, len);
            pos += len;
        }

        void skip(int n) {
            ensure(n);
            pos += n;
        }

        byte[] toArray() {
            return pos == buf.length ? buf : Arrays.copyOf(buf, pos);
        }
    }
}
