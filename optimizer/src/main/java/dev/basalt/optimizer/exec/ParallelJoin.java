package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

import org.eclipse.rdf4j.query.QueryInterruptedException;

/**
 * A group's chain of index lookups and filters over a large first operand, split into chunks of
 * that operand's rows which the evaluating thread and an idle helper thread ({@link HelperThreads})
 * run side by side. Built by {@link #over} from a left-deep chain of {@link PipelineJoin}s,
 * {@link PatternHashJoin}s (whose table all chunks share) and thread-safe {@link FilterOp}s: the chain's bottom operand becomes the {@code input}, read by the
 * evaluating thread only, and the chain above it becomes the {@code body}, opened once per chunk
 * over that chunk's rows ({@link ChunkRows}). Output keeps the order of the sequential chain.
 *
 * <p>How the chunks run is the cursors' part: {@link ParallelRows} for rows, {@link ParallelBatches}
 * for batches (a chunk is then a batch of the input), each keeping the order of the sequential chain,
 * buffering a chunk run ahead of its turn up to {@value #BUFFER_ROWS} rows, and waiting for its helper
 * on close. The first row chunk is small ({@value #FIRST_CHUNK} rows) so a short input never waits for
 * a hand-over. Without parallel evaluation ({@link ExecContext#parallelAllowed}: EXPLAIN's counts, a
 * transaction's own changes, no idle core) every chunk is streamed by the evaluating thread, in
 * order, and the operator costs one body open per chunk over the plain chain.
 *
 * <p>Thread rules: as every {@link Operator}'s, opened by concurrent evaluations each with its own
 * context; a cursor's rules are its class's.
 */
public final class ParallelJoin extends Operator {
    static final int FIRST_CHUNK = 16;
    static final int CHUNK = 64;
    /** Estimated input rows below which {@link #over} leaves a chain sequential. */
    static final int MIN_INPUT_ROWS = ExecLimits.PARALLEL_MIN_ROWS;
    static final int BUFFER_ROWS = 16_384;

    /** Input rows per chunk of the batch form ({@link ParallelBatches}) under {@link ParallelMode#FORCE}. */
    static final int FORCED_CHUNK_ROWS = 16;

    private final Operator input;
    private final ChunkRows rows;
    private final Operator body;
    /** Input rows per chunk of the batch form: a batch, or {@link #FORCED_CHUNK_ROWS} when forced. */
    private final int batchChunkRows;

    private ParallelJoin(Operator input, ChunkRows rows, Operator body, int batchChunkRows) {
        this.input = input;
        this.rows = rows;
        this.body = body;
        this.batchChunkRows = batchChunkRows;
    }

    /**
     * {@code chain} with its lookups run by chunks if it is a left-deep chain of pipeline joins and
     * thread-safe filters and {@code mode} allows: under {@link ParallelMode#AUTO} over an operand
     * estimated at {@link #MIN_INPUT_ROWS} rows or more, under {@link ParallelMode#FORCE} whatever its
     * estimate; else (and always under {@link ParallelMode#OFF}) {@code chain} itself.
     */
    public static Operator over(Operator chain, ParallelMode mode) {
        if (mode == ParallelMode.OFF) {
            return chain;
        }
        boolean forced = mode == ParallelMode.FORCE;
        List<Operator> spine = new ArrayList<>();
        boolean joins = false;
        Operator bottom = chain;
        while (true) {
            if (bottom instanceof PipelineJoin pj) {
                joins = true;
                spine.add(pj);
                bottom = pj.left();
            } else if (bottom instanceof PatternHashJoin hj) {
                joins = true;
                spine.add(hj);
                bottom = hj.left();
            } else if (bottom instanceof FilterOp f && f.condition().threadSafe()) {
                spine.add(f);
                bottom = f.input();
            } else {
                break;
            }
        }
        if (!joins || !forced && bottom.estimate() < MIN_INPUT_ROWS) {
            return chain;
        }
        double per = Math.max(bottom.estimate(), 1);
        ChunkRows leaf = new ChunkRows();
        leaf.setEstimate(1);
        Operator body = leaf;
        for (int i = spine.size() - 1; i >= 0; i--) {
            Operator s = spine.get(i);
            body = s instanceof PipelineJoin pj ? new PipelineJoin(body, pj.right())
                    : s instanceof PatternHashJoin hj ? new PatternHashJoin(body, hj.right(), hj.keySlots(), hj.reason())
                    : new FilterOp(body, ((FilterOp) s).condition());
            body.setEstimate(s.estimate() / per);
        }
        ParallelJoin op = new ParallelJoin(bottom, leaf, body, forced ? FORCED_CHUNK_ROWS : Batch.CAPACITY);
        op.setEstimate(chain.estimate());
        return op;
    }

