package dev.basalt.federation;

import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Which statements make their subject a <em>replicated</em> subject: one whose statements the loader
 * sends to every member instead of to its owner only, so that a member answers patterns over it on
 * its own (an ontology's classes, properties and axioms; optionally the instances of configured
 * small classes or the subjects of configured predicates).
 *
 * <p>A statement is a replication statement when its predicate is one of the schema predicates below
 * (or a configured one), or when it is {@code rdf:type} with one of the schema classes below (or a
 * configured class) as object. Its subject is then replicated, with every statement it has:
 * <ul>
 * <li>schema predicates: {@code rdfs:subClassOf}, {@code rdfs:subPropertyOf}, {@code rdfs:domain},
 * {@code rdfs:range}, {@code owl:equivalentClass}, {@code owl:equivalentProperty}, {@code owl:inverseOf},
 * {@code owl:onProperty}, {@code owl:someValuesFrom}, {@code owl:allValuesFrom}, {@code owl:hasValue},
 * {@code owl:intersectionOf}, {@code owl:unionOf}, {@code owl:complementOf}, {@code owl:disjointWith},
 * {@code owl:propertyChainAxiom}, {@code owl:imports}, {@code rdf:first}, {@code rdf:rest} (the lists of
 * {@code owl:intersectionOf} and {@code owl:unionOf});</li>
 * <li>schema classes: {@code rdfs:Class}, {@code owl:Class}, {@code rdf:Property},
 * {@code owl:ObjectProperty}, {@code owl:DatatypeProperty}, {@code owl:AnnotationProperty},
 * {@code owl:TransitiveProperty}, {@code owl:SymmetricProperty}, {@code owl:FunctionalProperty},
 * {@code owl:InverseFunctionalProperty}, {@code owl:Restriction}, {@code owl:Ontology},
 * {@code rdfs:Datatype}, {@code rdfs:ContainerMembershipProperty}.</li>
 * </ul>
 * The loader ({@link ShardSplitter}) and the front ({@link StarEvaluator}) must be given the same
 * configured lists: the front sends a star that has a replication pattern (a constant predicate of
 * the list, or {@code rdf:type} with a constant class of the list) to one member only.
 *
 * <p>Immutable and thread-safe.
 */
public final class ReplicatedVocabulary {
    static final String RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
    static final String RDFS = "http://www.w3.org/2000/01/rdf-schema#";
    static final String OWL = "http://www.w3.org/2002/07/owl#";
    static final String TYPE = RDF + "type";

    private static final Set<String> SCHEMA_PREDICATES = Set.of(RDFS + "subClassOf", RDFS + "subPropertyOf",
            RDFS + "domain", RDFS + "range", OWL + "equivalentClass", OWL + "equivalentProperty", OWL + "inverseOf",
            OWL + "onProperty", OWL + "someValuesFrom", OWL + "allValuesFrom", OWL + "hasValue", OWL + "intersectionOf",
            OWL + "unionOf", OWL + "complementOf", OWL + "disjointWith", OWL + "propertyChainAxiom", OWL + "imports",
            RDF + "first", RDF + "rest");
    private static final Set<String> SCHEMA_CLASSES = Set.of(RDFS + "Class", OWL + "Class", RDF + "Property",
            OWL + "ObjectProperty", OWL + "DatatypeProperty", OWL + "AnnotationProperty", OWL + "TransitiveProperty",
            OWL + "SymmetricProperty", OWL + "FunctionalProperty", OWL + "InverseFunctionalProperty",
            OWL + "Restriction", OWL + "Ontology", RDFS + "Datatype", RDFS + "ContainerMembershipProperty");

    private static final ReplicatedVocabulary SCHEMA = new ReplicatedVocabulary(Set.of(), Set.of());

    private final Set<String> predicates;
    private final Set<String> classes;
    private final Set<String> configuredClasses;

    private ReplicatedVocabulary(Collection<String> extraPredicates, Collection<String> extraClasses) {
        Set<String> p = new LinkedHashSet<>(SCHEMA_PREDICATES);
        p.addAll(extraPredicates);
        Set<String> c = new LinkedHashSet<>(SCHEMA_CLASSES);
        c.addAll(extraClasses);
        this.predicates = Set.copyOf(p);
        this.classes = Set.copyOf(c);
        this.configuredClasses = Set.copyOf(extraClasses);
    }

    /** The schema vocabulary alone. */
    public static ReplicatedVocabulary schema() {
        return SCHEMA;
    }

    /** The schema vocabulary plus configured predicate and class IRIs (their subjects are replicated too). */
    public static ReplicatedVocabulary with(Collection<String> predicates, Collection<String> classes) {
        return predicates.isEmpty() && classes.isEmpty() ? SCHEMA : new ReplicatedVocabulary(predicates, classes);
    }

    /**
     * Whether a statement with this predicate IRI and this object (an IRI string, or null when the object
     * is not an IRI) makes its subject replicated.
     */
    public boolean replicates(String predicate, String objectIri) {
        return predicates.contains(predicate) || TYPE.equals(predicate) && objectIri != null && classes.contains(objectIri);
    }

    /** The classes given beyond the schema's, whose instances every member holds whole. */
    Set<String> configuredClasses() {
        return configuredClasses;
    }

    Set<String> predicates() {
        return predicates;
    }

    Set<String> classes() {
        return classes;
    }
}
