package dev.basalt.store.btree;

import java.util.Arrays;

import static dev.basalt.store.btree.PageFormat.entryEnd;
import static dev.basalt.store.btree.PageFormat.LEAF;
import static dev.basalt.store.btree.PageFormat.LEAF_HEADER_BYTES;
import static dev.basalt.store.btree.PageFormat.next;
import static dev.basalt.store.btree.PageFormat.readInt;
import static dev.basalt.store.btree.PageFormat.readVarint;
import static dev.basalt.store.btree.PageFormat.value;

/**
 * A clean leaf kept in its encoded form and searched in place, in the manner of a sorted-table
 * block: keys are front-coded (shared-prefix length, suffix) and every {@code restartInterval}-th
 * key is stored whole with its offset in a restart table. A lookup binary-searches the restart
 * keys and then scans at most one run of front-coded entries, comparing against the search key
 * without rebuilding the keys it passes. Decoding a page is therefore only a header check.
 *
 * <p>Entry: varint shared, varint suffix length, varint tag, suffix bytes, then the value: the
 * tag's low bit is 0 for an inline value of {@code tag >>> 1} bytes that follow, 1 for a large
 * value of {@code tag >>> 1} bytes stored elsewhere, whose address (8) and CRC32C (4) follow.
 * Immutable; safe to share between threads.
 */
final class LeafPage implements LeafNode, Page {
    private final long address;
    private final int checksum;
    private final byte[] bytes;
    private final int count;
    private final int interval;
    private final int restarts;
    /**
     * Each restart key's first and second eight bytes as numbers ({@link PageFormat#head}), at
     * {@code 2r} and {@code 2r + 1}, read once when the page is decoded: the binary search over restart keys then reads two small
     * arrays (one or two cache lines) instead of a restart offset and a key somewhere in the page
     * per step, and a restart key's bytes only on a tie. On a page touched once by a lookup, those
     * scattered reads were most of the lookup's cache misses.
     */
    private final long[] heads;

    private LeafPage(long address, int checksum, byte[] bytes, int count, int interval) {
        this.address = address;
        this.checksum = checksum;
        this.bytes = bytes;
        this.count = count;
        this.interval = interval;
        this.restarts = (count + interval - 1) / interval;
        this.heads = new long[2 * restarts];
        for (int r = 0; r < restarts; r++) {
            int p = restartOffset(r);
            long sl = readVarint(bytes, next(readVarint(bytes, p)));
            int keyStart = next(readVarint(bytes, next(sl)));
            int length = value(sl);
            if (length < 0 || keyStart + (long) length > bytes.length) {
                throw new IllegalStateException("restart key " + r + " lies outside the leaf");
            }
            heads[2 * r] = PageFormat.head(bytes, keyStart, length, 0);
            heads[2 * r + 1] = PageFormat.head(bytes, keyStart, length, 8);
        }
    }

    /** Wraps an encoded leaf after checking its header; {@code IllegalStateException} if malformed. */
    static LeafPage decode(long address, int checksum, byte[] bytes) {
        if (bytes.length < LEAF_HEADER_BYTES || bytes[0] != LEAF) {
            throw new IllegalStateException("not a front-coded leaf page (kind byte 0x11)");
        }
        int count = readInt(bytes, 1);
        int interval = bytes[5] & 0xff;
        if (count < 0 || interval == 0
                || LEAF_HEADER_BYTES + 4L * ((count + (long) interval - 1) / interval) > bytes.length) {
            throw new IllegalStateException("leaf header is inconsistent: " + count + " entries, restart interval " + interval);
        }
        try {
            return new LeafPage(address, checksum, bytes, count, interval);
        } catch (ArrayIndexOutOfBoundsException e) {
            throw new IllegalStateException("leaf restart table points outside the page", e);
        }
    }

