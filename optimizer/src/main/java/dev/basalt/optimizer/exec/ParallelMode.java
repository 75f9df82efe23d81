package dev.basalt.optimizer.exec;

import java.util.Locale;

/**
 * Whether the compiler turns a join chain into a {@link ParallelJoin}: {@link #AUTO} when its first
 * pattern is estimated at {@link ExecLimits#PARALLEL_MIN_ROWS} rows or more, {@link #FORCE} whenever
 * the chain can run in chunks (and batch chunks are {@link ParallelJoin#FORCED_CHUNK_ROWS} rows, so
 * that tests run every eligible operator on the helper threads), {@link #OFF} never. A store's
 * setting ({@code basalt:parallel}) picks one; a store that leaves it unset takes
 * {@link ExecLimits#DEFAULT_PARALLEL}.
 *
 * <p>Thread-safe: an enum.
 */
public enum ParallelMode {
    AUTO, FORCE, OFF;

    /** The setting's text: {@code auto}, {@code force} or {@code off}, case and blanks ignored. */
    public static ParallelMode parse(String text) {
        String t = text.trim().toUpperCase(Locale.ROOT);
        for (ParallelMode m : values()) {
            if (m.name().equals(t)) {
                return m;
            }
        }
        throw new IllegalArgumentException("parallel must be auto, force or off, not '" + text + "'");
    }

    /** The setting's text. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
