package dev.basalt.store.journal;

import dev.basalt.store.io.Checksums;

import java.nio.ByteBuffer;

/**
 * How a record lies in the journal file (docs/FORMAT.md 1.4, "Record framing"): a 4-byte payload length, the
 * payload's CRC32C, then the payload, in the slot or extent its address names. Writes frame and
 * checksum a payload; reads check the length against the slot and the checksum against both the
 * record header and the one the referrer stored, so a mismatch is an error naming the address.
 *
 * <p>Threads: any number of threads read concurrently (each with its own pooled buffer); writes
 * to distinct addresses may run concurrently too. The file's mapping lock keeps mapped reads safe
 * against unmapping.
 */
final class RecordFraming {
    static final int RECORD_HEADER = 8;
    /** Records beyond this size are read into a buffer of their own, not the pooled one. */
    private static final int MAX_POOLED_READ = 1 << 20;
    /**
     * Per-thread direct buffers records are read into: the channel fills them without the
     * temporary direct copy it makes for a heap buffer, the checksum runs on them, and the payload
     * is copied once into the array returned.
     */
    private static final ThreadLocal<ByteBuffer> READ_BUFFERS = ThreadLocal
            .withInitial(() -> ByteBuffer.allocateDirect(64 * 1024));

    /** Records up to this size are written from {@link #WRITE_BUFFERS}. */
    private static final int MAX_POOLED_WRITE = 64 * 1024;
    private static final ThreadLocal<ByteBuffer> WRITE_BUFFERS = ThreadLocal
            .withInitial(() -> ByteBuffer.allocateDirect(MAX_POOLED_WRITE));

    private final JournalFile file;

    RecordFraming(JournalFile file) {
        this.file = file;
    }

    /**
     * Writes {@code payload} (its remaining bytes) framed at {@code address}; returns its CRC32C.
     * The record is put together in a per-thread direct buffer (a heap buffer would be copied into
     * one by the channel), unless it is larger than that.
     */
    int write(long address, ByteBuffer payload) {
        int len = payload.remaining();
        int crc = Checksums.crc32c(payload);
        ByteBuffer b = RECORD_HEADER + len <= MAX_POOLED_WRITE ? WRITE_BUFFERS.get().clear()
                : ByteBuffer.allocate(RECORD_HEADER + len);
        b.putInt(len).putInt(crc).put(payload.duplicate()).flip();
        file.write(b, Addresses.offset(address));
        return crc;
    }

    /** The payload at {@code address} as a buffer over an array of exactly its length (offset 0). */
    ByteBuffer read(long address, int expectedChecksum) {
        long off = Addresses.offset(address);
        int span = Addresses.span(address);
        if (address == RecordStore.NULL || off < Journal.DATA_START) {
            throw new CorruptRecordException(address, "not a record address in " + file.path());
        }
        if (JournalFile.MAP_READS) {
            long stamp = file.beginMappedRead();
            try {
                ByteBuffer map = file.mapped(off, RECORD_HEADER);
                ByteBuffer payload = map == null ? null : readMapped(map, address, off, span, expectedChecksum);
                if (payload != null) {
                    return payload;
                }
            } finally {
                file.endMappedRead(stamp);
            }
        }
        ByteBuffer b = READ_BUFFERS.get();
        if (b.capacity() < span) {
            b = ByteBuffer.allocateDirect(span);
            if (span <= MAX_POOLED_READ) {
                READ_BUFFERS.set(b);
            }
        }
        b.clear().limit(span);
        int n = file.read(b, off);
        if (n < RECORD_HEADER) {
            throw new CorruptRecordException(address, "record lies beyond the end of " + file.path() + " (truncated file?)");
        }
        int len = b.getInt(0);
        int stored = b.getInt(4);
        checkLength(address, len, Math.min(span, n) - RECORD_HEADER);
        b.limit(RECORD_HEADER + len).position(RECORD_HEADER);
        checkChecksum(address, expectedChecksum, stored, Checksums.crc32c(b));
        byte[] payload = new byte[len];
        b.get(payload);
        return ByteBuffer.wrap(payload);
    }

    /** {@link #read} from a mapping of the file; null if the record is not within one (read it with a system call). */
    private ByteBuffer readMapped(ByteBuffer map, long address, long off, int span, int expectedChecksum) {
        int at = (int) (off % JournalFile.MAP_SIZE);
        int len = map.getInt(at);
        int stored = map.getInt(at + 4);
        checkLength(address, len, span - RECORD_HEADER);
        if (at + RECORD_HEADER + len > map.capacity()) {
            map = file.mapped(off, RECORD_HEADER + len);
            if (map == null) {
                return null;
            }
        }
        byte[] payload = new byte[len];
        map.get(at + RECORD_HEADER, payload);
        checkChecksum(address, expectedChecksum, stored, Checksums.crc32c(payload, 0, len));
        return ByteBuffer.wrap(payload);
    }

    private void checkLength(long address, int len, int room) {
        if (len < 0 || len > room) {
            throw new CorruptRecordException(address, "record length " + len + " does not fit its slot in " + file.path());
        }
    }

    private void checkChecksum(long address, int expected, int stored, int actual) {
        if (actual != stored || stored != expected) {
            throw new CorruptRecordException(address, String.format(
                    "checksum mismatch in %s: expected %08x, record header %08x, data %08x", file.path(),
                    expected, stored, actual));
        }
    }
}
