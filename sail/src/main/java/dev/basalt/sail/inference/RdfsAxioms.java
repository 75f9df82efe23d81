package dev.basalt.sail.inference;

import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.RDFS;

/**
 * The RDF and RDFS axiomatic triples (RDF 1.1 Semantics, sections 8 and 9.1) that the rules use,
 * without the infinitely many about the container membership properties {@code rdf:_n}: the
 * typings of the RDF vocabulary's properties, the domains and ranges of the RDF and RDFS
 * properties, and the RDFS subclass and subproperty axioms. Every closure holds them (as inferred
 * statements, unless explicit), and the schema tables count them as if they were explicit.
 * Immutable.
 */
final class RdfsAxioms {
    private RdfsAxioms() {
    }

    /** Each axiom as {subject, predicate, object}. */
    static final List<IRI[]> TRIPLES = List.of(
            // RDF axiomatic triples
            t(RDF.TYPE, RDF.TYPE, RDF.PROPERTY), t(RDF.SUBJECT, RDF.TYPE, RDF.PROPERTY),
            t(RDF.PREDICATE, RDF.TYPE, RDF.PROPERTY), t(RDF.OBJECT, RDF.TYPE, RDF.PROPERTY),
            t(RDF.FIRST, RDF.TYPE, RDF.PROPERTY), t(RDF.REST, RDF.TYPE, RDF.PROPERTY),
            t(RDF.VALUE, RDF.TYPE, RDF.PROPERTY), t(RDF.NIL, RDF.TYPE, RDF.LIST),
            t(RDF.XMLLITERAL, RDF.TYPE, RDFS.DATATYPE),
            // RDFS domains
            t(RDF.TYPE, RDFS.DOMAIN, RDFS.RESOURCE), t(RDFS.DOMAIN, RDFS.DOMAIN, RDF.PROPERTY),
            t(RDFS.RANGE, RDFS.DOMAIN, RDF.PROPERTY), t(RDFS.SUBPROPERTYOF, RDFS.DOMAIN, RDF.PROPERTY),
            t(RDFS.SUBCLASSOF, RDFS.DOMAIN, RDFS.CLASS), t(RDF.SUBJECT, RDFS.DOMAIN, RDF.STATEMENT),
            t(RDF.PREDICATE, RDFS.DOMAIN, RDF.STATEMENT), t(RDF.OBJECT, RDFS.DOMAIN, RDF.STATEMENT),
            t(RDFS.MEMBER, RDFS.DOMAIN, RDFS.RESOURCE), t(RDF.FIRST, RDFS.DOMAIN, RDF.LIST),
            t(RDF.REST, RDFS.DOMAIN, RDF.LIST), t(RDFS.SEEALSO, RDFS.DOMAIN, RDFS.RESOURCE),
            t(RDFS.ISDEFINEDBY, RDFS.DOMAIN, RDFS.RESOURCE), t(RDFS.COMMENT, RDFS.DOMAIN, RDFS.RESOURCE),
            t(RDFS.LABEL, RDFS.DOMAIN, RDFS.RESOURCE), t(RDF.VALUE, RDFS.DOMAIN, RDFS.RESOURCE),
            // RDFS ranges
            t(RDF.TYPE, RDFS.RANGE, RDFS.CLASS), t(RDFS.DOMAIN, RDFS.RANGE, RDFS.CLASS),
            t(RDFS.RANGE, RDFS.RANGE, RDFS.CLASS), t(RDFS.SUBPROPERTYOF, RDFS.RANGE, RDF.PROPERTY),
            t(RDFS.SUBCLASSOF, RDFS.RANGE, RDFS.CLASS), t(RDF.SUBJECT, RDFS.RANGE, RDFS.RESOURCE),
            t(RDF.PREDICATE, RDFS.RANGE, RDFS.RESOURCE), t(RDF.OBJECT, RDFS.RANGE, RDFS.RESOURCE),
            t(RDFS.MEMBER, RDFS.RANGE, RDFS.RESOURCE), t(RDF.FIRST, RDFS.RANGE, RDFS.RESOURCE),
            t(RDF.REST, RDFS.RANGE, RDF.LIST), t(RDFS.SEEALSO, RDFS.RANGE, RDFS.RESOURCE),
            t(RDFS.ISDEFINEDBY, RDFS.RANGE, RDFS.RESOURCE), t(RDFS.COMMENT, RDFS.RANGE, RDFS.LITERAL),
            t(RDFS.LABEL, RDFS.RANGE, RDFS.LITERAL), t(RDF.VALUE, RDFS.RANGE, RDFS.RESOURCE),
            // RDFS subclasses and subproperties
            t(RDF.ALT, RDFS.SUBCLASSOF, RDFS.CONTAINER), t(RDF.BAG, RDFS.SUBCLASSOF, RDFS.CONTAINER),
            t(RDF.SEQ, RDFS.SUBCLASSOF, RDFS.CONTAINER),
            t(RDFS.CONTAINERMEMBERSHIPPROPERTY, RDFS.SUBCLASSOF, RDF.PROPERTY),
            t(RDFS.ISDEFINEDBY, RDFS.SUBPROPERTYOF, RDFS.SEEALSO), t(RDFS.DATATYPE, RDFS.SUBCLASSOF, RDFS.CLASS));

    private static IRI[] t(IRI s, IRI p, IRI o) {
        return new IRI[] { s, p, o };
    }
}
