package dev.basalt.store.btree;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Which records the writer's current transaction wrote and which committed records it no longer
 * needs.
 *
 * <p>A record written in this transaction (an evicted dirty page, a large value) and released
 * again before the checkpoint is freed at once, so the store can reuse the space immediately. A
 * record of the last checkpoint is freed only at the next {@link #commit}: until then the last
 * checkpoint must stay readable, for {@link #abandon} and for stores that free at once. The store
 * itself further defers committed frees while readers can see them. Writer thread only.
 */
final class RecordLedger {
    private final PageIO io;
    private final Set<AddressKey> writtenThisTransaction = new HashSet<>();
    private long[] released = new long[64];
    private int releasedCount;

    RecordLedger(PageIO io) {
        this.io = io;
    }

    void written(long address) {
        writtenThisTransaction.add(new AddressKey(address));
    }

    /** The tree no longer references {@code address}. */
    void release(long address) {
        if (writtenThisTransaction.remove(new AddressKey(address))) {
            io.free(address);
        } else {
            if (releasedCount == released.length) {
                released = Arrays.copyOf(released, releasedCount * 2);
            }
            released[releasedCount++] = address;
        }
    }

    /** The transaction's records are now part of the checkpoint; frees what the last one used and this one does not. */
    void commit() {
        for (int i = 0; i < releasedCount; i++) {
            io.free(released[i]);
        }
        releasedCount = 0;
        writtenThisTransaction.clear();
    }

    /** Frees everything this transaction wrote; the last checkpoint's records are kept. */
    void abandon() {
        for (AddressKey written : writtenThisTransaction) {
            io.free(written.address());
        }
        writtenThisTransaction.clear();
        releasedCount = 0;
    }

    int writtenCount() {
        return writtenThisTransaction.size();
    }
}
