package dev.basalt.store.io;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C, the one checksum Basalt writes to disk. The JDK's implementation uses the SSE4.2/ARMv8
 * instruction where present, so checksumming every record read costs little next to the read.
 * Stateless; any thread may call it (each call uses its own {@link CRC32C}).
 */
public final class Checksums {
    private Checksums() {
    }

    /** CRC32C of {@code buf}'s remaining bytes; the buffer's position is left unchanged. */
    public static int crc32c(ByteBuffer buf) {
        CRC32C crc = new CRC32C();
        crc.update(buf.duplicate());
        return (int) crc.getValue();
    }

    public static int crc32c(byte[] bytes, int off, int len) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, off, len);
        return (int) crc.getValue();
    }
}
