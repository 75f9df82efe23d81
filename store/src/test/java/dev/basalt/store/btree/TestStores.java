package dev.basalt.store.btree;

import dev.basalt.store.io.Checksums;
import dev.basalt.store.journal.CorruptRecordException;
import dev.basalt.store.journal.MemoryRecordStore;
import dev.basalt.store.journal.RecordStore;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** Record-store wrappers for tests: deferred frees as the journal does, and byte flips on read. */
final class TestStores {
    private TestStores() {
    }

    /** Holds frees until {@link #releaseDeferred()}, like the journal while a reader pins a commit point. */
    static final class DeferredFreeStore implements RecordStore {
        final MemoryRecordStore inner = new MemoryRecordStore();
        private final List<Long> deferred = new ArrayList<>();

        @Override
        public long write(ByteBuffer payload) {
            return inner.write(payload);
        }

        @Override
        public ByteBuffer read(long address, int expectedChecksum) {
            return inner.read(address, expectedChecksum);
        }

        @Override
        public synchronized void free(long address) {
            deferred.add(address);
        }

        synchronized int deferredCount() {
            return deferred.size();
        }

        synchronized void releaseDeferred() {
            for (long a : deferred) {
                inner.free(a);
            }
            deferred.clear();
        }
    }

    /** Returns a copy with one byte flipped when reading an address in {@link #corrupt}. */
    static final class CorruptingStore implements RecordStore {
        final MemoryRecordStore inner = new MemoryRecordStore();
        final Set<Long> corrupt = new HashSet<>();

        @Override
        public long write(ByteBuffer payload) {
            return inner.write(payload);
        }

        @Override
        public ByteBuffer read(long address, int expectedChecksum) {
            if (!corrupt.contains(address)) {
                return inner.read(address, expectedChecksum);
            }
            // the bytes on "disk" have one bit flipped; the store checks them as the journal does
            ByteBuffer good = inner.read(address, expectedChecksum);
            byte[] bytes = new byte[good.remaining()];
            good.get(bytes);
            bytes[bytes.length / 2] ^= 0x10;
            if (Checksums.crc32c(bytes, 0, bytes.length) != expectedChecksum) {
                throw new CorruptRecordException(address, "checksum mismatch");
            }
            return ByteBuffer.wrap(bytes);
        }

        @Override
        public void free(long address) {
            inner.free(address);
        }
    }
}
