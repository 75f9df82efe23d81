package dev.basalt.sail.ops;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.store.OnlineCompactor;
import dev.basalt.store.Store;
import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.journal.JournalStats;

/**
 * The automatic online compaction of one store (setting {@code compactFreePercent}): after a
 * commit, at most once a second, it looks at the journal's figures, and when the space not used by
 * the newest commit point is at least the configured share of a file of at least
 * {@value #MIN_FILE_BYTES} bytes, it starts {@link OnlineCompactor} on its own daemon thread. A run
 * that left the free share above the setting (readers' pins, history retention, writes meanwhile)
 * is not repeated for {@value #BACKOFF_SECONDS} seconds. WORM stores and a share of 0 never compact.
 *
 * <p>Threads: {@link #afterCommit} is called by committing threads and never blocks; one
 * compaction at a time runs on the policy's thread, serialized with operator-started ones by
 * {@code compaction}; {@link #close} stops the thread (a running compaction ends at its next
 * write transaction when the store closes).
 */
public final class CompactionPolicy implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(CompactionPolicy.class);
    static final long MIN_FILE_BYTES = 1L << 20;
    static final long BACKOFF_SECONDS = 30;

    private final Store store;
    private final int freePercent;
    private final Runnable compaction;
    private final AtomicBoolean running = new AtomicBoolean();
    private final ExecutorService thread;
    private volatile long nextCheckNanos;
    private volatile long notBeforeNanos;

    public CompactionPolicy(Store store, int freePercent, Runnable compaction) {
        this.store = store;
        this.freePercent = freePercent;
        this.compaction = compaction;
        this.thread = freePercent > 0 && store.stats().journal().mode() == JournalMode.RW
                ? Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "basalt-compaction " + store.stats().path().getFileName());
                    t.setDaemon(true);
                    return t;
                })
                : null;
    }

    /** True if the journal's free share has reached the configured one. */
    public static boolean due(JournalStats j, int freePercent) {
        long live = j.bytesInUse() - j.bytesDeferred();
        return freePercent > 0 && j.fileBytes() >= MIN_FILE_BYTES && (j.fileBytes() - live) * 100 >= (long) freePercent * j.fileBytes();
    }

    public void afterCommit() {
        long now = System.nanoTime();
        if (thread == null || running.get() || now - nextCheckNanos < 0 || now - notBeforeNanos < 0) {
            return;
        }
        nextCheckNanos = now + TimeUnit.SECONDS.toNanos(1);
        JournalStats j = store.stats().journal();
        if (!due(j, freePercent) || !running.compareAndSet(false, true)) {
            return;
        }
        LOG.info("{}: {} of {} bytes are free (at least {}%): starting online compaction", store.stats().path(),
                j.fileBytes() - (j.bytesInUse() - j.bytesDeferred()), j.fileBytes(), freePercent);
        try {
            thread.execute(this::run);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            running.set(false);
        }
    }

    private void run() {
        try {
            compaction.run();
        } catch (RuntimeException e) {
            LOG.warn("{}: automatic online compaction failed: {}", store.stats().path(), e.getMessage());
        } finally {
            try {
                JournalStats after = store.stats().journal();
                if (due(after, freePercent)) {
                    notBeforeNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(BACKOFF_SECONDS);
                }
            } catch (RuntimeException closed) {
                // the store closed meanwhile
            }
            running.set(false);
        }
    }

    @Override
    public void close() {
        if (thread != null) {
            thread.shutdownNow();
        }
    }
}
