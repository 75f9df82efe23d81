package dev.basalt.store.btree;

/**
 * The entry coding of {@link IdTupleLeafPage} (docs/FORMAT.md, "Id-tuple leaf page"). A key is
 * {@code width} unsigned 64-bit ids, big-endian. The first entry of a page stores each id as a
 * varint of its rotation ({@code id << 4 | id >>> 60}, which puts a term id's kind nibble in the
 * low bits, so small dictionary counters take one to four bytes). Every later entry stores, in
 * one varint of up to 72 bits, the position {@code d} of the first id that differs from the key
 * before, the coding mode of each id after it and {@code delta - 1}, the amount id {@code d} grew;
 * then the ids after {@code d} in their modes:
 * <ul>
 *   <li>0: the same as the key before's id at that position (no bytes);
 *   <li>1: varint of the rotated id;
 *   <li>2: varint of the zigzag-coded difference to the key before's id at that position;
 *   <li>3: varint of the rotated id with bit 59 inverted (inline numbers and dates, whose payload
 *       is centred on bit 59, then take two to five bytes instead of nine or ten).
 * </ul>
 * The writer picks the shortest mode for each id. Stateless; the methods are thread-safe.
 */
final class IdTupleCoding {
    /** Header: kind (1), key width in ids (1), flags (1), restart interval (1), entry count (4). */
    static final int HEADER_BYTES = 8;
    /** Widest key the coding takes, in ids: a quad. */
    static final int MAX_WIDTH = 4;
    /** Flag: every entry carries a value tag and value; without it every value is empty. */
    static final int FLAG_VALUES = 1;
    private static final long CENTRE = 1L << 59;

    private IdTupleCoding() {
    }

