package dev.basalt.store.journal;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one journal. {@code mode} only matters when the file is created; an existing file
 * keeps the mode in its header.
 *
 * @param mode            RW (default) or WORM
 * @param historyRetention how long a superseded commit point stays readable (RW mode); zero
 *                        recycles space as soon as no reader pins an older commit point
 * @param durable         force data and root block to the device at commit (turn off only for
 *                        tests and throwaway stores: a crash may then lose recent commits)
 * @param readerWarnAge   a reader pinning a commit point longer than this is logged as a warning
 */
public record JournalConfig(JournalMode mode, Duration historyRetention, boolean durable, Duration readerWarnAge) {
    public JournalConfig {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(historyRetention, "historyRetention");
        Objects.requireNonNull(readerWarnAge, "readerWarnAge");
        if (historyRetention.isNegative()) {
            throw new IllegalArgumentException("history retention must not be negative: " + historyRetention);
        }
    }

    public static JournalConfig defaults() {
        return new JournalConfig(JournalMode.RW, Duration.ZERO, true, Duration.ofMinutes(10));
    }

    public JournalConfig withMode(JournalMode m) {
        return new JournalConfig(m, historyRetention, durable, readerWarnAge);
    }

    public JournalConfig withHistoryRetention(Duration d) {
        return new JournalConfig(mode, d, durable, readerWarnAge);
    }

    public JournalConfig withDurable(boolean d) {
        return new JournalConfig(mode, historyRetention, d, readerWarnAge);
    }
}
