package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Sorts rows (all of one width) under a row budget: rows are buffered until the budget is reached,
 * then the buffer is sorted and written to a {@link SpillFile} as a run; {@link #sorted()} merges
 * the runs (and the last buffer) with a heap. With no run written everything stays in memory.
 * Comparisons call {@link ExecContext#checkCancelled()} every {@value #CHECK_EVERY} calls, so a
 * large sort stops promptly when the query is closed or times out. The sort is stable for rows
 * added between two spills; callers that need a total order give a total comparator.
 * Not thread-safe: owned by one operator open and used by the thread that runs it.
 */
final class ExternalSorter implements AutoCloseable {
    private static final int CHECK_EVERY = 4096;
    private final Comparator<long[]> comparator;
    private final long budget;
    private final ExecContext ctx;
    private final String purpose;
    private final List<SpillFile> runs = new ArrayList<>();
    private final List<SpillFile.Reader> readers = new ArrayList<>();
    private List<long[]> buffer = new ArrayList<>();
    private long spilledRows;
    private boolean closed;

    ExternalSorter(Comparator<long[]> comparator, long budget, ExecContext ctx, String purpose) {
        this.ctx = ctx;
        this.budget = budget;
        this.purpose = purpose;
        this.comparator = cancellable(comparator, ctx);
    }

    /** The comparator, checking for cancellation every {@value #CHECK_EVERY} comparisons. */
    static Comparator<long[]> cancellable(Comparator<long[]> comparator, ExecContext ctx) {
        int[] calls = { 0 };
        return (a, b) -> {
            if (++calls[0] % CHECK_EVERY == 0) {
                ctx.checkCancelled();
            }
            return comparator.compare(a, b);
        };
    }

    void add(long[] row) {
        buffer.add(row);
        if (buffer.size() >= budget) {
            spill();
        }
    }

    /** Rows written to disk so far (0 if the sort stayed in memory). */
    long spilledRows() {
        return spilledRows;
    }

    int runs() {
        return runs.size();
    }

    private synchronized void spill() {
        if (closed) {
            ctx.checkCancelled();
            throw new IllegalStateException("sort used after close");
        }
        buffer.sort(comparator);
        SpillFile run = SpillFile.create(ctx.limits(), purpose, buffer.get(0).length);
        runs.add(run);
        int n = 0;
        for (long[] r : buffer) {
            if (++n % CHECK_EVERY == 0) {
                ctx.checkCancelled();
            }
            run.write(r);
        }
        run.finish();
        spilledRows += buffer.size();
        buffer = new ArrayList<>();
    }

    /** All added rows in order; call once, after the last {@link #add}. */
    synchronized RowCursor sorted() {
        if (closed) {
            ctx.checkCancelled();
            throw new IllegalStateException("sort used after close");
        }
        buffer.sort(comparator);
        if (runs.isEmpty()) {
            List<long[]> rows = buffer;
            buffer = null;
            return RowCursor.over(rows, this::close);
        }
        PriorityQueue<Source> heap = new PriorityQueue<>((a, b) -> comparator.compare(a.head, b.head));
        for (SpillFile run : runs) {
            SpillFile.Reader r = run.reader();
            readers.add(r);
            Source s = new Source(r::next);
            if (s.advance()) {
                heap.add(s);
            }
        }
        List<long[]> rest = buffer;
        buffer = null;
        int[] pos = { 0 };
        Source memory = new Source(() -> pos[0] < rest.size() ? rest.get(pos[0]++) : null);
        if (memory.advance()) {
            heap.add(memory);
        }
        return new RowCursor() {
            @Override
            public long[] next() {
                Source s = heap.poll();
                if (s == null) {
                    return null;
                }
                long[] row = s.head;
                if (s.advance()) {
                    heap.add(s);
                }
                return row;
            }

            @Override
            public void close() {
                ExternalSorter.this.close();
            }
        };
    }

    @Override
    public synchronized void close() {
        closed = true;
        buffer = null;
        for (SpillFile.Reader r : readers) {
            r.close();
        }
        for (SpillFile f : runs) {
            f.close();
        }
        readers.clear();
        runs.clear();
    }

    private interface RowSupplier {
        long[] next();
    }

    private static final class Source {
        final RowSupplier rows;
        long[] head;

        Source(RowSupplier rows) {
            this.rows = rows;
        }

        boolean advance() {
            head = rows.next();
            return head != null;
        }
    }
}
