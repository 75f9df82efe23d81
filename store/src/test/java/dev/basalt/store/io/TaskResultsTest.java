package dev.basalt.store.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A task's failure reaches the waiting thread with its own type, and an interrupt is never lost. */
class TaskResultsTest {
    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private static <T> FutureTask<T> failing(Throwable t) {
        FutureTask<T> task = new FutureTask<>(() -> {
            if (t instanceof Error e) {
                throw e;
            }
            throw (Exception) t;
        });
        task.run();
        return task;
    }

    /**
     * Ends {@code future} with {@code end} once the calling thread waits in it, so that a wait begun
     * with the interrupt flag set has seen an {@link InterruptedException} before the future ends.
     */
    private static <T> Thread endOnceWaiting(CompletableFuture<T> future, Consumer<CompletableFuture<T>> end) {
        Thread waiter = Thread.currentThread();
        Thread t = new Thread(() -> {
            while (waiter.getState() != Thread.State.WAITING) {
                Thread.onSpinWait();
            }
            end.accept(future);
        });
        t.start();
        return t;
    }

    @Test
    void returnsTheResult() {
        FutureTask<String> task = new FutureTask<>(() -> "done");
        task.run();
        assertEquals("done", TaskResults.await(task, "testing"));
        assertEquals("done", TaskResults.awaitUninterruptibly(task, "testing"));
    }

    @Test
    void uncheckedFailureIsRethrownItself() {
        UncheckedIOException failure = new UncheckedIOException(new IOException("disk full"));
        FutureTask<String> task = failing(failure);
        assertSame(failure, assertThrows(UncheckedIOException.class, () -> TaskResults.await(task, "testing")));
        assertSame(failure, assertThrows(UncheckedIOException.class,
                () -> TaskResults.awaitUninterruptibly(task, "testing")));
    }

    @Test
    void errorIsRethrownItself() {
        StackOverflowError error = new StackOverflowError("test");
        FutureTask<String> task = failing(error);
        assertSame(error, assertThrows(StackOverflowError.class, () -> TaskResults.await(task, "testing")));
        assertSame(error, assertThrows(StackOverflowError.class,
                () -> TaskResults.awaitUninterruptibly(task, "testing")));
    }

    @Test
    void checkedFailureIsWrappedWithItsCauseAndTheWork() {
        IOException failure = new IOException("disk full");
        FutureTask<String> task = failing(failure);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> TaskResults.await(task, "sorting the keys"));
        assertSame(failure, e.getCause());
        assertTrue(e.getMessage().startsWith("sorting the keys failed: "), e.getMessage());
        assertSame(failure, assertThrows(IllegalStateException.class,
                () -> TaskResults.awaitUninterruptibly(task, "sorting the keys")).getCause());
    }

    @Test
    void cancellationPassesThrough() {
        FutureTask<String> task = new FutureTask<>(() -> "never");
        task.cancel(false);
        assertThrows(CancellationException.class, () -> TaskResults.await(task, "testing"));
    }

    @Test
    void interruptEndsTheWaitAndStaysSet() {
        CompletableFuture<String> never = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> TaskResults.await(never, "testing"));
        assertEquals("interrupted while testing", e.getMessage());
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertTrue(Thread.interrupted(), "the interrupt flag was lost");
    }

    @Test
    void interruptMakesTheCallersException() {
        CompletableFuture<String> never = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> TaskResults.await(never, "testing", UnsupportedOperationException::new));
        assertInstanceOf(InterruptedException.class, e.getCause());
        assertTrue(Thread.interrupted(), "the interrupt flag was lost");
    }

    @Test
    void uninterruptibleWaitGoesOnAndSetsTheFlagAgain() throws InterruptedException {
        CompletableFuture<String> later = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        Thread completer = endOnceWaiting(later, f -> f.complete("finished"));
        assertEquals("finished", TaskResults.awaitUninterruptibly(later, "testing"));
        assertTrue(Thread.interrupted(), "the interrupt flag was lost");
        completer.join();
    }

    @Test
    void uninterruptibleWaitSetsTheFlagAgainAlsoOnFailure() throws InterruptedException {
        UncheckedIOException failure = new UncheckedIOException(new IOException("disk full"));
        CompletableFuture<String> later = new CompletableFuture<>();
        Thread.currentThread().interrupt();
        Thread completer = endOnceWaiting(later, f -> f.completeExceptionally(failure));
        assertSame(failure, assertThrows(UncheckedIOException.class,
                () -> TaskResults.awaitUninterruptibly(later, "testing")));
        assertTrue(Thread.interrupted(), "the interrupt flag was lost");
        completer.join();
    }
}
