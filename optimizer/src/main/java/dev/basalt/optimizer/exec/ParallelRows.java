package dev.basalt.optimizer.exec;

import static dev.basalt.optimizer.exec.ParallelJoin.rethrow;
import static dev.basalt.optimizer.exec.ParallelJoin.waitUntil;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import dev.basalt.optimizer.exec.ParallelJoin.ChunkRows;

/**
 * The row form of a {@link ParallelJoin}: the input's rows are cut into chunks (the first of
 * {@link ParallelJoin#FIRST_CHUNK} rows, so a short input never waits for a hand-over, then
 * {@link ParallelJoin#CHUNK}), and the body runs over each chunk, opened with the chunk's rows as
 * its {@link ChunkRows} ({@link Slice}), in the evaluating thread or an idle helper
 * ({@link HelperThreads}). Output keeps the order of the sequential chain: the evaluating thread
 * streams the chunk that is next in order when nobody has taken it; a chunk taken ahead of its turn
 * (by the helper, or by the evaluating thread while it waits for the helper) is run into a buffer, at
 * most {@link ParallelJoin#BUFFER_ROWS} rows: past that the rest of its rows wait for the evaluating
 * thread, which streams them in turn. So memory stays bounded however large a row's fan-out, and LIMIT
 * stops the work within a few chunks. The helper is offered work when a chunk beyond the one being
 * streamed is waiting; without parallel evaluation ({@link ExecContext#parallelAllowed}) every chunk
 * is streamed by the evaluating thread, in order. The evaluation's cancellation is checked per chunk
 * read; on close the cursor waits for a helper still running a chunk, so the query does not let go
 * of its snapshot under it.
 *
 * <p>Thread rules: one evaluating thread calls {@link #next} and {@link #close} and alone reads the
 * input; one helper at a time runs chunks with its own forked context. The queue of chunks, a chunk's
 * claim and the helper flag are guarded by this cursor's monitor; a chunk's results are written by its
 * claimant and published by its volatile {@code done}.
 */
final class ParallelRows implements RowCursor {
    /** Chunks read ahead of the one being emitted. */
    private static final int LOOKAHEAD = 8;
    /** How long a helper out of chunks waits for the evaluating thread to read more before it leaves. */
    private static final long LINGER_NANOS = 50_000;
    /** How long the evaluating thread spins for a chunk a helper is running before it sleeps. */
    private static final long AWAIT_SPIN_NANOS = 500_000;

    private final ChunkRows rows;
    private final Operator body;
    private final long[] in;
    private final ExecContext ctx;
    private final RowCursor source;
    /** Chunks read from the input and not yet emitted, in order; guarded by this. */
    private final ArrayDeque<Chunk> ahead = new ArrayDeque<>();
    /** Written by the evaluating thread only. */
    private volatile boolean sourceDone;
    /** Chunks added so far, for a helper waiting for more. */
    private volatile int added;
    private int chunkRows = ParallelJoin.FIRST_CHUNK;
    private ExecContext helperContext;
    // guarded by this
    private boolean helperActive;
    private volatile boolean closed;
    /** The chunk being emitted: streamed, or from its buffer and then streamed from where it stopped. */
    private Chunk current;
    private RowCursor streaming;
    private List<long[]> buffer;
    private int bufferPos;

    ParallelRows(ChunkRows rows, Operator body, long[] in, ExecContext ctx, RowCursor source) {
        this.rows = rows;
        this.body = body;
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
            chunkRows = ParallelJoin.CHUNK;
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
    static final class Slice {
        final Chunk chunk;
        final List<long[]> out;
        final ParallelRows owner;
        int pos;

        Slice(Chunk chunk, int from, List<long[]> out, ParallelRows owner) {
            this.chunk = chunk;
            this.pos = from;
            this.out = out;
            this.owner = owner;
        }

        long[] next() {
            if (pos >= chunk.count || owner.closed || out != null && out.size() >= ParallelJoin.BUFFER_ROWS) {
                return null;
            }
            return chunk.rows[pos++];
        }
    }
}
