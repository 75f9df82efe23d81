package dev.basalt.optimizer.exec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * The batch form of a {@link ParallelJoin} with a helper thread: the input's rows are cut into
 * chunks (a batch of rows, or {@link ParallelJoin#FORCED_CHUNK_ROWS} under {@link ParallelMode#FORCE}), and the body runs over
 * each chunk, in the evaluating thread or an idle helper ({@link HelperThreads}). Output keeps the
 * order of the serial plan: the evaluating thread streams the chunk whose turn it is when nobody has
 * taken it; a chunk run ahead of its turn (by the helper, or by the evaluating thread while it waits
 * for the helper) is copied into a buffer of at most {@value #BUFFER_ROWS} rows; past that its
 * buffer is dropped and the evaluating thread streams the chunk again at its turn, so memory stays
 * bounded whatever a row's fan-out. The evaluation's timeout and cancellation are checked per
 * chunk read; on close the cursor waits for a helper still running a chunk, so the query does not
 * let go of its snapshot under it.
 * Thread rules: one evaluating thread calls {@link #next} and {@link #close}; one helper at a time
 * runs chunks with its own forked context; the queue of chunks and the helper flag are guarded by
 * this cursor's monitor, and a chunk's results are published by its volatile {@code done}.
 */
final class ParallelBatches implements BatchCursor {
    static final int BUFFER_ROWS = ParallelJoin.BUFFER_ROWS;
    /** Chunks read ahead of the one being emitted. */
    private static final int LOOKAHEAD = 4;
    private final Operator feedOwner;
    private final Operator body;
    private final long[] in;
    private final ExecContext ctx;
    private final BatchCursor source;
    private final int chunkRows;
    /** Guarded by this. */
    private final ArrayDeque<Chunk> ahead = new ArrayDeque<>();
    /** Guarded by this. */
    private boolean helperActive;
    private ExecContext helperContext;
    private volatile boolean closed;
    private boolean sourceDone;
    private Batch pending;
    private int pendingAt;
    private Chunk current;
    private BatchCursor streaming;
    private int bufferPos;

    ParallelBatches(Operator feedOwner, Operator body, long[] in, ExecContext ctx, BatchCursor source, int chunkRows) {
        this.feedOwner = feedOwner;
        this.body = body;
        this.in = in;
        this.ctx = ctx;
        this.source = source;
        this.chunkRows = Math.max(1, Math.min(chunkRows, Batch.CAPACITY));
    }

    /** Input rows of one chunk and, once run ahead of its turn, what they produced. */
    private static final class Chunk {
        final Batch rows;
        /** Under the cursor's lock. */
        boolean claimed;
        /** The body's output, or null if it went past the buffer (then the chunk is streamed at its turn). */
        List<Batch> out;
        Throwable error;
        private volatile boolean done;

        Chunk(Batch rows) {
            this.rows = rows;
        }

        void finish() {
            done = true;
            synchronized (this) {
                notifyAll();
            }
        }

        void await() {
            ParallelJoin.waitUntil(this, () -> done);
        }
    }

    @Override
    public Batch next() {
        while (true) {
            if (streaming != null) {
                Batch b = streaming.next();
                if (b != null) {
                    return b;
                }
                streaming.close();
                streaming = null;
                current = null;
            } else if (current != null && bufferPos < current.out.size()) {
                return current.out.get(bufferPos++);
            } else if (!advance()) {
                return null;
            }
        }
    }

    /** Makes the next chunk current: streams it, or takes its buffer; false at the end. */
    private boolean advance() {
        current = null;
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
        offerHelper();
        if (!mine) {
            // run later chunks here while the helper runs this one
            while (!head.done) {
                Chunk other = claimNext();
                if (other == null) {
                    head.await();
                    break;
                }
                runBuffered(other, ctx);
            }
            if (head.error != null) {
                throw ParallelJoin.rethrow(head.error);
            }
        }
        current = head;
        bufferPos = 0;
        if (mine || head.out == null) {
            streaming = openBody(head.rows, ctx);
        }
        return true;
    }

    private void fillAhead() {
        while (!sourceDone) {
            synchronized (this) {
                if (ahead.size() >= LOOKAHEAD) {
                    return;
                }
            }
            if (pending == null || pendingAt >= pending.size) {
                ctx.checkCancelled();
                pending = source.next();
                pendingAt = 0;
                if (pending == null) {
                    sourceDone = true;
                    return;
                }
            }
            Batch rows = new Batch(in.length);
            int end = Math.min(pending.size, pendingAt + chunkRows);
            for (int i = pendingAt; i < end; i++) {
                rows.addCopy(pending, i);
            }
            pendingAt = end;
            synchronized (this) {
                ahead.addLast(new Chunk(rows));
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

    private void offerHelper() {
        if (!ctx.parallelAllowed()) {
            return;
        }
        synchronized (this) {
            if (helperActive || closed || ahead.stream().allMatch(c -> c.claimed) || !ctx.takeHelper()) {
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

    private void help() {
        try {
            Chunk c;
            while (!closed && (c = claimNext()) != null) {
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
        List<Batch> out = new ArrayList<>();
        int rows = 0;
        try (BatchCursor b = openBody(c.rows, on)) {
            Batch next;
            while ((next = b.next()) != null) {
                rows += next.size;
                if (rows > BUFFER_ROWS || closed) {
                    out = null;
                    break;
                }
                out.add(next.copy());
            }
        } catch (Throwable t) {
            c.error = t;
        } finally {
            c.out = out;
            c.finish();
        }
    }

    private BatchCursor openBody(Batch rows, ExecContext on) {
        on.offerFeed(feedOwner, rows);
        return body.openBatch(in, on);
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
            ParallelJoin.waitUntil(this, () -> !helperActive);
        }
    }
}
