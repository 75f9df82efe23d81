package dev.basalt.optimizer.exec;

import java.util.List;
import java.util.Locale;

/**
 * A physical operator of a Basalt plan. {@link #open} runs it for one input row (the bindings
 * already known: incoming bindings, or the left row of a correlated join) and yields that row
 * extended with the operator's bindings. Operators keep their estimated and actual row counts
 * and, when the context tracks time, the time spent in them (inclusive of their inputs), for
 * EXPLAIN. A plan may be opened many times (as the inner side of a join); counts accumulate.
 * An evaluation without statistics ({@link ExecContext#withoutStatistics}) leaves them alone.
 * Thread-safe for opens without statistics: a kept plan is opened by concurrent evaluations, each with
 * its own context, and the helper threads of a {@link ParallelJoin}, so subclasses keep each open's
 * state in its cursor or the context; the counts are plain fields, written only by an evaluation that
 * keeps statistics (EXPLAIN), which runs in one thread.
 *
 * <p>An operator whose {@link #batchable} is true also runs as {@link #openBatch}: the same rows, in
 * the same order, in {@link Batch}es of ids by column. A consumer that can take batches (GROUP BY and
 * the aggregates, {@link GroupOp}) asks for them when its whole input subtree can give them, and
 * reads rows one at a time otherwise.
 */
public abstract class Operator {
    private double estimate = -1;
    private long actualRows;
    private long nanos;
    private long opens;

    /** The operators this one reads from, for EXPLAIN. */
    public abstract List<Operator> children();

    /** One line naming the operator and its arguments, e.g. {@code PipelineJoin [?s :p ?o]}. */
    public abstract String describe();

    protected abstract RowCursor doOpen(long[] input, ExecContext ctx);

    /**
     * True if {@link #openBatch} works: this operator has a batch form and so do all the operators it
     * reads from. False by default.
     */
    public boolean batchable() {
        return false;
    }

    /** The batch form of {@link #doOpen}; only called when {@link #batchable} is true. */
    protected BatchCursor doOpenBatch(long[] input, ExecContext ctx) {
        throw new UnsupportedOperationException(describe() + " has no batch form");
    }

    /** The rows {@link #open} yields, in {@link Batch}es of the input row's width. */
    public final BatchCursor openBatch(long[] input, ExecContext ctx) {
        if (!ctx.statistics()) {
            return doOpenBatch(input, ctx);
        }
        opens++;
        BatchCursor c = doOpenBatch(input, ctx);
        boolean timed = ctx.trackTime();
        return new BatchCursor() {
            @Override
            public Batch next() {
                long t = timed ? System.nanoTime() : 0;
                Batch b = c.next();
                if (timed) {
                    nanos += System.nanoTime() - t;
                }
                if (b != null) {
                    actualRows += b.size;
                }
                return b;
            }

            @Override
            public void close() {
                c.close();
            }
        };
    }

    /** Adds opens and rows made without {@link #open} (a scan run by its join's batch lookups), for EXPLAIN. */
    final void count(long opened, long rows) {
        opens += opened;
        actualRows += rows;
    }

    public final RowCursor open(long[] input, ExecContext ctx) {
        if (!ctx.statistics()) {
            return doOpen(input, ctx);
        }
        opens++;
        RowCursor c = doOpen(input, ctx);
        return ctx.trackTime() ? new Timed(c) : new Counted(c);
    }

    public double estimate() {
        return estimate;
    }

    public void setEstimate(double estimate) {
        this.estimate = estimate;
    }

    public long actualRows() {
        return actualRows;
    }

    public long nanos() {
        return nanos;
    }

    /** Writes this operator and its inputs as an indented tree. */
    public void explain(StringBuilder out, int depth) {
        out.append("  ".repeat(depth)).append(describe());
        out.append(String.format(Locale.ROOT, "  (est %s, actual %d", estimate < 0 ? "?" : format(estimate), actualRows));
        if (opens > 1) {
            out.append(", opened ").append(opens).append('x');
        }
        if (nanos > 0) {
            out.append(String.format(Locale.ROOT, ", %.3f ms", nanos / 1e6));
        }
        out.append(")\n");
        for (Operator c : children()) {
            c.explain(out, depth + 1);
        }
    }

    private static String format(double d) {
        return d >= 100 || d == Math.rint(d) ? String.valueOf(Math.round(d)) : String.format(Locale.ROOT, "%.2f", d);
    }

    private class Counted implements RowCursor {
        final RowCursor in;

        Counted(RowCursor in) {
            this.in = in;
        }

        @Override
        public long[] next() {
            long[] r = in.next();
            if (r != null) {
                actualRows++;
            }
            return r;
        }

        @Override
        public void close() {
            in.close();
        }
    }

    private final class Timed extends Counted {
        Timed(RowCursor in) {
            super(in);
        }

        @Override
        public long[] next() {
            long t = System.nanoTime();
            try {
                return super.next();
            } finally {
                nanos += System.nanoTime() - t;
            }
        }
    }
}
