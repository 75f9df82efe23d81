package dev.basalt.optimizer.access;

import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.lexicon.DerivedNumbers;

/**
 * A bounded cache shared by every query of a store, from ids of committed terms to the values one
 * pure function derives from those terms (see {@link QuadSource#derivedValues}). It may forget an
 * entry at any time; a value read is always the one put for that id.
 *
 * <p>Thread-safe: queries on any threads read and fill it at once.
 */
public interface DerivedValues {
    /** The value held for {@code id}, or null. */
    Value get(long id);

    /** Holds {@code value} (not null) for {@code id}. */
    void put(long id, Value value);

    /**
     * The store's table of the same function's numeric values as packed {@code long}s (the packing is
     * the caller's; {@code AggregateArg} keeps exact decimals there), read without an object per id;
     * null where the source has none (the default).
     */
    default DerivedNumbers numbers() {
        return null;
    }
}
