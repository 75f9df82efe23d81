package dev.basalt.sail.spill;

import java.nio.file.Path;
import java.util.Objects;

/**
 * When a change set leaves the heap: as soon as one model of pending changes holds
 * {@code statementThreshold} statements, or holds at least {@value #MIN_HEAP_SPILL} while the
 * JVM's free heap (maximum minus used, garbage included) is below {@code minFreeHeapFraction} of
 * the maximum. The heap test is an early warning in the spirit of RDF4J's MemoryOverflowModel but
 * deliberately simple: it reads {@link Runtime} every {@value #HEAP_CHECK_INTERVAL} additions, so a
 * full heap full of garbage may spill a change set that would have fit, which costs speed, never
 * correctness.
 *
 * <p>Immutable and thread-safe.
 *
 * @param statementThreshold   statements a change set model may hold in memory (at least 1)
 * @param minFreeHeapFraction  free-heap fraction below which models spill early (0 disables)
 * @param directory            where spill stores are created, one subdirectory each
 */
public record SpillPolicy(int statementThreshold, double minFreeHeapFraction, Path directory) {
    public static final int DEFAULT_STATEMENT_THRESHOLD = 100_000;
    public static final double DEFAULT_MIN_FREE_HEAP_FRACTION = 0.25;
    static final int MIN_HEAP_SPILL = 10_000;
    static final int HEAP_CHECK_INTERVAL = 1024;

    public SpillPolicy {
        Objects.requireNonNull(directory, "directory");
        if (statementThreshold < 1) {
            throw new IllegalArgumentException("the spill threshold must be at least 1 statement: " + statementThreshold);
        }
        if (!(minFreeHeapFraction >= 0 && minFreeHeapFraction < 1)) {
            throw new IllegalArgumentException("the free-heap fraction must be in [0, 1): " + minFreeHeapFraction);
        }
    }

    public static SpillPolicy defaults(Path directory) {
        return new SpillPolicy(DEFAULT_STATEMENT_THRESHOLD, DEFAULT_MIN_FREE_HEAP_FRACTION, directory);
    }

    /** True if a model of {@code size} statements in memory should move to disk now. */
    boolean shouldSpill(int size) {
        if (size >= statementThreshold) {
            return true;
        }
        if (minFreeHeapFraction == 0 || size < MIN_HEAP_SPILL || size % HEAP_CHECK_INTERVAL != 0) {
            return false;
        }
        Runtime rt = Runtime.getRuntime();
        long free = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        return free < minFreeHeapFraction * rt.maxMemory();
    }
}
