package dev.basalt.sail.load;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Plain SLF4J lines at most every {@code interval}, plus one per index built and one at the end. */
public final class LoggingProgress implements LoadProgress {
    private static final Logger LOG = LoggerFactory.getLogger(BasaltLoader.class);
    private final long intervalNanos;
    private long lastLog;

    public LoggingProgress(Duration interval) {
        this.intervalNanos = interval.toNanos();
        this.lastLog = System.nanoTime();
    }

    public LoggingProgress() {
        this(Duration.ofSeconds(5));
    }

    @Override
    public void parsing(long statements, long bytesRead, long totalBytes, Duration elapsed) {
        long now = System.nanoTime();
        if (now - lastLog >= intervalNanos) {
            lastLog = now;
            LOG.info("load: {}", LoadProgress.describe(statements, bytesRead, totalBytes, elapsed));
        }
    }

    @Override
    public void building(String index, int number, int of, Duration elapsed) {
        LOG.info("load: building index {} ({}/{}), elapsed {}", index, number, of,
                LoadProgress.formatSeconds(elapsed.toNanos() / 1e9));
    }

    @Override
    public void committing(Duration elapsed) {
        LOG.info("load: committing, elapsed {}", LoadProgress.formatSeconds(elapsed.toNanos() / 1e9));
    }

    @Override
    public void finished(LoadResult r) {
        LOG.info("load: {} statements read, {} new, {} new terms in {} ({} triples/s), commit {}",
                String.format("%,d", r.statementsRead()), String.format("%,d", r.statementsAdded()),
                String.format("%,d", r.termsAdded()), LoadProgress.formatSeconds(r.elapsed().toNanos() / 1e9),
                String.format("%,.0f", r.statementsPerSecond()), r.commit());
    }
}