    /** Whether there are keys and the first {@code n} all have {@code 8 * width} bytes, so the coding can take them. */
    static boolean fits(byte[][] keys, int n, int width) {
        if (n < 1 || width < 1 || width > MAX_WIDTH) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (keys[i].length != 8 * width) {
                return false;
            }
        }
        return true;
    }

    /** Bits that give {@code d} in the leading varint: 0 for one id, 1 for two, 2 for three or four. */
    static int positionBits(int width) {
        return width == 1 ? 0 : width == 2 ? 1 : 2;
    }

    static long rotate(long id) {
        return id << 4 | id >>> 60;
    }

    static long unrotate(long v) {
        return v >>> 4 | v << 60;
    }

    /** Codes {@code n} entries (keys strictly ascending, each {@link #fits}) with a restart index every {@code interval}. */
    static byte[] encode(byte[][] keys, Object[] values, int n, int width, int interval, int sizeHint) {
        boolean hasValues = false;
        for (int i = 0; i < n && !hasValues; i++) {
            hasValues = !(values[i] instanceof byte[] b) || b.length > 0;
        }
        PageFormat.Sink out = new PageFormat.Sink(sizeHint);
        out.putByte(PageFormat.ID_TUPLE_LEAF);
        out.putByte(width);
        out.putByte(hasValues ? FLAG_VALUES : 0);
        out.putByte(interval);
        out.putInt(n);
        long[] prev = new long[width];
        long[] cur = new long[width];
        int db = positionBits(width);
        for (int e = 0; e < n; e++) {
            for (int i = 0; i < width; i++) {
                cur[i] = PageFormat.readLong(keys[e], 8 * i);
            }
            if (e == 0) {
                for (int i = 0; i < width; i++) {
                    out.putVarint(rotate(cur[i]));
                }
            } else {
                int d = 0;
                while (cur[d] == prev[d]) {
                    d++;
                }
                long modes = 0;
                for (int i = width - 1; i > d; i--) {
                    modes = modes << 2 | mode(cur[i], prev[i]);
                }
                int hb = db + 2 * (width - 1 - d);
                long delta = cur[d] - prev[d] - 1;
                putVarint72(out, delta, hb, modes << db | d);
                for (int i = d + 1; i < width; i++) {
                    switch (mode(cur[i], prev[i])) {
                        case 1 -> out.putVarint(rotate(cur[i]));
                        case 2 -> out.putVarint(zigzag(cur[i] - prev[i]));
                        case 3 -> out.putVarint(rotate(cur[i] ^ CENTRE));
                        default -> { }
                    }
                }
            }
            if (hasValues) {
                Object v = values[e];
                if (v instanceof byte[] inline) {
                    out.putVarint((long) inline.length << 1);
                    out.putBytes(inline, 0, inline.length);
                } else {
                    LargeValue large = (LargeValue) v;
                    out.putVarint((long) large.length() << 1 | 1);
                    out.putLong(large.address());
                    out.putInt(large.checksum());
                }
            }
            long[] t = prev;
            prev = cur;
            cur = t;
        }
        return out.toArray();
    }

    /**
     * Bytes {@link #encode} writes for the key part of an entry: {@code key} after {@code prev}, or
     * as entry 0 if {@code prev} is null. Both are keys of {@code width} ids, {@code prev} before {@code key}.
     */
    static int entryBytes(byte[] prev, byte[] key, int width) {
        int size = 0;
        if (prev == null) {
            for (int i = 0; i < width; i++) {
                size += PageFormat.varintSize(rotate(PageFormat.readLong(key, 8 * i)));
            }
            return size;
        }
        int d = 0;
        while (PageFormat.readLong(key, 8 * d) == PageFormat.readLong(prev, 8 * d)) {
            d++;
        }
        long modes = 0;
        for (int i = width - 1; i > d; i--) {
            long id = PageFormat.readLong(key, 8 * i);
            long before = PageFormat.readLong(prev, 8 * i);
            int m = mode(id, before);
            modes = modes << 2 | m;
            size += switch (m) {
                case 1 -> PageFormat.varintSize(rotate(id));
                case 2 -> PageFormat.varintSize(zigzag(id - before));
                case 3 -> PageFormat.varintSize(rotate(id ^ CENTRE));
                default -> 0;
            };
        }
        int db = positionBits(width);
        int hb = db + 2 * (width - 1 - d);
        long low = modes << db | d;
        long delta = PageFormat.readLong(key, 8 * d) - PageFormat.readLong(prev, 8 * d) - 1;
        // significant bits of the 64 + hb bit number delta << hb | low
        int bits = delta == 0 ? 64 - Long.numberOfLeadingZeros(low) : 64 - Long.numberOfLeadingZeros(delta) + hb;
        return size + Math.max(1, (bits + 6) / 7);
    }

    /** The shortest mode for {@code id} after {@code prev}; the lower mode wins a tie. */
    private static int mode(long id, long prev) {
        if (id == prev) {
            return 0;
        }
        int best = 1;
        int size = PageFormat.varintSize(rotate(id));
        if (PageFormat.varintSize(zigzag(id - prev)) < size) {
            best = 2;
            size = PageFormat.varintSize(zigzag(id - prev));
        }
        if (PageFormat.varintSize(rotate(id ^ CENTRE)) < size) {
            best = 3;
        }
        return best;
    }

    private static long zigzag(long v) {
        return v << 1 ^ v >> 63;
    }

    /** Writes the varint of the 64 + hb bit number {@code high << hb | low}, low group first. */
    private static void putVarint72(PageFormat.Sink out, long high, int hb, long low) {
        long lo = high << hb | low;
        long hi = hb == 0 ? 0 : high >>> (64 - hb);
        while (hi != 0 || (lo & ~0x7fL) != 0) {
            out.putByte((int) (lo & 0x7f) | 0x80);
            lo = lo >>> 7 | hi << 57;
            hi >>>= 7;
        }
        out.putByte((int) lo);
    }

    /** Reads a varint of up to 64 bits at {@code p} into {@code out[0]}; returns the position after it. */
    private static int readVarLong(byte[] b, int p, long[] out) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int x = b[p++];
            v |= (long) (x & 0x7f) << shift;
            if (x >= 0) {
                if (shift == 63 && x > 1) {
                    break;
                }
                out[0] = v;
                return p;
            }
        }
        throw new IllegalStateException("malformed varint at offset " + (p - 1));
    }

    /**
     * Reads the first entry's ids at {@code p} into {@code ids}; returns {@code 0 << 32 | end},
     * where end is the offset after its key part (every id changed, from position 0).
     */
    static long readFirst(byte[] b, int p, long[] ids) {
        long[] v = new long[1];
        for (int i = 0; i < ids.length; i++) {
            p = readVarLong(b, p, v);
            ids[i] = unrotate(v[0]);
        }
        return p;
    }

    /**
     * Reads the key part of a later entry at {@code p}, turning {@code ids} (the key before) into
     * its key; returns {@code (long) d << 32 | end}: the first id that changed and the offset after
     * the key part. Throws {@code IllegalStateException} on a malformed entry. This is the inner
     * loop of every scan: the one-byte leading varint and one-byte ids take the short paths.
     */
    static long readNext(byte[] b, int p, long[] ids) {
        int x = b[p++];
        long lo;
        long hi = 0;
        if (x >= 0) {
            lo = x;
        } else {
            lo = x & 0x7f;
            int shift = 7;
            do {
                x = b[p++];
                lo |= (long) (x & 0x7f) << shift;
                shift += 7;
            } while (x < 0 && shift < 63);
            if (x < 0) {
                x = b[p++];
                lo |= (long) (x & 0x7f) << 63;
                hi = (x & 0x7f) >>> 1;
                if (x < 0) {
                    x = b[p++];
                    hi |= (long) (x & 0x7f) << 6;
                    if (x < 0) {
                        throw malformed(p, "leading varint over 72 bits");
                    }
                }
            }
        }
        int width = ids.length;
        int db = positionBits(width);
        int d = (int) lo & ((1 << db) - 1);
        if (d >= width) {
            throw malformed(p, "first changed id " + d + " of " + width);
        }
        int hb = db + 2 * (width - 1 - d);
        if (hi >>> hb != 0) {
            throw malformed(p, "delta over 64 bits");
        }
        long delta = hb == 0 ? lo : lo >>> hb | hi << (64 - hb);
        long before = ids[d];
        long grown = before + delta + 1;
        if (Long.compareUnsigned(grown, before) <= 0) {
            throw malformed(p, "id " + d + " does not grow");
        }
        ids[d] = grown;
        int modes = (int) (lo >>> db);
        for (int i = d + 1; i < width; i++, modes >>>= 2) {
            int mode = modes & 3;
            if (mode == 0) {
                continue;
            }
            x = b[p++];
            long v = x & 0x7f;
            for (int s = 7; x < 0; s += 7) {
                if (s > 63) {
                    throw malformed(p, "varint over 64 bits");
                }
                x = b[p++];
                v |= (long) (x & 0x7f) << s;
            }
            if (mode == 1) {
                ids[i] = unrotate(v);
            } else if (mode == 2) {
                ids[i] += v >>> 1 ^ -(v & 1);
            } else {
                ids[i] = unrotate(v) ^ CENTRE;
            }
        }
        return (long) d << 32 | p;
    }

    private static IllegalStateException malformed(int p, String what) {
        return new IllegalStateException("malformed entry before offset " + p + ": " + what);
    }
}