    public Operator input() {
        return input;
    }

    public Operator body() {
        return body;
    }

    @Override
    public List<Operator> children() {
        return List.of(input, body);
    }

    @Override
    public String describe() {
        return "ParallelJoin chunks of " + CHUNK
                + (batchable() ? " (of " + batchChunkRows + " when a GROUP BY reads batches)" : "");
    }

    @Override
    protected RowCursor doOpen(long[] in, ExecContext ctx) {
        if (ctx.parallelAllowed()) {
            // the first chunk is read and run before a helper is offered one: time to wake it up
            HelperThreads.wake();
        }
        return new ParallelRows(rows, body, in, ctx, input.open(in, ctx));
    }

    @Override
    public boolean batchable() {
        return input.batchable() && body.batchable();
    }

    /**
     * The batch form: with helper threads, {@link ParallelBatches}; else, in the evaluating thread,
     * the body opened once per batch of the input (a batch is a chunk) and its batches passed on.
     */
    @Override
    protected BatchCursor doOpenBatch(long[] in, ExecContext ctx) {
        BatchCursor source = input.openBatch(in, ctx);
        if (ctx.parallelAllowed() && ctx.limits().helperThreads() > 0) {
            HelperThreads.wake();
            return new ParallelBatches(rows, body, in, ctx, source, batchChunkRows);
        }
        return new BatchCursor() {
            BatchCursor chunk;
            boolean done;

            @Override
            public Batch next() {
                while (!done) {
                    if (chunk != null) {
                        Batch b = chunk.next();
                        if (b != null) {
                            return b;
                        }
                        chunk.close();
                        chunk = null;
                    }
                    Batch rows = source.next();
                    if (rows == null) {
                        done = true;
                        break;
                    }
                    ctx.checkCancelled();
                    ctx.offerFeed(ParallelJoin.this.rows, rows);
                    chunk = body.openBatch(in, ctx);
                }
                return null;
            }

            @Override
            public void close() {
                done = true;
                if (chunk != null) {
                    chunk.close();
                    chunk = null;
                }
                source.close();
            }
        };
    }

    /** The body's first operand: the rows of the chunk the body was opened for. */
    static final class ChunkRows extends Operator {
        @Override
        public boolean batchable() {
            return true;
        }

        @Override
        protected BatchCursor doOpenBatch(long[] input, ExecContext ctx) {
            Batch rows = (Batch) ctx.takeFeed(this);
            return new BatchCursor() {
                boolean given;

                @Override
                public Batch next() {
                    if (given) {
                        return null;
                    }
                    given = true;
                    return rows;
                }

                @Override
                public void close() {
                }
            };
        }

        @Override
        public List<Operator> children() {
            return List.of();
        }

        @Override
        public String describe() {
            return "ChunkRows";
        }

        @Override
        protected RowCursor doOpen(long[] input, ExecContext ctx) {
            ParallelRows.Slice s = (ParallelRows.Slice) ctx.takeFeed(this);
            return new RowCursor() {
                @Override
                public long[] next() {
                    return s.next();
                }

                @Override
                public void close() {
                }
            };
        }
    }

    /**
     * Waits on {@code monitor} until {@code condition} (read under it) holds; an interrupt does not
     * end the wait, which is short, and is kept for the caller.
     */
    static void waitUntil(Object monitor, BooleanSupplier condition) {
        boolean interrupted = false;
        synchronized (monitor) {
            while (!condition.getAsBoolean()) {
                try {
                    monitor.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            return e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new QueryInterruptedException("a helper thread of the query failed", t);
    }
}
