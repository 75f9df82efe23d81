package dev.basalt.optimizer.exec;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * The DISTINCT stream of {@link DistinctOp} under a memory bound: the first row of each key
 * (the ids in the key slots) passes, in input order. Up to {@link ExecLimits#distinctRows()} keys
 * are kept in a hash set and rows stream through. Past that, the keys seen so far are written to
 * {@value #PARTITIONS} hash partitions on disk as markers, and every further row (numbered) goes to
 * its key's partition; at the end of the input each partition is deduplicated on its own (its
 * markers first, so rows already emitted stay out) and the surviving rows are put back into input
 * order by their numbers with an {@link ExternalSorter}. A partition's distinct keys are held in
 * memory while it is processed (about 1/{@value #PARTITIONS} of the keys past the bound).
 * Not thread-safe: owned by one operator open and used by the thread that runs it.
 */
final class DistinctCursor implements RowCursor {
    private static final int PARTITIONS = 32;
    private static final int CHECK_EVERY = 1024;
    private static final long MARKER = -1;
    private final RowCursor in;
    private final int[] slots;
    private final ExecContext ctx;
    private Set<RowKey> seen = new HashSet<>();
    private SpillFile[] partitions;
    private ExternalSorter sorter;
    private RowCursor drained;
    private long seq;
    private long spilled;

    DistinctCursor(RowCursor in, int[] slots, ExecContext ctx) {
        this.in = in;
        this.slots = slots;
        this.ctx = ctx;
    }

    /** Rows written to partitions (0 while everything fits in memory). */
    long spilledRows() {
        return spilled;
    }

    @Override
    public long[] next() {
        if (drained != null) {
            long[] r = drained.next();
            return r == null ? null : Arrays.copyOfRange(r, 1, r.length);
        }
        long[] r;
        while ((r = in.next()) != null) {
            if (++seq % CHECK_EVERY == 0) {
                ctx.checkCancelled();
            }
            if (partitions == null) {
                if (seen.add(RowKey.solution(r, slots))) {
                    if (seen.size() > ctx.limits().distinctRows()) {
                        startSpilling(r.length);
                    }
                    return r;
                }
            } else {
                write(seq, r);
            }
        }
        if (partitions == null) {
            return null;
        }
        drained = drain();
        return next();
    }

    private void startSpilling(int width) {
        partitions = new SpillFile[PARTITIONS];
        for (int i = 0; i < PARTITIONS; i++) {
            partitions[i] = SpillFile.create(ctx.limits(), "distinct", width + 1);
        }
        long[] marker = new long[width];
        for (RowKey k : seen) {
            for (int i = 0; i < slots.length; i++) {
                marker[slots[i]] = k.ids[i];
            }
            write(MARKER, marker);
        }
        seen = null;
    }

    private void write(long number, long[] row) {
        long[] r = new long[row.length + 1];
        r[0] = number;
        System.arraycopy(row, 0, r, 1, row.length);
        int h = RowKey.solution(row, slots).hash;
        partitions[((h ^ (h >>> 16)) & 0x7fffffff) % PARTITIONS].write(r);
        spilled++;
    }

    private RowCursor drain() {
        sorter = new ExternalSorter((a, b) -> Long.compare(a[0], b[0]), ctx.limits().sortRows(), ctx, "distinct-order");
        int[] shifted = Arrays.stream(slots).map(s -> s + 1).toArray();
        for (SpillFile p : partitions) {
            p.finish();
            Set<RowKey> keys = new HashSet<>();
            try (SpillFile.Reader reader = p.reader()) {
                long[] r;
                long n = 0;
                while ((r = reader.next()) != null) {
                    if (++n % CHECK_EVERY == 0) {
                        ctx.checkCancelled();
                    }
                    boolean fresh = keys.add(RowKey.solution(r, shifted));
                    if (fresh && r[0] != MARKER) {
                        sorter.add(r);
                    }
                }
            }
            p.close();
        }
        return sorter.sorted();
    }

    @Override
    public void close() {
        in.close();
        if (partitions != null) {
            for (SpillFile p : partitions) {
                p.close();
            }
        }
        if (drained != null) {
            drained.close();
        } else if (sorter != null) {
            sorter.close();
        }
    }

}
