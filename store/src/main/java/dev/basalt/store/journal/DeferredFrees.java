package dev.basalt.store.journal;

import dev.basalt.store.io.LongArray;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Records freed by committed transactions that older commit points may still read. A group holds
 * what commit {@code F} freed: those records are part of commit points before {@code F}, so they
 * may be released once no reader pins a commit point before {@code F} and the history retention
 * has passed since {@code F} was committed. Groups are kept in commit order.
 */
final class DeferredFrees {
    record Group(long commit, long commitTime, long[] addresses, long bytes) {
    }

    private final Deque<Group> groups = new ArrayDeque<>();

    void add(long commit, long commitTime, LongArray addresses) {
        if (addresses.isEmpty()) {
            return;
        }
        long[] a = addresses.toArray();
        long bytes = 0;
        for (long x : a) {
            bytes += Addresses.span(x);
        }
        groups.addLast(new Group(commit, commitTime, a, bytes));
    }

    void add(Group g) {
        groups.addLast(g);
    }

    Iterable<Group> groups() {
        return groups;
    }

    int groupCount() {
        return groups.size();
    }

    /** The oldest group if it may be released now, else null. */
    Group pollReleasable(long minPinnedCommit, long now, long retentionMillis) {
        Group g = groups.peekFirst();
        if (g == null || g.commit > minPinnedCommit || now - g.commitTime < retentionMillis) {
            return null;
        }
        return groups.pollFirst();
    }

    long bytes() {
        long total = 0;
        for (Group g : groups) {
            total += g.bytes;
        }
        return total;
    }

    /** Bytes that only a reader pinning a commit point before {@code minPinned} holds back. */
    long bytesPinned(long minPinnedCommit) {
        long total = 0;
        for (Group g : groups) {
            if (g.commit > minPinnedCommit) {
                total += g.bytes;
            }
        }
        return total;
    }
}
