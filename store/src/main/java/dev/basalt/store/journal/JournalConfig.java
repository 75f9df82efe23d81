package dev.basalt.store.journal;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one journal. {@code mode} only matters when the file is created; an existing file
 * keeps the mode in its header.
 *
 * <p>Immutable; safe to share between threads.
 *
 * @param mode            RW (default) or WORM
 * @param historyRetention how long a superseded commit point stays readable (RW mode); zero
 *                        recycles space as soon as no reader pins an older commit point
 * @param durable         force data and root block to the device at commit (turn off only for
 *                        tests and throwaway stores: a crash may then lose recent commits)
 * @param readerWarnAge   a reader pinning a commit point longer than this is logged as a warning
 * @param maxFileBytes    the journal may not grow past this many bytes (0 = no limit): a write
 *                        that would need more fails like a full disk, and the last commit stays intact
 */
public record JournalConfig(JournalMode mode, Duration historyRetention, boolean durable, Duration readerWarnAge,
                            long maxFileBytes) {
    public JournalConfig {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(historyRetention, "historyRetention");
        Objects.requireNonNull(readerWarnAge, "readerWarnAge");
        if (maxFileBytes < 0) {
            throw new IllegalArgumentException("maxFileBytes must not be negative: " + maxFileBytes);
        }
        if (historyRetention.isNegative()) {
            throw new IllegalArgumentException("history retention must not be negative: " + historyRetention);
        }
    }

    public static JournalConfig defaults() {
        return new JournalConfig(JournalMode.RW, Duration.ZERO, true, Duration.ofMinutes(10), 0);
    }

    public JournalConfig withMode(JournalMode m) {
        return new JournalConfig(m, historyRetention, durable, readerWarnAge, maxFileBytes);
    }

    public JournalConfig withHistoryRetention(Duration d) {
        return new JournalConfig(mode, d, durable, readerWarnAge, maxFileBytes);
    }

    public JournalConfig withDurable(boolean d) {
        return new JournalConfig(mode, historyRetention, d, readerWarnAge, maxFileBytes);
    }

    public JournalConfig withReaderWarnAge(Duration age) {
        return new JournalConfig(mode, historyRetention, durable, age, maxFileBytes);
    }

    public JournalConfig withMaxFileBytes(long bytes) {
        return new JournalConfig(mode, historyRetention, durable, readerWarnAge, bytes);
    }
}
