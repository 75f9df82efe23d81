package dev.basalt.store;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * A child JVM ({@link ChildProcess}) of a crash test, to be killed with SIGKILL: a reader thread
 * hands each line the child prints to a listener (which records acknowledgements in atomics the
 * test polls), {@link #awaitUntil} polls for the moment to kill, and {@link #kill} kills it and
 * waits until it is dead and its output is read. A line cut by the kill may fail to parse in the
 * listener; reading ends there. Used by the one test thread that started it.
 */
final class KillableChild {
    /** What SIGKILL makes a JVM's exit value. */
    static final int SIGKILL_EXIT = 137;

    private final Process process;
    private final Thread reader;

    private KillableChild(Process process, Consumer<String> lines) {
        this.process = process;
        this.reader = new Thread(() -> read(process, lines));
        reader.start();
    }

    /** Starts {@code main} with {@code args}; {@code lines} gets each line it prints, on the reader thread. */
    static KillableChild start(Consumer<String> lines, Class<?> main, String... args) throws IOException {
        return new KillableChild(ChildProcess.start(main, args), lines);
    }

    /** Polls every 2 ms until {@code done} holds, the child has ended or {@code deadlineNanos} (of {@link System#nanoTime}) is past. */
    void awaitUntil(BooleanSupplier done, long deadlineNanos) throws InterruptedException {
        while (!done.getAsBoolean() && process.isAlive() && System.nanoTime() < deadlineNanos) {
            Thread.sleep(2);
        }
    }

    /** Waits up to {@code seconds} for the child to end by itself (asserted, {@code message}) and its output to be read; its exit value. */
    int awaitExit(long seconds, String message) throws InterruptedException {
        assertTrue(process.waitFor(seconds, TimeUnit.SECONDS), message);
        reader.join();
        return process.exitValue();
    }

    /** Kills the child with SIGKILL, asserts it died within 30 s, waits for its output to be read; its exit value. */
    int kill(String ctx) throws InterruptedException {
        process.destroyForcibly();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), ctx);
        reader.join();
        return process.exitValue();
    }

    private static void read(Process p, Consumer<String> lines) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.accept(line);
            }
        } catch (IOException | RuntimeException ignored) {
            // the child was killed mid-line
        }
    }
}
