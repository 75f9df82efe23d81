package dev.basalt.store.btree;

/**
 * An internal page: {@link #size()} children and {@code size() - 1} separators. Every key under
 * child {@code i} is {@code >= separator(i - 1)} and {@code < separator(i)}; the page keeps the
 * exact number of entries under each child (counted B+tree), so rank and range counts need one
 * descent.
 *
 * <p>Threads: the clean implementation ({@link InternalPage}) is immutable and shared by any number
 * of threads; a {@link DirtyInternal} is touched only by the thread writing its tree.
 */
sealed interface InternalNode extends Node permits InternalPage, DirtyInternal {
    /** The child whose key range holds {@code key}: the number of separators {@code <= key}. */
    int childIndex(byte[] key);

    byte[] separator(int index);

    long childEntries(int index);

    long childAddress(int index);

    int childChecksum(int index);

    /** The in-memory dirty child at {@code index}, or null if the child is a clean record. */
    DirtyNode dirtyChild(int index);
}
