package dev.basalt.store.journal;

import dev.basalt.store.io.Checksums;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * The in-memory twin of the journal's record store: same contract, no file. Contract tests run
 * against both; upper layers use it to test without disk. Freed records are dropped at once, so a
 * read of a freed address fails as a stale read on disk would.
 *
 * <p>Thread-safe: every method synchronizes on the store.
 */
public final class MemoryRecordStore implements RecordStore {
    private final Map<Long, byte[]> records = new HashMap<>();
    private long nextOffset = Addresses.UNIT;

    @Override
    public synchronized long write(ByteBuffer payload) {
        byte[] copy = new byte[payload.remaining()];
        payload.duplicate().get(copy);
        long span = ((copy.length + 8L + Addresses.UNIT - 1) / Addresses.UNIT) * Addresses.UNIT;
        if (copy.length > MAX_RECORD_BYTES) {
            throw new StoreException("record of " + copy.length + " bytes exceeds the limit of " + MAX_RECORD_BYTES);
        }
        long address = Addresses.of(nextOffset, span);
        nextOffset += span;
        records.put(address, copy);
        return address;
    }

    @Override
    public synchronized ByteBuffer read(long address, int expectedChecksum) {
        byte[] bytes = records.get(address);
        if (bytes == null) {
            throw new CorruptRecordException(address, "no record at this address");
        }
        if (Checksums.crc32c(bytes, 0, bytes.length) != expectedChecksum) {
            throw new CorruptRecordException(address, "checksum mismatch");
        }
        return ByteBuffer.wrap(bytes).asReadOnlyBuffer();
    }

    @Override
    public synchronized void free(long address) {
        if (records.remove(address) == null) {
            throw new IllegalStateException("double free of " + Addresses.describe(address));
        }
    }

    /** Records currently stored; lets tests check that a structure frees what it replaces. */
    public synchronized int recordCount() {
        return records.size();
    }

    public synchronized long bytesStored() {
        long total = 0;
        for (byte[] b : records.values()) {
            total += b.length;
        }
        return total;
    }
}
