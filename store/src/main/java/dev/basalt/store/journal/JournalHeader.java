package dev.basalt.store.journal;

import dev.basalt.store.io.Checksums;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The first 4 KiB of a journal: magic, format version, mode and store UUID, with a CRC32C. Written
 * once at creation and never again. See docs/FORMAT.md, "Header".
 * Immutable; safe to share between threads.
 */
record JournalHeader(int formatVersion, JournalMode mode, UUID storeId, long createdMillis) {
    static final byte[] MAGIC = "BASALT\r\n".getBytes(StandardCharsets.ISO_8859_1);
    static final int CURRENT_VERSION = 1;
    static final int SIZE = 4096;
    private static final int ENCODED_LENGTH = 8 + 4 + 4 + 16 + 8;

    ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.put(MAGIC).putInt(formatVersion).putInt(mode.code)
                .putLong(storeId.getMostSignificantBits()).putLong(storeId.getLeastSignificantBits())
                .putLong(createdMillis);
        b.putInt(Checksums.crc32c(b.array(), 0, ENCODED_LENGTH));
        return b.clear();
    }

    /** Decodes and validates; every failure names the file and what is wrong. */
    static JournalHeader decode(ByteBuffer b, String file) {
        if (b.remaining() < ENCODED_LENGTH + 4) {
            throw new StoreException(file + " is not a Basalt journal: only " + b.remaining() + " bytes long");
        }
        byte[] magic = new byte[MAGIC.length];
        b.get(0, magic);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new StoreException(file + " is not a Basalt journal (wrong magic bytes at offset 0)");
        }
        int stored = b.getInt(ENCODED_LENGTH);
        byte[] body = new byte[ENCODED_LENGTH];
        b.get(0, body);
        if (Checksums.crc32c(body, 0, body.length) != stored) {
            throw new StoreException(file + ": the journal header (offset 0) fails its checksum; the file is damaged");
        }
        int version = b.getInt(8);
        if (version != CURRENT_VERSION) {
            throw new StoreException(file + " has journal format version " + version
                    + "; this Basalt reads version " + CURRENT_VERSION + " only. Use the Basalt release that wrote it.");
        }
        JournalMode mode = JournalMode.ofCode(b.getInt(12));
        if (mode == null) {
            throw new StoreException(file + ": unknown journal mode code " + b.getInt(12));
        }
        return new JournalHeader(version, mode, new UUID(b.getLong(16), b.getLong(24)), b.getLong(32));
    }
}
