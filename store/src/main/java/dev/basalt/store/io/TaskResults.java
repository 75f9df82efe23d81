package dev.basalt.store.io;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.BiFunction;

/**
 * Waits for the result of a task run on another thread and hands its failure to the waiting
 * thread as that task threw it: a {@link RuntimeException} or {@link Error} of the task is
 * rethrown itself (not wrapped in {@link ExecutionException}), so callers catch the same types
 * whether the work ran on their thread or another; a checked exception of the task becomes an
 * {@link IllegalStateException} with it as the cause. {@code doing} names the work for the
 * messages ("interrupted while <doing>", "<doing> failed: <cause>").
 *
 * <p>An interrupt while waiting is never swallowed: either the waiting thread's interrupt flag is
 * set again and the wait ends with an exception ({@link #await}), or the wait goes on to the end
 * and the flag is set again afterwards ({@link #awaitUninterruptibly}, for work that must not be
 * abandoned halfway). A cancelled task's {@link java.util.concurrent.CancellationException}
 * passes through. Stateless; any thread may call it.
 */
public final class TaskResults {
    private TaskResults() {
    }

    /** The task's result; an interrupt ends the wait with an {@link IllegalStateException}, the flag set again. */
    public static <T> T await(Future<T> task, String doing) {
        return await(task, doing, IllegalStateException::new);
    }

    /**
     * The task's result; an interrupt ends the wait with the exception {@code interrupted} makes
     * of the message and the {@link InterruptedException}, the flag set again.
     */
    public static <T> T await(Future<T> task, String doing,
            BiFunction<String, InterruptedException, ? extends RuntimeException> interrupted) {
        try {
            return task.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interrupted.apply("interrupted while " + doing, e);
        } catch (ExecutionException e) {
            throw failure(e, doing);
        }
    }

    /** The task's result, waited for to the end even when interrupted; the flag is set again on return. */
    public static <T> T awaitUninterruptibly(Future<T> task, String doing) {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            throw failure(e, doing);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The task's failure as the unchecked exception to throw: its own {@link RuntimeException}, or
     * an {@link IllegalStateException} around a checked one. An {@link Error} is thrown from here.
     */
    public static RuntimeException failure(ExecutionException e, String doing) {
        Throwable cause = e.getCause();
        if (cause instanceof Error error) {
            throw error;
        }
        if (cause instanceof RuntimeException r) {
            return r;
        }
        return new IllegalStateException(doing + " failed: " + cause, cause);
    }
}
