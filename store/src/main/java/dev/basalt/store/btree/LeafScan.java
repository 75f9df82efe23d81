package dev.basalt.store.btree;

import java.util.Arrays;

/**
 * Where an ascending scan stands inside one leaf: the entry's index, its key rebuilt in a buffer
 * the scan reuses for every entry, and (for an encoded leaf) the offsets of its value and of the
 * following entry. Front coding makes the reuse cheap: the next key shares a prefix with the one
 * already in the buffer, so only its suffix is copied, and nothing is allocated per entry.
 * Owned by one cursor; the leaf that positioned it is the only one that may move it.
 *
 * <p>Not thread-safe: used only by the thread that uses its cursor.
 */
final class LeafScan {
    byte[] key = new byte[64];
    int keyLength;
    int index;
    /** Encoded leaves: offset of the current entry's value, its tag, and the next entry's offset. */
    int valueStart;
    int tag;
    int next;
    /** Id-tuple leaves: the ids of the current key, which the next entry is coded against. */
    long[] ids;

    /** Makes room for a key of {@code length} bytes, keeping the bytes already in the buffer. */
    byte[] ensureCapacity(int length) {
        if (length > key.length) {
            key = Arrays.copyOf(key, Math.max(length, key.length * 2));
        }
        return key;
    }

    /** The id buffer for keys of {@code width} ids (its contents are not kept across widths). */
    long[] ids(int width) {
        if (ids == null || ids.length != width) {
            ids = new long[width];
        }
        return ids;
    }

    void setKey(byte[] k) {
        System.arraycopy(k, 0, ensureCapacity(k.length), 0, k.length);
        keyLength = k.length;
    }
}
