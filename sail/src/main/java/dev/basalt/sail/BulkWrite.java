package dev.basalt.sail;

import java.util.List;

import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.quads.QuadOrder;

/**
 * A write of many explicit statements straight into the store's open write transaction, for
 * {@link BasaltStoreConnection#addBulk}: the bulk loader's pipeline (parse in parallel chunks,
 * resolve terms in sorted batches, sort, build or merge the indices) instead of statement-by-statement
 * inserts. It writes the explicit statement trees ({@link SailLayout#explicitTree}), terms through
 * the given lexicon writer and namespaces, and never commits: the connection's transaction does.
 * An implementation is used by one thread, the connection's, between its transaction's begin and end.
 */
public interface BulkWrite {
    /**
     * Writes into {@code tx}. A failure may leave part of the write in {@code tx}; the caller
     * then rolls the transaction back.
     *
     * @param lexicon the transaction's lexicon writer (its only user while this runs)
     * @param orders  the store's statement index orders, primary first
     * @return the number of statements that were new to the store
     */
    long write(WriteTransaction tx, LexiconWriter lexicon, List<QuadOrder> orders);
}
