package dev.basalt.store;

import dev.basalt.store.journal.JournalStats;

import java.nio.file.Path;
import java.util.Map;

/**
 * Journal figures plus the entry count of every named tree at the newest commit point.
 * A value taken at one moment; nothing changes it after {@link Store#stats} returns it, so it may
 * be handed to other threads.
 */
public record StoreStats(Path path, JournalStats journal, Map<String, Long> treeSizes) {
}
