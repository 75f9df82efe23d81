package dev.basalt.sail.load;

import java.time.Duration;

/**
 * What a finished load did.
 *
 * <p>Immutable and thread-safe.
 *
 * @param statementsRead statements parsed from the input files (duplicates included)
 * @param statementsAdded statements that were new to the store
 * @param termsAdded     new dictionary terms (inline values are not counted)
 * @param bytesRead      bytes of input read (compressed bytes for gzip files)
 * @param elapsed        wall time of the whole load, commit included
 * @param commit         counter of the commit point the load made, or -1 if nothing was new
 */
public record LoadResult(long statementsRead, long statementsAdded, long termsAdded, long bytesRead, Duration elapsed,
                         long commit) {
    /** Statements read per second of the whole load. */
    public double statementsPerSecond() {
        double s = elapsed.toNanos() / 1e9;
        return s > 0 ? statementsRead / s : 0;
    }
}
