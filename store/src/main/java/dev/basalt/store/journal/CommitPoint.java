package dev.basalt.store.journal;

/**
 * A committed state of the journal: its counter, time, and the upper layer's commit record.
 * Counter 0 is the empty store before the first commit ({@code record == 0}).
 * Immutable; safe to share between threads.
 */
public record CommitPoint(long counter, long timeMillis, long record, int recordCrc) {
}
