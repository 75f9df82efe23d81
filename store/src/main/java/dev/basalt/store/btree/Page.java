package dev.basalt.store.btree;

/**
 * A clean page decoded from an immutable record. Instances are immutable and shared through the
 * {@link PageCache} by the writer and every reader.
 */
sealed interface Page permits LeafPage, IdTupleLeafPage, InternalPage {
    long address();

    int checksum();

    /** Approximate heap size in bytes, the cache's weight. */
    int weight();
}
