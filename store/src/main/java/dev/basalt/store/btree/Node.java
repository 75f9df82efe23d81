package dev.basalt.store.btree;

/**
 * A page as the read paths see it, whether it is a clean page decoded from a record
 * ({@link LeafPage}, {@link InternalPage}) or a dirty page of the writer ({@link DirtyLeaf},
 * {@link DirtyInternal}). Lookups, counts, cursors and the verifier are written once against it.
 *
 * <p>Threads: clean pages are immutable and shared by any number of threads through the
 * {@link PageCache}; dirty pages are touched only by the thread writing their tree.
 */
sealed interface Node permits LeafNode, InternalNode {
    /** Entries of a leaf, children of an internal page. */
    int size();
}
