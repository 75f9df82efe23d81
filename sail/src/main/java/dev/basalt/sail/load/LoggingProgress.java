package dev.basalt.sail.load;

import java.time.Duration;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Plain SLF4J lines for log files and pipes: one each time another {@code every} statements have
 * been read (a million by default), with the count, rate, share of the input and ETA; one per index
 * built, one at the commit and one at the end.
 *
 * <p>Not thread-safe: called by the loader's loading thread only, as {@link LoadProgress} promises.
 */
public final class LoggingProgress implements LoadProgress {
    private static final Logger LOG = LoggerFactory.getLogger(BasaltLoader.class);
    private final long every;
    private long nextLog;

    public LoggingProgress(long every) {
        if (every < 1) {
            throw new IllegalArgumentException("log every " + every + " statements?");
        }
        this.every = every;
        this.nextLog = every;
    }

    public LoggingProgress() {
        this(1_000_000);
    }

    @Override
    public void parsing(long statements, long bytesRead, long totalBytes, Duration elapsed) {
        if (statements >= nextLog) {
            nextLog = (statements / every + 1) * every;
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
