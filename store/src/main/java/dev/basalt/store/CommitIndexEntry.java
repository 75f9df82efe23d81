package dev.basalt.store;

import dev.basalt.store.journal.CommitPoint;

import java.nio.ByteBuffer;

/**
 * Coding of the commit-time index: key = commit counter (8 bytes, big-endian, so keys sort by
 * counter); value = commit time (8), commit record address (8), its CRC32C (4).
 * Stateless; any thread may call it.
 */
final class CommitIndexEntry {
    private CommitIndexEntry() {
    }

    static byte[] key(long counter) {
        return ByteBuffer.allocate(8).putLong(counter).array();
    }

    static byte[] value(CommitPoint p) {
        return ByteBuffer.allocate(20).putLong(p.timeMillis()).putLong(p.record()).putInt(p.recordCrc()).array();
    }

    static CommitPoint point(byte[] key, byte[] value) {
        ByteBuffer v = ByteBuffer.wrap(value);
        return new CommitPoint(ByteBuffer.wrap(key).getLong(), v.getLong(), v.getLong(), v.getInt());
    }
}
