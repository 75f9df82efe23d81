package dev.basalt.optimizer.rdf4j;

import org.eclipse.rdf4j.model.Value;

/**
 * A graph answer's statements as term ids, for a writer that keeps the encoded forms of terms by id and so needs the
 * terms themselves only for ids it has not met before: the same statements, in the same order, as the rows of the
 * iteration that offers this view ({@code subject}, {@code predicate}, {@code object}). A reader takes either view, not
 * both: the ids it reads here are no longer rows there.
 *
 * <p>The ids are those of the state the answer reads. Of a committed state (the kept plans' direct route) an id names
 * one term for as long as the store is open, so its encoded form may be kept that long; inside a transaction an id may
 * name a pending term, whose encoded form is not to be kept.
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
