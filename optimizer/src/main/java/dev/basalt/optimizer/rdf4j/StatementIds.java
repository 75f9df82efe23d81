package dev.basalt.optimizer.rdf4j;

import org.eclipse.rdf4j.model.Value;

/**
 * A graph answer's statements as term ids, for a writer that keeps the encoded forms of terms by id and so needs the
 * terms themselves only for ids it has not met before: the same statements, in the same order, as the rows of the
 * iteration that offers this view ({@code subject}, {@code predicate}, {@code object}). A reader takes either view, not
 * both: the ids it reads here are no longer rows there.
 *
 * <p>Ids are those of the store's committed state the answer reads; a store never gives an id to another term, so an
 * id's encoded form may be kept for as long as the store is open.
 *
 * <p>Not thread-safe: read by the thread that writes the answer.
 */
public interface StatementIds {
    /**
     * Reads the next statements into {@code spo}, three ids each (subject, predicate, object), at most
     * {@code spo.length / 3}; answers how many, 0 when the answer is complete.
     */
    int nextIds(long[] spo);

    /** The terms of {@code ids}, index-aligned: one batch read of the store's dictionary. */
    Value[] terms(long[] ids);
}
