package dev.basalt.optimizer.exec;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * Threads a query may hand part of its work to ({@link ParallelJoin}), shared by every Basalt
 * store of the JVM, and the count of running evaluations that decides whether a core is idle.
 *
 * <p>Work is offered, never queued: a helper takes it only while the running native evaluations
 * plus the busy helpers are fewer than the processors, and a helper thread is idle or may be
 * started. With as many concurrent queries as cores each core already has a query, and splitting
 * one would only add hand-over costs; with fewer, a query's large joins use the idle cores.
 *
 * <p>Size: {@link ExecLimits#HELPER_POOL_SIZE} (the system property {@value ExecLimits#HELPER_THREADS}),
 * by default the processors minus one; 0 turns helper threads off for the whole JVM. How many of
 * them one evaluation may use at once is its store's setting ({@link ExecLimits#helperThreads},
 * counted by {@link ExecContext#takeHelper}).
 */
public final class HelperThreads {
    private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();
    private static final int SIZE = ExecLimits.HELPER_POOL_SIZE;
    private static final AtomicInteger RUNNING = new AtomicInteger();
    private static final AtomicInteger BUSY = new AtomicInteger();
    /** How long an idle helper spins before it parks. */
    static final long SPIN_NANOS = ExecLimits.HELPER_SPIN_NANOS;

    private HelperThreads() {
    }

    /** The number of helper threads at most ({@link ExecLimits#HELPER_POOL_SIZE}). */
    public static int size() {
        return SIZE;
    }

    /** A native evaluation started returning rows; pair with {@link #evaluationEnded}. */
    public static void evaluationStarted() {
        RUNNING.incrementAndGet();
    }

    public static void evaluationEnded() {
        RUNNING.decrementAndGet();
    }

    /**
     * Wakes the helper threads ahead of an {@link #offer}: they spin for {@link #SPIN_NANOS}
     * waiting for it, so the offer does not pay the wake-up of a parked thread.
     */
    static void wake() {
        if (SIZE == 0 || RUNNING.get() >= PROCESSORS) {
            return;
        }
        for (Helper h : helpers()) {
            if (h.parked) {
                LockSupport.unpark(h);
            }
        }
    }

    /** Runs {@code task} on a helper thread if a core is idle for it; false if it was not taken. */
    static boolean offer(Runnable task) {
        if (SIZE == 0 || RUNNING.get() + BUSY.get() >= PROCESSORS) {
            return false;
        }
        for (Helper h : helpers()) {
            if (h.tryAssign(task)) {
                return true;
            }
        }
        return false;
    }

    private static volatile Helper[] helpers;

    private static Helper[] helpers() {
        Helper[] hs = helpers;
        if (hs == null) {
            synchronized (HelperThreads.class) {
                hs = helpers;
                if (hs == null) {
                    hs = new Helper[SIZE];
                    for (int i = 0; i < SIZE; i++) {
                        hs[i] = new Helper("basalt-helper-" + (i + 1));
                        hs[i].start();
                    }
                    helpers = hs;
                }
            }
        }
        return hs;
    }

    /**
     * A helper thread: runs one task at a time. Idle, it spins for {@link #SPIN_NANOS} before it
     * parks, and parks at once when every core has work: waking a parked thread costs a virtual
     * machine's idle core hundreds of microseconds, as long as the work a query offers.
     */
    private static final class Helper extends Thread {
        private final AtomicReference<Runnable> slot = new AtomicReference<>();
        private volatile boolean parked;

        Helper(String name) {
            super(name);
            setDaemon(true);
        }

        boolean tryAssign(Runnable task) {
            if (!slot.compareAndSet(null, task)) {
                return false;
            }
            BUSY.incrementAndGet();
            if (parked) {
                LockSupport.unpark(this);
            }
            return true;
        }

        @Override
        public void run() {
            while (true) {
                Runnable task = awaitTask();
                try {
                    task.run();
                } catch (Throwable t) {
                    // a task reports its own failures to the query; nothing may end the thread
                } finally {
                    BUSY.decrementAndGet();
                    slot.set(null);
                }
            }
        }

        private Runnable awaitTask() {
            long until = System.nanoTime() + SPIN_NANOS;
            Runnable task;
            while ((task = slot.get()) == null) {
                if (System.nanoTime() - until > 0 || RUNNING.get() >= PROCESSORS) {
                    parked = true;
                    if (slot.get() == null) {
                        LockSupport.park(this);
                    }
                    parked = false;
                    until = System.nanoTime() + SPIN_NANOS;
                } else {
                    Thread.onSpinWait();
                }
            }
            return task;
        }
    }
}
