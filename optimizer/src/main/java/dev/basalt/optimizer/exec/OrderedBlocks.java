package dev.basalt.optimizer.exec;

import dev.basalt.optimizer.access.QuadSource;

/**
 * One input of a block merge ({@link MergeBlocks}): the matches of an ordered scan
 * ({@link QuadSource.OrderedScan}) read a block at a time into a buffer of quads (S, P, O, C, four
 * ids each), with a cursor {@link #at} on the current match. Skipping forward to a key searches the
 * buffer; when the buffer's rest lies below the key, the next block is read, and if that one lies
 * below it too the scan seeks (an index descent that skips the gap). The key is the id at
 * {@link #position}, in ascending unsigned order.
 * Not thread-safe: belongs to one cursor, used by one thread.
 */
final class OrderedBlocks implements AutoCloseable {
    /** Matches read per block. */
    static final int BLOCK = 1024;
    private final QuadSource.OrderedScan scan;
    private final int position;
    private final long[] first = new long[4];
    /** Matches of the current block, four ids each. */
    final long[] quads = new long[4 * BLOCK];
    /** Matches in {@link #quads}. */
    private int size;
    /** The current match's index in the block. */
    int at;
    private boolean end;
    /** Blocks read and seeks made, for tests. */
    private long blocks;
    private long seeks;

    OrderedBlocks(QuadSource.OrderedScan scan, int position) {
        this.scan = scan;
        this.position = position;
        read();
    }

    /** True while there is a current match. */
    boolean valid() {
        return at < size;
    }

    /** The current match's key. */
    long key() {
        return quads[4 * at + position];
    }

    /** Moves to the next match (reading the next block at the end of this one). */
    void advance() {
        if (++at >= size && !end) {
            read();
        }
    }

    /** Moves to the first match whose key is at least {@code min} (unsigned); false at the end. */
    boolean skipTo(long min) {
        boolean read = false;
        while (true) {
            if (at < size && Long.compareUnsigned(quads[4 * (size - 1) + position], min) >= 0) {
                at = lowerBound(min);
                return true;
            }
            if (end) {
                at = size;
                return false;
            }
            if (!read) {
                // the key is most often in the next block: a read costs less than a descent
                read = true;
                read();
            } else {
                seek(min);
            }
        }
    }

    private void read() {
        size = scan.nextBlock(quads, BLOCK);
        at = 0;
        blocks++;
        end = size == 0;
    }

    private void seek(long min) {
        seeks++;
        at = 0;
        if (!scan.seek(min, first)) {
            size = 0;
            end = true;
            return;
        }
        // the match the seek found is the block; the next advance reads on from it
        System.arraycopy(first, 0, quads, 0, 4);
        size = 1;
    }

    /** The first index from {@link #at} whose key is at least {@code min}; the last key is at least it. */
    private int lowerBound(long min) {
        int lo = at;
        int hi = size - 1;
        // gallop: the key is usually near
        int step = 1;
        while (lo + step < hi && Long.compareUnsigned(quads[4 * (lo + step) + position], min) < 0) {
            lo += step;
            step <<= 1;
        }
        hi = Math.min(hi, lo + step);
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(quads[4 * mid + position], min) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    long blocks() {
        return blocks;
    }

    long seeks() {
        return seeks;
    }

    @Override
    public void close() {
        end = true;
        size = 0;
        at = 0;
        scan.close();
    }
}
