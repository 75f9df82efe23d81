package dev.basalt.sail.inference;

import java.util.function.ToLongFunction;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.OWL;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.RDFS;

import dev.basalt.store.lexicon.TermIds;

/**
 * The term ids of the RDF, RDFS and OWL terms the rules use, resolved once per closure run in the
 * open write transaction (terms missing from the dictionary are created, so a derived
 * {@code rdf:type} always has an id). Resolved on the thread that holds the write transaction and
 * not changed afterwards, except the memo of {@link #isMembershipProperty}, which only that thread
 * uses.
 */
final class Vocabulary {
    final long type;
    final long subClassOf;
    final long subPropertyOf;
    final long domain;
    final long range;
    final long first;
    final long rest;
    final long nil;
    final long equivalentClass;
    final long equivalentProperty;
    final long inverseOf;
    final long transitiveProperty;
    final long symmetricProperty;
    final long intersectionOf;
    final long onProperty;
    final long someValuesFrom;
    final long hasValue;
    final long thing;
    final long resource;
    final long property;
    final long rdfsClass;
    final long literal;
    final long datatype;
    final long member;
    final long membershipProperty;
    /** The RDF and RDFS axiomatic triples ({@link RdfsAxioms}), three ids each. */
    final long[][] axioms;
    private final ReasonerTerms terms;
    /**
     * Predicate ids looked at so far, for {@link #isMembershipProperty}: open addressing over the
     * ids (0 marks a free slot), with the answer beside each (1 = membership property, 2 = not).
     */
    private long[] memoIds = new long[64];
    private byte[] memoAnswers = new byte[64];
    private int memoSize;

    Vocabulary(ReasonerTerms terms) {
        this.terms = terms;
        ToLongFunction<IRI> ids = terms::id;
        type = ids.applyAsLong(RDF.TYPE);
        subClassOf = ids.applyAsLong(RDFS.SUBCLASSOF);
        subPropertyOf = ids.applyAsLong(RDFS.SUBPROPERTYOF);
        domain = ids.applyAsLong(RDFS.DOMAIN);
        range = ids.applyAsLong(RDFS.RANGE);
        first = ids.applyAsLong(RDF.FIRST);
        rest = ids.applyAsLong(RDF.REST);
        nil = ids.applyAsLong(RDF.NIL);
        equivalentClass = ids.applyAsLong(OWL.EQUIVALENTCLASS);
        equivalentProperty = ids.applyAsLong(OWL.EQUIVALENTPROPERTY);
        inverseOf = ids.applyAsLong(OWL.INVERSEOF);
        transitiveProperty = ids.applyAsLong(OWL.TRANSITIVEPROPERTY);
        symmetricProperty = ids.applyAsLong(OWL.SYMMETRICPROPERTY);
        intersectionOf = ids.applyAsLong(OWL.INTERSECTIONOF);
        onProperty = ids.applyAsLong(OWL.ONPROPERTY);
        someValuesFrom = ids.applyAsLong(OWL.SOMEVALUESFROM);
        hasValue = ids.applyAsLong(OWL.HASVALUE);
        thing = ids.applyAsLong(OWL.THING);
        resource = ids.applyAsLong(RDFS.RESOURCE);
        property = ids.applyAsLong(RDF.PROPERTY);
        rdfsClass = ids.applyAsLong(RDFS.CLASS);
        literal = ids.applyAsLong(RDFS.LITERAL);
        datatype = ids.applyAsLong(RDFS.DATATYPE);
        member = ids.applyAsLong(RDFS.MEMBER);
        membershipProperty = ids.applyAsLong(RDFS.CONTAINERMEMBERSHIPPROPERTY);
        axioms = new long[RdfsAxioms.TRIPLES.size()][];
        for (int i = 0; i < axioms.length; i++) {
            IRI[] a = RdfsAxioms.TRIPLES.get(i);
            axioms[i] = new long[] { ids.applyAsLong(a[0]), ids.applyAsLong(a[1]), ids.applyAsLong(a[2]) };
        }
    }

    /**
     * True if {@code id} is a container membership property {@code rdf:_n} (n a decimal integer of
     * at least 1 without leading zeros). An id not yet noted is looked up in the dictionary, which
     * only the thread holding the transaction may do.
     */
    boolean isMembershipProperty(long id) {
        int mask = memoIds.length - 1;
        int i = (int) (id * 0x9E3779B97F4A7C15L >>> 40) & mask;
        while (memoIds[i] != 0) {
            if (memoIds[i] == id) {
                return memoAnswers[i] == 1;
            }
            i = (i + 1) & mask;
        }
        boolean answer = TermIds.kindCode(id) == TermIds.KIND_IRI && isMembershipName(terms.value(id));
        remember(id, answer);
        return answer;
    }

    private void remember(long id, boolean answer) {
        if (2 * (memoSize + 1) > memoIds.length) {
            long[] ids = memoIds;
            byte[] answers = memoAnswers;
            memoIds = new long[ids.length * 2];
            memoAnswers = new byte[ids.length * 2];
            memoSize = 0;
            for (int k = 0; k < ids.length; k++) {
                if (ids[k] != 0) {
                    remember(ids[k], answers[k] == 1);
                }
            }
        }
        int mask = memoIds.length - 1;
        int i = (int) (id * 0x9E3779B97F4A7C15L >>> 40) & mask;
        while (memoIds[i] != 0) {
            i = (i + 1) & mask;
        }
        memoIds[i] = id;
        memoAnswers[i] = (byte) (answer ? 1 : 2);
        memoSize++;
    }

    private static boolean isMembershipName(Value value) {
        if (!(value instanceof IRI iri)) {
            return false;
        }
        String text = iri.stringValue();
        int start = RDF.NAMESPACE.length() + 1;
        if (text.length() <= start || !text.startsWith(RDF.NAMESPACE) || text.charAt(start - 1) != '_'
                || text.charAt(start) == '0') {
            return false;
        }
        for (int i = start; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
