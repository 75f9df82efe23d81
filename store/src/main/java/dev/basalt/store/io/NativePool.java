package dev.basalt.store.io;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Supplier;

/**
 * A small bounded pool of objects that hold native memory freed only by {@code close()} (zstd-jni's
 * compression and decompression contexts): {@link #take} lends a pooled one or makes a new one,
 * {@link #give} puts it back, or closes it when the pool is full. Creating a context per call costs
 * more than compressing a short value, and per-thread contexts would leak with every thread that
 * ends, hence a pool of about twice the cores.
 *
 * <p>Thread-safe.
 *
 * @param <T> the pooled type
 */
public final class NativePool<T extends AutoCloseable> {
    private final ArrayBlockingQueue<T> pool = new ArrayBlockingQueue<>(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
    private final Supplier<T> factory;

    /** @param factory makes a new, ready-to-use object when the pool is empty */
    public NativePool(Supplier<T> factory) {
        this.factory = factory;
    }

    /** A pooled object, or a new one. */
    public T take() {
        T t = pool.poll();
        return t != null ? t : factory.get();
    }

    /** Returns {@code t} to the pool, or closes it if the pool is full. */
    public void give(T t) {
        if (!pool.offer(t)) {
            try {
                t.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing a pooled native object failed", e);
            }
        }
    }
}
