package dev.basalt.store.btree;

/**
 * What {@link BTree#verify()} found: pages by kind, entries, large-value records, the payload bytes
 * of every record reachable (pages still dirty in memory count their encoded size) and the depth;
 * of those, the payload bytes of leaf pages and how many leaves are id-tuple leaves. Internal
 * pages take {@code recordBytes - leafBytes} minus the large values' bytes.
 *
 * <p>Immutable; safe to share between threads.
 */
public record BTreeStats(long pages, long leafPages, long entries, long largeValues, long recordBytes, int maxDepth,
                         long leafBytes, long idTupleLeafPages) {
}
