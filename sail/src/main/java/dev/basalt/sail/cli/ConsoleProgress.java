package dev.basalt.sail.cli;

import java.io.PrintWriter;
import java.time.Duration;

import dev.basalt.sail.load.LoadProgress;
import dev.basalt.sail.load.LoadResult;

/**
 * One line on the terminal, rewritten in place at most five times a second.
 *
 * <p>Not thread-safe: called by the loader's loading thread only, as {@link
 * dev.basalt.sail.load.LoadProgress} promises.
 */
final class ConsoleProgress implements LoadProgress {
    private static final long INTERVAL_NANOS = 200_000_000L;
    private final PrintWriter out;
    private long last;
    private int width;

    ConsoleProgress(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void parsing(long statements, long bytesRead, long totalBytes, Duration elapsed) {
        long now = System.nanoTime();
        if (now - last >= INTERVAL_NANOS) {
            last = now;
            show(bar(totalBytes > 0 ? (double) bytesRead / totalBytes : 0) + " "
                    + LoadProgress.describe(statements, bytesRead, totalBytes, elapsed));
        }
    }

    @Override
    public void building(String index, int number, int of, Duration elapsed) {
        show(bar(1) + " building index " + index + " (" + number + "/" + of + "), elapsed "
                + LoadProgress.formatSeconds(elapsed.toNanos() / 1e9));
    }

    @Override
    public void committing(Duration elapsed) {
        show(bar(1) + " committing, elapsed " + LoadProgress.formatSeconds(elapsed.toNanos() / 1e9));
    }

    @Override
    public void finished(LoadResult r) {
        show("");
        out.print('\r');
        out.flush();
    }

    private static String bar(double fraction) {
        int filled = (int) Math.round(Math.max(0, Math.min(1, fraction)) * 20);
        return "[" + "#".repeat(filled) + " ".repeat(20 - filled) + "]";
    }

    private void show(String line) {
        String padded = line.length() < width ? line + " ".repeat(width - line.length()) : line;
        width = line.length();
        out.print('\r');
        out.print(padded);
        out.flush();
    }
}
