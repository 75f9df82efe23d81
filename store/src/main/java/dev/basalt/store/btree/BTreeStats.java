package dev.basalt.store.btree;

/**
 * What {@link BTree#verify()} found: pages by kind, entries, large-value records, the payload bytes
 * of every record reachable (pages still dirty in memory count their encoded size) and the depth.
 */
public record BTreeStats(long pages, long leafPages, long entries, long largeValues, long recordBytes, int maxDepth) {
}
