package dev.basalt.sail.write;

import java.util.List;
import java.util.function.Consumer;

import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.quads.QuadOrder;

/**
 * A write of many explicit statements straight into the store's open write transaction, for
 * {@code BasaltStoreConnection#addBulk}: the bulk loader's pipeline (parse in parallel chunks,
 * resolve terms in sorted batches, sort, build or merge the indices) instead of statement-by-statement
 * inserts. It writes the explicit statement trees ({@code SailLayout#explicitTree}), terms through
 * the given lexicon writer and namespaces, and never commits: the connection's transaction does.
 * A quad new to the store also removes an inferred copy of it, and is handed to the caller (for
 * the reasoner's maintenance of the closure at commit).
 * An implementation is used by one thread, the connection's, between its transaction's begin and end.
 */
public interface BulkWrite {
    /**
     * Writes into {@code tx}. A failure may leave part of the write in {@code tx}; the caller
     * then rolls the transaction back.
     *
     * @param lexicon the transaction's lexicon writer (its only user while this runs)
     * @param orders  the store's statement index orders, primary first
     * @param added   told each quad new to the store ({s, p, o, c}, an array it may reuse), in the
     *                primary order's key order
     * @return the number of statements that were new to the store
     */
    long write(WriteTransaction tx, LexiconWriter lexicon, List<QuadOrder> orders, Consumer<long[]> added);
}
