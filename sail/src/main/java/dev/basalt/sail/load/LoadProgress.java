package dev.basalt.sail.load;

import java.time.Duration;

/**
 * Receives the progress of a load, from the loading thread. {@link #parsing} comes after every
 * batch of statements; its {@code bytesRead} over {@code totalBytes} is the fraction of the input
 * read, which a listener can turn into an ETA (index building then takes a further fraction of
 * the parse time). Implementations must be cheap or throttle themselves.
 */
public interface LoadProgress {
    /** Statements parsed and resolved so far. */
    void parsing(long statements, long bytesRead, long totalBytes, Duration elapsed);

    /** Started building statement index {@code index} ({@code number} of {@code of}, 1-based). */
    default void building(String index, int number, int of, Duration elapsed) {
    }

    /** Everything is written; the commit starts. */
    default void committing(Duration elapsed) {
    }

    /** The load committed (or found nothing new). */
    default void finished(LoadResult result) {
    }

    /** Formats a statement rate and ETA the way both built-in listeners show them. */
    static String describe(long statements, long bytesRead, long totalBytes, Duration elapsed) {
        double secs = Math.max(1e-3, elapsed.toNanos() / 1e9);
        String eta = "?";
        if (bytesRead > 0 && totalBytes > 0) {
            double left = secs * (totalBytes - bytesRead) / bytesRead;
            eta = formatSeconds(Math.max(0, left));
        }
        if (totalBytes <= 0) {
            // a stream of unknown length (an upload): no share or ETA to tell
            return String.format("%,d triples, %,.0f triples/s, elapsed %s (parsing)", statements, statements / secs,
                    formatSeconds(secs));
        }
        int percent = (int) Math.min(100, 100 * bytesRead / totalBytes);
        return String.format("%3d%% %,d triples, %,.0f triples/s, elapsed %s, ETA %s (parsing)", percent, statements,
                statements / secs, formatSeconds(secs), eta);
    }

    static String formatSeconds(double s) {
        long t = Math.round(s);
        return t >= 3600 ? String.format("%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60)
                : String.format("%d:%02d", t / 60, t % 60);
    }
}
