package dev.basalt.sail.load;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A {@link SortedQuads} read ahead on another thread: a producer task drains the source (a merge
 * of sorted run files, whose reading and comparing would otherwise run on the index-building
 * thread) into blocks of quads handed over through a short queue, so the merge runs on one core
 * while the index is built on the other.
 *
 * <p>Thread rules: the source is used only by the producer task on {@code executor}; the stream
 * itself by one consuming thread. An exception of the producer (a run file that cannot be read)
 * is thrown to the consumer by {@link #next()}. {@link #close()} stops the producer, waits for
 * it, and closes the source. The arrays of blocks the consumer has read go back to the producer
 * through a second queue.
 */
final class PrefetchedQuads implements SortedQuads {
    /**
     * Quads per block: 256 KiB of longs, under half a heap region of a 1 GiB heap, so that a block
     * is not a humongous allocation (each of which may start a marking cycle of the collector).
     */
    private static final int BLOCK_QUADS = 1 << 13;
    private static final Object END = new Object();

    /** Quads {@code [0, n)} of {@code q}. */
    private record Block(long[] q, int n) {
    }

    private final SortedQuads source;
    private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(4);
    /** Arrays of blocks the consumer is done with, for the producer to fill again. */
    private final BlockingQueue<long[]> spare = new ArrayBlockingQueue<>(8);
    private final java.util.concurrent.Future<?> producer;
    private volatile boolean closed;
    /** The block being consumed, and its array. */
    private SortedQuads block;
    private long[] blockArray;
    private boolean ended;

    PrefetchedQuads(SortedQuads source, ExecutorService executor) {
        this.source = source;
        this.producer = executor.submit(this::produce);
    }

    /** Producer: blocks of the source's quads, then END or the source's exception after the quads before it. */
    private void produce() {
        long[] q = newBlock();
        int n = 0;
        Object last = END;
        while (!closed) {
            boolean more;
            try {
                more = source.next();
            } catch (RuntimeException | Error e) {
                last = e;
                break;
            }
            if (!more) {
                break;
            }
            System.arraycopy(source.key(), 0, q, 4 * n, 4);
            if (++n == BLOCK_QUADS) {
                put(new Block(q, n));
                q = newBlock();
                n = 0;
            }
        }
        if (n > 0) {
            put(new Block(q, n));
        }
        put(last);
    }

    private long[] newBlock() {
        long[] q = spare.poll();
        return q != null ? q : new long[4 * BLOCK_QUADS];
    }

    private void put(Object item) {
        offer(queue, item, () -> closed);
    }

    /**
     * Puts {@code item} into {@code queue}, waiting for room until {@code stopped} says the consumer
     * has gone; true if it was put. Shared by the loader's producer threads.
     */
    static boolean offer(BlockingQueue<Object> queue, Object item, BooleanSupplier stopped) {
        try {
            while (!stopped.getAsBoolean()) {
                if (queue.offer(item, 100, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * Takes the next item of {@code queue}, waiting for it as long as its producer runs: once
     * {@code producerGone} says the producer ended (it died of an error it could not hand over, or
     * was never able to put its last item), an empty queue ends the wait with a {@link LoadException}
     * instead of a wait that never ends, so the write fails and its caller can fall back. An
     * interrupt ends the wait with a {@link LoadException} too; both say what was awaited. Shared by
     * the loader's consumer threads.
     */
    static Object take(BlockingQueue<Object> queue, String awaited, BooleanSupplier producerGone) {
        try {
            while (true) {
                Object item = queue.poll(100, TimeUnit.MILLISECONDS);
                if (item != null) {
                    return item;
                }
                if (producerGone.getAsBoolean()) {
                    // the producer may have put its last item just before it ended
                    item = queue.poll();
                    if (item != null) {
                        return item;
                    }
                    throw new LoadException("the thread preparing " + awaited + " ended without handing it over", null);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadException("interrupted while waiting for " + awaited, e);
        }
    }

    @Override
    public boolean next() {
        while (!ended) {
            if (block != null && block.next()) {
                return true;
            }
            Object item = take(queue, "the merge of the sort runs", producer::isDone);
            if (item instanceof Block b) {
                if (blockArray != null) {
                    spare.offer(blockArray); // its quads were all read; dropped if the pool is full
                }
                blockArray = b.q();
                block = SortRuns.of(b.q(), b.n());
                continue;
            }
            ended = true;
            if (item instanceof RuntimeException e) {
                throw e;
            }
            if (item instanceof Error e) {
                throw e;
            }
        }
        return false;
    }

    @Override
    public long[] key() {
        return block.key();
    }

    @Override
    public void close() {
        closed = true;
        queue.clear();
        try {
            producer.get(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException
                | java.util.concurrent.CancellationException e) {
            // the producer's own failure was handed to the consumer; closing goes on
        } finally {
            source.close();
        }
    }
}
