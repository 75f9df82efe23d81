package dev.basalt.store.btree;

import dev.basalt.store.journal.RecordStore;

import java.nio.ByteBuffer;

/**
 * What a commit record keeps to reopen a tree: the root page's address and CRC32C, the number of
 * entries and the height (0 for the empty tree, whose root address is {@link RecordStore#NULL}).
 *
 * <p>Encoding (22 bytes, big-endian; see docs/FORMAT.md "B+tree checkpoint"): format version
 * (1 byte, {@value #FORMAT_VERSION}), height (1 byte), root address (8), root CRC32C (4), entry
 * count (8). The commit record that embeds it carries the checksum. The version is the page format
 * the tree's pages may use: a version-1 checkpoint's tree holds only version-1 page kinds, a
 * version-2 one may also hold id-tuple leaves, a version-3 one also compressed pages. This build
 * reads all three and writes version 3, so a Basalt that reads only older versions refuses a
 * store this build has written when it opens it, rather than failing later on a page it cannot
 * read.
 *
 * <p>Immutable; safe to share between threads.
 */
public record BTreeCheckpoint(long rootAddress, int rootChecksum, long entryCount, int height) {
    public static final int FORMAT_VERSION = 3;
    /** The oldest checkpoint version this build reads. */
    public static final int OLDEST_READABLE_VERSION = 1;
    public static final int ENCODED_BYTES = 22;
    public static final BTreeCheckpoint EMPTY = new BTreeCheckpoint(RecordStore.NULL, 0, 0, 0);

    public BTreeCheckpoint {
        if (entryCount < 0 || height < 0 || height > 255) {
            throw new IllegalArgumentException("bad checkpoint: " + entryCount + " entries, height " + height);
        }
        if ((rootAddress == RecordStore.NULL) != (height == 0) || (height == 0) != (entryCount == 0)) {
            throw new IllegalArgumentException("bad checkpoint: root " + rootAddress + ", height " + height
                    + ", entries " + entryCount + " (empty tree has root 0, height 0, no entries)");
        }
    }

    public boolean isEmpty() {
        return entryCount == 0;
    }

    public byte[] toBytes() {
        ByteBuffer buf = ByteBuffer.allocate(ENCODED_BYTES);
        buf.put((byte) FORMAT_VERSION).put((byte) height).putLong(rootAddress).putInt(rootChecksum).putLong(entryCount);
        return buf.array();
    }

    /** Reads a checkpoint at the buffer's position and advances it by {@link #ENCODED_BYTES}. */
    public static BTreeCheckpoint fromBytes(ByteBuffer buf) {
        if (buf.remaining() < ENCODED_BYTES) {
            throw new IllegalArgumentException("B+tree checkpoint needs " + ENCODED_BYTES + " bytes, got " + buf.remaining());
        }
        int version = buf.get() & 0xff;
        if (version < OLDEST_READABLE_VERSION || version > FORMAT_VERSION) {
            throw new IllegalArgumentException("unsupported B+tree checkpoint format version " + version
                    + " (this build reads versions " + OLDEST_READABLE_VERSION + " to " + FORMAT_VERSION
                    + "); open the store with the Basalt release that wrote it");
        }
        int height = buf.get() & 0xff;
        long root = buf.getLong();
        int crc = buf.getInt();
        long count = buf.getLong();
        return new BTreeCheckpoint(root, crc, count, height);
    }
}