    /** Codes {@code n} entries (keys strictly ascending) with a restart every {@code interval} keys. */
    static byte[] encode(byte[][] keys, Object[] values, int n, int interval, int sizeHint) {
        PageFormat.Sink out = new PageFormat.Sink(sizeHint);
        out.putByte(LEAF);
        out.putInt(n);
        out.putByte(interval);
        int table = out.position();
        out.skip(4 * ((n + interval - 1) / interval));
        for (int i = 0; i < n; i++) {
            byte[] key = keys[i];
            int shared = 0;
            if (i % interval == 0) {
                out.putIntAt(table + 4 * (i / interval), out.position());
            } else {
                shared = PageFormat.sharedPrefix(keys[i - 1], key);
            }
            out.putVarint(shared);
            out.putVarint(key.length - shared);
            Object v = values[i];
            if (v instanceof byte[] inline) {
                out.putVarint((long) inline.length << 1);
                out.putBytes(key, shared, key.length - shared);
                out.putBytes(inline, 0, inline.length);
            } else {
                LargeValue large = (LargeValue) v;
                out.putVarint((long) large.length() << 1 | 1);
                out.putBytes(key, shared, key.length - shared);
                out.putLong(large.address());
                out.putInt(large.checksum());
            }
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
        return 96 + bytes.length + 16 * restarts;
    }

    byte[] encoded() {
        return bytes;
    }

    @Override
    public int size() {
        return count;
    }

    @Override
    public int runLength() {
        return interval;
    }

    private int restartOffset(int r) {
        return readInt(bytes, LEAF_HEADER_BYTES + 4 * r);
    }

    private int compareRestartKey(int r, byte[] key) {
        int p = restartOffset(r);
        p = next(readVarint(bytes, p));
        long sl = readVarint(bytes, p);
        p = next(readVarint(bytes, next(sl)));
        return Arrays.compareUnsigned(bytes, p, p + value(sl), key, 0, key.length);
    }

    @Override
    public int search(byte[] key) {
        return locate(key, null);
    }

    /**
     * As {@link #search}, in one pass: binary search over the restart keys, then an in-place scan
     * of one run that rebuilds only the key it stops at.
     */
    @Override
    public int scanCeiling(byte[] key, LeafScan scan) {
        int found = locate(key, scan);
        return found >= 0 ? found : -found - 1;
    }

    /**
     * The result of {@link #search}; if {@code scan} is not null, also puts it on the first entry
     * whose key is {@code >= key}, when there is one.
     */
    private int locate(byte[] key, LeafScan scan) {
        long k0 = PageFormat.head(key, 0, key.length, 0);
        long k1 = PageFormat.head(key, 0, key.length, 8);
        int lo = 0;
        int hi = restarts - 1;
        int block = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int c = Long.compareUnsigned(heads[2 * mid], k0);
            if (c == 0) {
                c = Long.compareUnsigned(heads[2 * mid + 1], k1);
                if (c == 0) {
                    c = compareRestartKey(mid, key);
                }
            }
            if (c == 0) {
                if (scan != null) {
                    scanTo(mid * interval, scan);
                }
                return mid * interval;
            } else if (c < 0) {
                block = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (block < 0) {
            if (scan != null && count > 0) {
                scanTo(0, scan);
            }
            return -1;
        }
        int e = block * interval;
        int end = Math.min(e + interval, count);
        // matched = length of the prefix the previous key (known to be < key) shares with key; so
        // an entry that shares at most that much with the previous key starts with the same bytes
        // as key, and the entry this scan stops at is rebuilt from key's prefix and its suffix
        int matched = -1;
        int p = restartOffset(block);
        for (; e < end; e++) {
            int shared = value(readVarint(bytes, p));
            long sl = readVarint(bytes, next(readVarint(bytes, p)));
            long tag = readVarint(bytes, next(sl));
            int suffix = value(sl);
            int keyStart = next(tag);
            if (matched < 0) {
                int m = Arrays.mismatch(bytes, keyStart, keyStart + suffix, key, 0, key.length);
                matched = m;
            } else if (shared < matched) {
                return stop(-e - 1, e, key, shared, keyStart, suffix, value(tag), scan);
            } else if (shared == matched) {
                int m = Arrays.mismatch(bytes, keyStart, keyStart + suffix, key, matched, key.length);
                if (m < 0) {
                    return stop(e, e, key, shared, keyStart, suffix, value(tag), scan);
                }
                int common = matched + m;
                boolean less = m == suffix
                        || common < key.length && (bytes[keyStart + m] & 0xff) < (key[common] & 0xff);
                if (!less) {
                    return stop(-e - 1, e, key, shared, keyStart, suffix, value(tag), scan);
                }
                matched = common;
            }
            p = entryEnd(keyStart + suffix, value(tag));
        }
        if (scan != null && end < count) {
            scanTo(end, scan);
        }
        return -end - 1;
    }

    /** Returns {@code result}, first putting {@code scan} (if any) on entry {@code e}, whose key starts with {@code key[0, shared)}. */
    private int stop(int result, int e, byte[] key, int shared, int keyStart, int suffix, int tag, LeafScan scan) {
        if (scan != null) {
            byte[] buf = scan.ensureCapacity(shared + suffix);
            System.arraycopy(key, 0, buf, 0, shared);
            System.arraycopy(bytes, keyStart, buf, shared, suffix);
            scan.keyLength = shared + suffix;
            scan.index = e;
            scan.valueStart = keyStart + suffix;
            scan.tag = tag;
            scan.next = entryEnd(scan.valueStart, tag);
        }
        return result;
    }

    /** Offset of entry {@code index}, found by scanning from its restart point. */
    private int entryOffset(int index) {
        int p = restartOffset(index / interval);
        for (int e = index - index % interval; e < index; e++) {
            long sl = readVarint(bytes, next(readVarint(bytes, p)));
            long tag = readVarint(bytes, next(sl));
            p = entryEnd(next(tag) + value(sl), value(tag));
        }
        return p;
    }

    @Override
    public byte[] keyAt(int index) {
        checkIndex(index);
        byte[] buf = new byte[64];
        int len = 0;
        int p = restartOffset(index / interval);
        for (int e = index - index % interval; e <= index; e++) {
            long shared = readVarint(bytes, p);
            long sl = readVarint(bytes, next(shared));
            long tag = readVarint(bytes, next(sl));
            len = value(shared) + value(sl);
            if (len > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(len, buf.length * 2));
            }
            System.arraycopy(bytes, next(tag), buf, value(shared), value(sl));
            p = entryEnd(next(tag) + value(sl), value(tag));
        }
        return Arrays.copyOf(buf, len);
    }

    @Override
    public Object valueAt(int index) {
        checkIndex(index);
        int p = entryOffset(index);
        long sl = readVarint(bytes, next(readVarint(bytes, p)));
        long tag = readVarint(bytes, next(sl));
        return valueOf(next(tag) + value(sl), value(tag));
    }

    private Object valueOf(int valueStart, int tag) {
        return PageFormat.storedValue(bytes, valueStart, tag);
    }

    @Override
    public void decodeRun(int first, int n, byte[][] keys, Object[] values) {
        int p = restartOffset(first / interval);
        byte[] prev = null;
        for (int j = 0; j < n; j++) {
            long shared = readVarint(bytes, p);
            long sl = readVarint(bytes, next(shared));
            long tag = readVarint(bytes, next(sl));
            int s = value(shared);
            byte[] key = new byte[s + value(sl)];
            if (s > 0) {
                System.arraycopy(prev, 0, key, 0, s);
            }
            System.arraycopy(bytes, next(tag), key, s, value(sl));
            keys[j] = key;
            values[j] = valueOf(next(tag) + value(sl), value(tag));
            p = entryEnd(next(tag) + value(sl), value(tag));
            prev = key;
        }
    }

    @Override
    public void scanTo(int index, LeafScan scan) {
        checkIndex(index);
        int p = restartOffset(index / interval);
        scan.keyLength = 0;
        for (int e = index - index % interval; e <= index; e++) {
            p = scanEntry(p, scan);
        }
        scan.index = index;
    }

    @Override
    public void scanNext(LeafScan scan) {
        checkIndex(scan.index + 1);
        scanEntry(scan.next, scan);
        scan.index++;
    }

    @Override
    public Object scanValue(LeafScan scan) {
        return valueOf(scan.valueStart, scan.tag);
    }

    /**
     * Decodes the entry at {@code p} into {@code scan}, whose buffer holds the previous key of the
     * run (a restart entry shares nothing), and returns the offset of the next entry.
     */
    private int scanEntry(int p, LeafScan scan) {
        long shared = readVarint(bytes, p);
        long sl = readVarint(bytes, next(shared));
        long tag = readVarint(bytes, next(sl));
        int prefix = value(shared);
        int suffix = value(sl);
        if (prefix > scan.keyLength) {
            throw new IllegalStateException("leaf at address " + address + ": entry at offset " + p + " shares "
                    + prefix + " bytes with a key of " + scan.keyLength);
        }
        int keyStart = next(tag);
        System.arraycopy(bytes, keyStart, scan.ensureCapacity(prefix + suffix), prefix, suffix);
        scan.keyLength = prefix + suffix;
        scan.valueStart = keyStart + suffix;
        scan.tag = value(tag);
        scan.next = entryEnd(scan.valueStart, scan.tag);
        return scan.next;
    }

    /**
     * Checks the whole coding: restart offsets, shared lengths, bounds, and that the entries end
     * exactly at the end of the page. Throws {@code IllegalStateException} describing the fault.
     */
    void validate() {
        int p = restarts == 0 ? LEAF_HEADER_BYTES : restartOffset(0);
        if (p != LEAF_HEADER_BYTES + 4 * restarts) {
            throw new IllegalStateException("first entry at " + p + ", expected after the restart table");
        }
        int prevLength = 0;
        for (int e = 0; e < count; e++) {
            if (e % interval == 0 && restartOffset(e / interval) != p) {
                throw new IllegalStateException("restart " + e / interval + " points to " + restartOffset(e / interval) + ", entry is at " + p);
            }
            long shared = readVarint(bytes, p);
            long sl = readVarint(bytes, next(shared));
            long tag = readVarint(bytes, next(sl));
            if (e % interval == 0 ? value(shared) != 0 : value(shared) > prevLength) {
                throw new IllegalStateException("entry " + e + " shares " + value(shared) + " bytes with a key of " + prevLength);
            }
            prevLength = value(shared) + value(sl);
            p = entryEnd(next(tag) + value(sl), value(tag));
            if (p > bytes.length || p < 0) {
                throw new IllegalStateException("entry " + e + " runs past the end of the page");
            }
        }
        if (p != bytes.length) {
            throw new IllegalStateException("entries end at " + p + " but the page has " + bytes.length + " bytes");
        }
    }

    private void checkIndex(int index) {
        if (index < 0 || index >= count) {
            throw new IndexOutOfBoundsException("entry " + index + " of a leaf with " + count);
        }
    }
}
