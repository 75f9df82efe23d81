package dev.basalt.optimizer.exec;

import java.util.ArrayDeque;
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
 * <p>How a chunk runs: the evaluating thread streams the chunk that is next in order when nobody
 * has taken it; a chunk taken ahead of its turn (by the helper, or by the evaluating thread while
 * it waits for the helper) is run into a buffer, at most {@value #BUFFER_ROWS} rows: past that the
 * rest of its rows wait for the evaluating thread, which streams them in turn. So memory stays
 * bounded however large a row's fan-out, and LIMIT stops the work within a few chunks.
 *
 * <p>The first chunk is small ({@value #FIRST_CHUNK} rows) so a short input never waits for a
 * hand-over; the helper is offered work when a chunk beyond the one being streamed is waiting.
 * Without parallel evaluation ({@link ExecContext#parallelAllowed}: EXPLAIN's counts, a
 * transaction's own changes, no idle core) every chunk is streamed by the evaluating thread, in
 * order, and the operator costs one body open per chunk over the plain chain.
 */
public final class ParallelJoin extends Operator {
    static final int FIRST_CHUNK = 16;
    static final int CHUNK = 64;
    /** Estimated input rows below which {@link #over} leaves a chain sequential. */
    static final int MIN_INPUT_ROWS = ExecLimits.PARALLEL_MIN_ROWS;
    static final int BUFFER_ROWS = 16_384;
    /** Chunks read ahead of the one being emitted. */
    private static final int LOOKAHEAD = 8;
    /** How long a helper out of chunks waits for the evaluating thread to read more before it leaves. */
    private static final long LINGER_NANOS = 50_000;
    /** How long the evaluating thread spins for a chunk a helper is running before it sleeps. */
    private static final long AWAIT_SPIN_NANOS = 500_000;

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
        return new Cursor(in, ctx, input.open(in, ctx));
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
            Slice s = (Slice) ctx.takeFeed(this);
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

    /** Input rows of one chunk and, once run, what they produced. */
    private static final class Chunk {
        final long[][] rows;
        final int count;
        // claimed: under the cursor's lock; the rest written by the claimant before done
        boolean claimed;
        List<long[]> out;
        int processed;
        Throwable error;
        private volatile boolean done;

        Chunk(long[][] rows, int count) {
            this.rows = rows;
            this.count = count;
        }

        void finish() {
            done = true;
            synchronized (this) {
                notifyAll();
            }
        }

        boolean isDone() {
            return done;
        }

        /** Waits for the helper to finish this chunk: spins a while (it is running), then sleeps. */
        void await() {
            long until = System.nanoTime() + AWAIT_SPIN_NANOS;
            while (!done && System.nanoTime() - until < 0) {
                Thread.onSpinWait();
            }
            waitUntil(this, () -> done);
        }
    }

    /** Rows {@code from} to a chunk's end as the body's input; stops early when a buffer is full or the cursor closed. */
    private static final class Slice {
        final Chunk chunk;
        final List<long[]> out;
        final Cursor owner;
        int pos;

        Slice(Chunk chunk, int from, List<long[]> out, Cursor owner) {
            this.chunk = chunk;
            this.pos = from;
            this.out = out;
            this.owner = owner;
        }

        long[] next() {
            if (pos >= chunk.count || owner.closed || out != null && out.size() >= BUFFER_ROWS) {
                return null;
            }
            return chunk.rows[pos++];
        }
    }

    private final class Cursor implements RowCursor {
        private final long[] in;
        private final ExecContext ctx;
        private final RowCursor source;
        /** Chunks read from the input and not yet emitted, in order; guarded by this. */
        private final ArrayDeque<Chunk> ahead = new ArrayDeque<>();
        /** Written by the evaluating thread only. */
        private volatile boolean sourceDone;
        /** Chunks added so far, for a helper waiting for more. */
        private volatile int added;
        private int chunkRows = FIRST_CHUNK;
        private ExecContext helperContext;
        // guarded by this
        private boolean helperActive;
        private volatile boolean closed;
        /** The chunk being emitted: streamed, or from its buffer and then streamed from where it stopped. */
        private Chunk current;
        private RowCursor streaming;
        private List<long[]> buffer;
        private int bufferPos;

        Cursor(long[] in, ExecContext ctx, RowCursor source) {
            this.in = in;
            this.ctx = ctx;
            this.source = source;
        }

        @Override
        public long[] next() {
            while (true) {
                if (streaming != null) {
                    long[] r = streaming.next();
                    if (r != null) {
                        return r;
                    }
                    streaming.close();
                    streaming = null;
                    current = null;
                } else if (buffer != null) {
                    if (bufferPos < buffer.size()) {
                        return buffer.get(bufferPos++);
                    }
                    buffer = null;
                    if (current.processed < current.count) {
                        streaming = stream(current, current.processed);
                    } else {
                        current = null;
                    }
                } else if (!advance()) {
                    return null;
                }
            }
        }

        /** Makes the next chunk current: streams it, or takes its buffer; false at the end. */
        private boolean advance() {
            fillAhead();
            Chunk head;
            boolean mine;
            synchronized (this) {
                head = ahead.pollFirst();
                if (head == null) {
                    return false;
                }
                mine = !head.claimed;
                head.claimed = true;
            }
            current = head;
            if (mine) {
                streaming = stream(head, 0);
                offerHelper();
                return true;
            }
            // taken ahead of its turn; while the helper runs it, run a later chunk here
            while (!head.isDone()) {
                Chunk other = claimNext();
                if (other == null) {
                    head.await();
                    break;
                }
                runBuffered(other, ctx);
            }
            if (head.error != null) {
                throw rethrow(head.error);
            }
            buffer = head.out;
            bufferPos = 0;
            return true;
        }

        /** Reads input rows into chunks until {@link #LOOKAHEAD} wait behind the current one. */
        private void fillAhead() {
            while (!sourceDone) {
                synchronized (this) {
                    if (ahead.size() >= LOOKAHEAD) {
                        return;
                    }
                }
                long[][] rs = new long[chunkRows][];
                int n = 0;
                long[] r;
                while (n < rs.length && (r = source.next()) != null) {
                    rs[n++] = r;
                }
                ctx.checkCancelled();
                chunkRows = CHUNK;
                if (n > 0) {
                    synchronized (this) {
                        ahead.addLast(new Chunk(rs, n));
                    }
                    added++;
                }
                sourceDone = n < rs.length;
            }
        }

        /** The next unclaimed chunk, waiting a moment for one (a hand-over to a parked thread costs more). */
        private Chunk claimNextWaiting() {
            while (true) {
                int seen = added;
                Chunk c = claimNext();
                if (c != null) {
                    return c;
                }
                long until = System.nanoTime() + LINGER_NANOS;
                // spin on volatile fields only: the evaluating thread takes the lock to add chunks
                while (added == seen) {
                    if (closed || sourceDone || System.nanoTime() - until > 0) {
                        return null;
                    }
                    Thread.onSpinWait();
                }
            }
        }

        private synchronized Chunk claimNext() {
            for (Chunk c : ahead) {
                if (!c.claimed) {
                    c.claimed = true;
                    return c;
                }
            }
            return null;
        }

        /** Gives the chunks waiting behind the current one to a helper thread if one is idle. */
        private void offerHelper() {
            if (!ctx.parallelAllowed()) {
                return;
            }
            synchronized (this) {
                if (helperActive || closed || ahead.stream().allMatch(c -> c.claimed)) {
                    return;
                }
                if (!ctx.takeHelper()) {
                    return;
                }
                if (helperContext == null) {
                    helperContext = ctx.fork();
                }
                helperActive = true;
            }
            if (!HelperThreads.offer(this::help)) {
                synchronized (this) {
                    helperActive = false;
                    ctx.releaseHelper();
                    notifyAll();
                }
            }
        }

        /** The helper's loop: runs waiting chunks into their buffers until none is left. */
        private void help() {
            try {
                Chunk c;
                while (!closed && (c = claimNextWaiting()) != null) {
                    runBuffered(c, helperContext);
                }
            } finally {
                synchronized (this) {
                    helperActive = false;
                    ctx.releaseHelper();
                    notifyAll();
                }
            }
        }

        private void runBuffered(Chunk c, ExecContext on) {
            List<long[]> out = new ArrayList<>();
            Slice slice = new Slice(c, 0, out, this);
            try (RowCursor body = openBody(slice, on)) {
                long[] r;
                while ((r = body.next()) != null) {
                    out.add(r);
                }
            } catch (Throwable t) {
                c.error = t;
            } finally {
                c.out = out;
                c.processed = slice.pos;
                c.finish();
            }
        }

        private RowCursor openBody(Slice slice, ExecContext on) {
            on.offerFeed(rows, slice);
            return body.open(in, on);
        }

        private RowCursor stream(Chunk c, int from) {
            return openBody(new Slice(c, from, null, this), ctx);
        }

        @Override
        public void close() {
            closed = true;
            try {
                if (streaming != null) {
                    streaming.close();
                    streaming = null;
                }
                source.close();
            } finally {
                // a helper still reading must be done before the query lets go of its snapshot
                waitUntil(this, () -> !helperActive);
            }
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
