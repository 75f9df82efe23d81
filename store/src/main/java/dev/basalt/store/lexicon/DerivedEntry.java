package dev.basalt.store.lexicon;

import org.eclipse.rdf4j.model.Value;

/**
 * An entry of the lexicon's shared derived-value cache: the function's number, the term id and the
 * value derived ({@link DerivedCache}).
 *
 * <p>Thread rules: immutable.
 */
record DerivedEntry(int function, long id, Value value) {
}
