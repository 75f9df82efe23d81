package dev.basalt.sail.inference;

import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;

/**
 * The dictionary of the transaction a closure run works in, as the reasoner needs it: the ids of
 * the vocabulary's terms (created if missing, so a conclusion always has ids) and the terms of the
 * ids it must look at by their text (a predicate that may be a container membership property
 * {@code rdf:_n}). Called only on the thread that holds the transaction.
 */
public interface ReasonerTerms {
    /** The id of {@code iri}, created in the transaction if the dictionary lacks it. */
    long id(IRI iri);

    /** The term of an id of this transaction's dictionary. */
    Value value(long id);

    static ReasonerTerms of(ToLongFunction<IRI> ids, LongFunction<Value> values) {
        return new ReasonerTerms() {
            @Override
            public long id(IRI iri) {
                return ids.applyAsLong(iri);
            }

            @Override
            public Value value(long id) {
                return values.apply(id);
            }
        };
    }
}
