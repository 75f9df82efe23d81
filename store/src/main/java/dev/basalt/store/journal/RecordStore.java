package dev.basalt.store.journal;

import java.nio.ByteBuffer;

/**
 * The contract between the journal and the structures that live in it (B+tree pages, commit
 * records, large values): immutable, checksummed records addressed by a 64-bit address.
 *
 * <p>A record is never modified after {@link #write}; a structure changes by writing new records
 * and {@link #free freeing} the old ones (copy-on-write). The caller keeps, next to every address it
 * stores, the record's CRC32C ({@link dev.basalt.store.io.Checksums#crc32c(ByteBuffer)} of the
 * payload) and passes it back on {@link #read}; the store checks the payload against it, so a
 * torn, flipped, misdirected or stale record is an error naming the address, never a wrong read.
 *
 * <p>Address {@code 0} is never a record ({@link #NULL}).
 */
public interface RecordStore {
    long NULL = 0L;

    /** Largest payload one record can hold. */
    int MAX_RECORD_BYTES = (1 << 28) - 128;

    /**
     * Stores the buffer's remaining bytes as a new record and returns its address. The buffer's
     * position is not changed.
     */
    long write(ByteBuffer payload);

    /**
     * Reads the record at {@code address} and checks it against {@code expectedChecksum}. The
     * returned buffer is read-only or private to the caller; its position is 0 and limit the
     * payload length.
     *
     * @throws CorruptRecordException if the record fails its checksum, names the address
     */
    ByteBuffer read(long address, int expectedChecksum);

    /**
     * Releases a record. A record written since the last commit is reusable at once; a committed
     * one only when no retained or pinned commit point can still see it.
     */
    void free(long address);
}
