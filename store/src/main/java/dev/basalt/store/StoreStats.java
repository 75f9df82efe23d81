package dev.basalt.store;

import dev.basalt.store.journal.JournalStats;

import java.nio.file.Path;
import java.util.Map;

/** Journal figures plus the entry count of every named tree at the newest commit point. */
public record StoreStats(Path path, JournalStats journal, Map<String, Long> treeSizes) {
}
