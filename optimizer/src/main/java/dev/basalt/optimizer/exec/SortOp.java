package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * ORDER BY: yields its input's rows in the {@link RowOrder}'s order. The input is read in batches
 * of {@value #BATCH} rows, each {@link RowOrder#prepare prepared} at once (computed keys, values
 * materialized together). With a bound {@code keep} (LIMIT + OFFSET of a slice directly above) of
 * at most the sort budget, only the first {@code keep} rows are kept in a bounded heap (top-k);
 * otherwise rows go to an {@link ExternalSorter}, which spills sorted runs to disk beyond
 * {@link ExecLimits#sortRows()} rows and merges them. The whole input is read on the first
 * {@code next()}; cancellation is checked per batch and during sorting.
 * Thread-safe like every operator (fields fixed at construction, each open's state in its cursor);
 * the spill figures EXPLAIN shows are {@link LongAdder}s that concurrent evaluations of a kept plan
 * add to.
 */
public final class SortOp extends Operator {
    private static final int BATCH = 256;
    private final Operator input;
    private final RowOrder order;
    private final long keep;
    private final LongAdder spilledRows = new LongAdder();
    private final LongAdder runs = new LongAdder();

    /** @param keep rows the consumer needs at most (LIMIT + OFFSET), or -1 for all */
    public SortOp(Operator input, RowOrder order, long keep) {
        this.input = input;
        this.order = order;
        this.keep = keep;
    }

    public boolean isTopK(ExecLimits limits) {
        return keep >= 0 && keep <= limits.sortRows();
    }

    @Override
    public List<Operator> children() {
        return List.of(input);
    }

    @Override
    public String describe() {
        return "Sort " + order.describe() + (keep >= 0 ? " top " + keep : "")
                + (runs.sum() > 0 ? " (spilled " + spilledRows.sum() + " rows in " + runs.sum() + " runs)" : "");
    }

    @Override
    protected RowCursor doOpen(long[] row, ExecContext ctx) {
        return new RowCursor() {
            RowCursor sorted;
            boolean closed;

            @Override
            public long[] next() {
                if (sorted == null) {
                    if (closed) {
                        return null;
                    }
                    sorted = isTopK(ctx.limits()) ? topK(row, ctx) : external(row, ctx);
                }
                long[] r = sorted.next();
                return r == null ? null : order.strip(r);
            }

            @Override
            public void close() {
                closed = true;
                if (sorted != null) {
                    sorted.close();
                }
            }
        };
    }

    private RowCursor external(long[] row, ExecContext ctx) {
        ExternalSorter sorter = new ExternalSorter((a, b) -> order.compare(a, b, ctx), ctx.limits().sortRows(), ctx, "sort");
        try {
            readAll(row, ctx, true, sorter::add);
            RowCursor out = sorter.sorted();
            spilledRows.add(sorter.spilledRows());
            runs.add(sorter.runs());
            return out;
        } catch (RuntimeException e) {
            sorter.close();
            throw e;
        }
    }

    private RowCursor topK(long[] row, ExecContext ctx) {
        int k = (int) keep;
        if (k == 0) {
            return RowCursor.EMPTY;
        }
        // the heap's head is the largest row kept, the first to go when a smaller one arrives
        PriorityQueue<long[]> heap = new PriorityQueue<>(Math.min(k, 1024) + 1, (a, b) -> order.compare(b, a, ctx));
        readAll(row, ctx, false, r -> {
            if (heap.size() < k) {
                heap.add(r);
            } else if (order.compare(r, heap.peek(), ctx) < 0) {
                heap.poll();
                heap.add(r);
            }
        });
        List<long[]> rows = new ArrayList<>(heap);
        rows.sort(ExternalSorter.cancellable((a, b) -> order.compare(a, b, ctx), ctx));
        ctx.checkCancelled();
        return RowCursor.over(rows, rows::clear);
    }

    private interface Sink {
        void add(long[] row);
    }

    /** Reads the input, each batch prepared ({@code materialize}: with its values, for a full sort's many comparisons). */
    private void readAll(long[] row, ExecContext ctx, boolean materialize, Sink sink) {
        try (RowCursor in = input.open(row, ctx)) {
            List<long[]> batch = new ArrayList<>(BATCH);
            boolean done = false;
            while (!done) {
                batch.clear();
                long[] r;
                while (batch.size() < BATCH && (r = in.next()) != null) {
                    batch.add(r);
                }
                done = batch.size() < BATCH;
                ctx.checkCancelled();
                List<long[]> view = Collections.unmodifiableList(batch);
                for (long[] p : materialize ? order.prepare(view, ctx) : order.prepareForFewComparisons(view, ctx)) {
                    sink.add(p);
                }
            }
        }
    }
}
