package dev.basalt.sail.inference;

import java.util.function.ToLongFunction;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.vocabulary.OWL;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.RDFS;

import dev.basalt.store.lexicon.TermIds;

/**
 * The term ids of the RDF, RDFS and OWL terms the rules use, resolved once per closure run in the
 * open write transaction (terms missing from the dictionary are created, so a derived
 * {@code rdf:type} always has an id). Resolved on the thread that holds the write transaction and
 * not changed afterwards.
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

    Vocabulary(ToLongFunction<IRI> ids) {
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

    /** True for ids of IRIs, blank nodes and triple terms: what may stand in subject position. */
    static boolean isResource(long id) {
        int kind = TermIds.kindCode(id);
        return kind == TermIds.KIND_IRI || kind == TermIds.KIND_BLANK_NODE || kind == TermIds.KIND_TRIPLE;
    }
}
