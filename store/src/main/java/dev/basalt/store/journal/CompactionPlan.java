package dev.basalt.store.journal;

import java.util.Arrays;

/**
 * What an online compaction empties: everything at or above {@code target} (where the file is to
 * end) and the sparse regions below it, listed as {@code [starts[i], ends[i])} in ascending order.
 * While a plan is set the allocator takes no slot from these ranges, so every record moved or
 * written meanwhile lands in the dense part of the file (or, when that is full, in regions added
 * past {@code fileEnd}, the file's end when the plan was made, which a later round moves again);
 * once the ranges hold nothing, the regions in them become free extents and the tail is cut off.
 * Immutable; safe to share between threads.
 */
public record CompactionPlan(long target, long fileEnd, long[] starts, long[] ends) {
    public CompactionPlan {
        starts = starts.clone();
        ends = ends.clone();
    }

    /** True if the record at {@code address} is to be moved. */
    public boolean evacuates(long address) {
        return evacuatesOffset(Addresses.offset(address));
    }

    boolean evacuatesOffset(long offset) {
        if (offset >= target) {
            return true;
        }
        int i = Arrays.binarySearch(starts, offset);
        if (i >= 0) {
            return true;
        }
        int before = -i - 2;
        return before >= 0 && offset < ends[before];
    }

    /** Bytes of the sparse regions below the target. */
    public long sparseBytes() {
        long total = 0;
        for (int i = 0; i < starts.length; i++) {
            total += ends[i] - starts[i];
        }
        return total;
    }
}
