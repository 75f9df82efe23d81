package dev.basalt.store.journal;

import dev.basalt.store.io.Checksums;

import java.nio.ByteBuffer;
import java.util.UUID;

/**
 * One of the two alternating commit points at offsets 4096 and 8192. Commit {@code n} is written
 * to slot {@code n % 2}, so the previous commit point is untouched while the new one is written.
 * The commit counter stands at the head and the tail and a CRC32C covers everything, so a torn
 * write is recognised and the other slot wins. See docs/FORMAT.md, "Root blocks".
 *
 * <p>Immutable; safe to share between threads.
 *
 * @param commitCounter     number of commits made, 0 for a new store
 * @param commitTime        wall-clock milliseconds of the commit (monotonic per store)
 * @param commitRecord      address of the upper layer's commit record, or 0
 * @param commitRecordCrc   its CRC32C
 * @param allocatorState    address of the allocator state record (RW mode), or 0
 * @param allocatorStateCrc its CRC32C
 * @param fileEnd           bytes of the file in use by this commit point
 */
record RootBlock(long commitCounter, long commitTime, long commitRecord, int commitRecordCrc,
                 long allocatorState, int allocatorStateCrc, long fileEnd, UUID storeId) {
    static final int SIZE = 4096;
    static final long FIRST_OFFSET = JournalHeader.SIZE;
    private static final int BODY = 8 + 8 + 8 + 4 + 8 + 4 + 8 + 16 + 8;

    static long offsetOf(long commitCounter) {
        return FIRST_OFFSET + (commitCounter & 1) * SIZE;
    }

    ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.putLong(commitCounter).putLong(commitTime).putLong(commitRecord).putInt(commitRecordCrc)
                .putLong(allocatorState).putInt(allocatorStateCrc).putLong(fileEnd)
                .putLong(storeId.getMostSignificantBits()).putLong(storeId.getLeastSignificantBits())
                .putLong(commitCounter);
        b.putInt(Checksums.crc32c(b.array(), 0, BODY));
        return b.clear();
    }

    /** Returns the root block in {@code b}, or null with the reason in {@code why[0]}. */
    static RootBlock decode(ByteBuffer b, UUID expectedStore, String[] why) {
        if (b.remaining() < BODY + 4) {
            why[0] = "missing (file too short)";
            return null;
        }
        byte[] body = new byte[BODY];
        b.get(0, body);
        if (Checksums.crc32c(body, 0, BODY) != b.getInt(BODY)) {
            why[0] = "checksum mismatch (torn or damaged write)";
            return null;
        }
        long head = b.getLong(0);
        long tail = b.getLong(BODY - 8);
        if (head != tail) {
            why[0] = "commit counter at head " + head + " differs from tail " + tail;
            return null;
        }
        UUID id = new UUID(b.getLong(48), b.getLong(56));
        if (!id.equals(expectedStore)) {
            why[0] = "belongs to another store (" + id + ")";
            return null;
        }
        return new RootBlock(head, b.getLong(8), b.getLong(16), b.getInt(24), b.getLong(28), b.getInt(36),
                b.getLong(40), id);
    }
}
