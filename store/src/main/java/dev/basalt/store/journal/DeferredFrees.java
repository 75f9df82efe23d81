package dev.basalt.store.journal;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Records freed by committed transactions that older commit points may still read. A group holds
 * what commit {@code F} freed: those records are part of commit points before {@code F}, so they
 * may be released once no reader pins a commit point before {@code F} and the history retention
 * has passed since {@code F} was committed. Groups are released oldest first.
 *
 * <p>On disk each group's addresses are one record, written once at its commit; its descriptor
 * goes into the allocator state's tail, and every {@value #SEGMENT} descriptors are sealed into a
 * segment record, also written once. So a commit writes metadata in proportion to what it freed,
 * however long the retention and however many groups wait, and the addresses themselves are read
 * back only when their group is released.
 *
 * <p>Not thread-safe: touched only under the {@link Journal}'s monitor.
 */
final class DeferredFrees {
    static final int SEGMENT = 256;
    static final int DESCRIPTOR_BYTES = 8 + 8 + 4 + 8 + 8 + 4;

    /** What commit {@code commit} freed: {@code count} records, {@code bytes} of space, listed in {@code record}. */
    record Group(long commit, long commitTime, int count, long bytes, long record, int recordCrc) {
        void encode(ByteBuffer b) {
            b.putLong(commit).putLong(commitTime).putInt(count).putLong(bytes).putLong(record).putInt(recordCrc);
        }

        static Group decode(ByteBuffer b) {
            return new Group(b.getLong(), b.getLong(), b.getInt(), b.getLong(), b.getLong(), b.getInt());
        }
    }

    /** Sealed descriptors; the first {@code released} have been released already. */
    static final class Segment {
        final long address;
        final int crc;
        final List<Group> groups;
        int released;

        Segment(long address, int crc, List<Group> groups, int released) {
            this.address = address;
            this.crc = crc;
            this.groups = groups;
            this.released = released;
        }
    }

    final Deque<Segment> sealed = new ArrayDeque<>();
    final List<Group> tail = new ArrayList<>();

    /** The oldest unreleased group, or null. */
    Group oldest() {
        Segment s = sealed.peekFirst();
        if (s != null) {
            return s.groups.get(s.released);
        }
        return tail.isEmpty() ? null : tail.get(0);
    }

    /**
     * Drops the oldest group; metadata records that become unreferenced (a fully released
     * segment) are passed to {@code freedMetadata}.
     */
    void removeOldest(LongConsumer freedMetadata) {
        Segment s = sealed.peekFirst();
        if (s != null) {
            s.released++;
            if (s.released == s.groups.size()) {
                sealed.pollFirst();
                freedMetadata.accept(s.address);
            }
        } else {
            tail.remove(0);
        }
    }

    boolean isReleasable(Group g, long minPinnedCommit, long now, long retentionMillis) {
        return g.commit <= minPinnedCommit && now - g.commitTime >= retentionMillis;
    }

    List<Group> all() {
        List<Group> out = new ArrayList<>();
        for (Segment s : sealed) {
            out.addAll(s.groups.subList(s.released, s.groups.size()));
        }
        out.addAll(tail);
        return out;
    }

    long bytes() {
        long total = 0;
        for (Group g : all()) {
            total += g.bytes;
        }
        return total;
    }

    /** Bytes that only a reader pinning a commit point before {@code minPinned} holds back. */
    long bytesPinned(long minPinnedCommit) {
        long total = 0;
        for (Group g : all()) {
            if (g.commit > minPinnedCommit) {
                total += g.bytes;
            }
        }
        return total;
    }

    /** Space of groups that the retention window (not a reader) still keeps: {bytes, commit of the newest such group or -1}. */
    long[] retainedByHistory(long now, long retentionMillis) {
        long bytes = 0;
        long newest = -1;
        for (Group g : all()) {
            if (now - g.commitTime < retentionMillis) {
                bytes += g.bytes;
                newest = g.commit;
            }
        }
        return new long[]{bytes, newest};
    }

    static ByteBuffer encodeAddresses(long[] addresses) {
        ByteBuffer b = ByteBuffer.allocate(8 * addresses.length);
        for (long a : addresses) {
            b.putLong(a);
        }
        return b.flip();
    }

    static long[] decodeAddresses(ByteBuffer b, Group g) {
        if (b.remaining() != 8L * g.count) {
            throw new CorruptRecordException(g.record, "deferred-free list of commit " + g.commit + " has "
                    + b.remaining() + " bytes, expected " + 8L * g.count);
        }
        long[] a = new long[g.count];
        b.asLongBuffer().get(a);
        return a;
    }

    static ByteBuffer encodeSegment(List<Group> groups) {
        ByteBuffer b = ByteBuffer.allocate(4 + DESCRIPTOR_BYTES * groups.size());
        b.putInt(groups.size());
        groups.forEach(g -> g.encode(b));
        return b.flip();
    }

    static List<Group> decodeSegment(ByteBuffer b, long address) {
        try {
            int n = b.getInt();
            List<Group> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(Group.decode(b));
            }
            return out;
        } catch (java.nio.BufferUnderflowException | IllegalArgumentException e) {
            throw new CorruptRecordException(address, "deferred-free segment is truncated");
        }
    }
}
