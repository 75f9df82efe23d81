package dev.basalt.sail.inference;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.basalt.store.lexicon.TermIds;

/**
 * The TBox compiled into lookup tables on term ids, one per rule, plus the schema triples it
 * entails (transitive subclass and subproperty closures, the subclass axioms that equivalent
 * classes and intersections imply, the subproperty axioms of equivalent properties).
 *
 * <p>The RDF and RDFS axioms ({@link RdfsAxioms}) count as explicit schema statements, and so do
 * the subproperty and subclass axioms that rdfs12 and rdfs13 conclude from an explicit typing as
 * {@code rdfs:ContainerMembershipProperty} or {@code rdfs:Datatype}.
 *
 * <p>The schema is read from the <em>explicit</em> statements only: a schema statement that only
 * instance rules derive (say through a subproperty of {@code rdfs:subClassOf}) is stored in the
 * closure but not compiled into the tables. Immutable once built.
 */
final class Schema {
    /** Restriction class x with owl:onProperty p and owl:someValuesFrom / owl:hasValue filler. */
    record Restriction(long restriction, long property, long filler) {
    }

    /** An intersection class and its member classes. */
    record Intersection(long intersection, long[] members) {
    }

    private static final long[] NONE = new long[0];
    final Vocabulary v;
    final boolean owl;
    /** Strict superclasses / superproperties (transitive), and the inverse maps. */
    final Map<Long, long[]> superClasses;
    final Map<Long, long[]> subClasses;
    final Map<Long, long[]> superProperties;
    final Map<Long, long[]> subProperties;
    final Map<Long, long[]> domains;
    final Map<Long, long[]> ranges;
    final Map<Long, long[]> propertiesWithDomain;
    final Map<Long, long[]> propertiesWithRange;
    final Set<Long> transitive;
    final Set<Long> symmetric;
    final Map<Long, long[]> inverses;
    final Map<Long, List<Restriction>> someValuesByProperty;
    final Map<Long, List<Restriction>> someValuesByFiller;
    final Map<Long, List<Restriction>> someValuesByClass;
    final Map<Long, List<Restriction>> hasValueByProperty;
    final Map<Long, List<Restriction>> hasValueByClass;
    final Map<Long, List<Intersection>> intersections;
    final Map<Long, List<Intersection>> intersectionsByMember;
    /** The schema triples the schema rules entail, explicit ones included. */
    final TripleSet entailed = new TripleSet();

    private Schema(Vocabulary v, boolean owl, SchemaReader r) {
        this.v = v;
        this.owl = owl;
        Map<Long, Set<Long>> classEdges = edges(pairs(r, v.subClassOf));
        Map<Long, Set<Long>> propertyEdges = edges(pairs(r, v.subPropertyOf));
        for (long d : r.subjects(v.type, v.datatype)) {
            edge(classEdges, d, v.literal); // rdfs13
        }
        for (long p : r.subjects(v.type, v.membershipProperty)) {
            edge(propertyEdges, p, v.member); // rdfs12
        }
        List<Intersection> ints = new ArrayList<>();
        if (owl) {
            for (long[] e : r.pairs(v.equivalentClass)) {
                edge(classEdges, e[0], e[1]);
                edge(classEdges, e[1], e[0]);
            }
            for (long[] e : r.pairs(v.equivalentProperty)) {
                edge(propertyEdges, e[0], e[1]);
                edge(propertyEdges, e[1], e[0]);
            }
            for (long[] e : r.pairs(v.intersectionOf)) {
                long[] members = r.list(e[1]);
                if (members != null && members.length > 0) {
                    ints.add(new Intersection(e[0], members));
                    for (long m : members) {
                        edge(classEdges, e[0], m);
                    }
                }
            }
        }
        superClasses = closure(classEdges);
        subClasses = invert(superClasses);
        superProperties = closure(propertyEdges);
        subProperties = invert(superProperties);
        add(superClasses, v.subClassOf);
        add(superProperties, v.subPropertyOf);
        domains = arrays(edges(pairs(r, v.domain)));
        ranges = arrays(edges(pairs(r, v.range)));
        for (long[] a : v.axioms) {
            entailed.add(a[0], a[1], a[2]);
        }
        propertiesWithDomain = invert(domains);
        propertiesWithRange = invert(ranges);
        Map<Long, Set<Long>> inv = new HashMap<>();
        Set<Long> trans = new HashSet<>();
        Set<Long> sym = new HashSet<>();
        Map<Long, List<Restriction>> svfP = new HashMap<>();
        Map<Long, List<Restriction>> svfF = new HashMap<>();
        Map<Long, List<Restriction>> svfC = new HashMap<>();
        Map<Long, List<Restriction>> hvP = new HashMap<>();
        Map<Long, List<Restriction>> hvC = new HashMap<>();
        Map<Long, List<Intersection>> intByClass = new HashMap<>();
        Map<Long, List<Intersection>> intByMember = new HashMap<>();
        if (owl) {
            for (long[] e : r.pairs(v.inverseOf)) {
                edge(inv, e[0], e[1]);
                edge(inv, e[1], e[0]);
            }
            trans.addAll(r.subjects(v.type, v.transitiveProperty));
            sym.addAll(r.subjects(v.type, v.symmetricProperty));
            Map<Long, Set<Long>> onProperty = edges(r.pairs(v.onProperty));
            for (long[] e : r.pairs(v.someValuesFrom)) {
                for (long p : onProperty.getOrDefault(e[0], Set.of())) {
                    Restriction x = new Restriction(e[0], p, e[1]);
                    svfP.computeIfAbsent(p, k -> new ArrayList<>()).add(x);
                    svfF.computeIfAbsent(e[1], k -> new ArrayList<>()).add(x);
                    svfC.computeIfAbsent(e[0], k -> new ArrayList<>()).add(x);
                }
            }
            for (long[] e : r.pairs(v.hasValue)) {
                for (long p : onProperty.getOrDefault(e[0], Set.of())) {
                    Restriction x = new Restriction(e[0], p, e[1]);
                    hvP.computeIfAbsent(p, k -> new ArrayList<>()).add(x);
                    hvC.computeIfAbsent(e[0], k -> new ArrayList<>()).add(x);
                }
            }
            for (Intersection i : ints) {
                intByClass.computeIfAbsent(i.intersection(), k -> new ArrayList<>()).add(i);
                for (long m : i.members()) {
                    intByMember.computeIfAbsent(m, k -> new ArrayList<>()).add(i);
                }
            }
        }
        inverses = arrays(inv);
        transitive = Set.copyOf(trans);
        symmetric = Set.copyOf(sym);
        someValuesByProperty = svfP;
        someValuesByFiller = svfF;
        someValuesByClass = svfC;
        hasValueByProperty = hvP;
        hasValueByClass = hvC;
        intersections = intByClass;
        intersectionsByMember = intByMember;
    }

    /** The explicit statements' pairs of a schema predicate, with the axioms' ({@link RdfsAxioms}). */
    private List<long[]> pairs(SchemaReader r, long predicate) {
        List<long[]> out = new ArrayList<>(r.pairs(predicate));
        for (long[] a : v.axioms) {
            if (a[1] == predicate) {
                out.add(new long[] { a[0], a[2] });
            }
        }
        return out;
    }

    /** Compiles the schema of the explicit statements of {@code store}. */
    static Schema read(ClosureStore store, Vocabulary v, boolean owl) {
        return new Schema(v, owl, new SchemaReader(store, v));
    }

    /** True if a triple's addition or removal changes the compiled schema (then the closure is recomputed). */
    static boolean isSchemaTriple(Vocabulary v, boolean owl, long s, long p, long o) {
        if (p == v.subClassOf || p == v.subPropertyOf || p == v.domain || p == v.range
                || p == v.type && (o == v.datatype || o == v.membershipProperty)) {
            return true;
        }
        if (!owl) {
            return false;
        }
        return p == v.equivalentClass || p == v.equivalentProperty || p == v.inverseOf || p == v.intersectionOf
                || p == v.onProperty || p == v.someValuesFrom || p == v.hasValue || p == v.first || p == v.rest
                || p == v.type && (o == v.transitiveProperty || o == v.symmetricProperty);
    }

    static long[] get(Map<Long, long[]> map, long key) {
        long[] a = map.get(key);
        return a != null ? a : NONE;
    }

    private void add(Map<Long, long[]> closure, long predicate) {
        for (Map.Entry<Long, long[]> e : closure.entrySet()) {
            for (long sup : e.getValue()) {
                entailed.add(e.getKey(), predicate, sup);
            }
        }
    }

    private static Map<Long, Set<Long>> edges(List<long[]> pairs) {
        Map<Long, Set<Long>> m = new HashMap<>();
        for (long[] e : pairs) {
            edge(m, e[0], e[1]);
        }
        return m;
    }

    /** Adds an axiom's edge unless it points at a literal, which names no class or property. */
    private static void edge(Map<Long, Set<Long>> m, long from, long to) {
        if (TermIds.isResource(to)) {
            m.computeIfAbsent(from, k -> new HashSet<>()).add(to);
        }
    }

    /** Transitive closure of the edges: every node reachable in one or more steps (itself only on a cycle). */
    private static Map<Long, long[]> closure(Map<Long, Set<Long>> edges) {
        Map<Long, long[]> out = new HashMap<>();
        for (Long start : edges.keySet()) {
            Set<Long> seen = new HashSet<>();
            ArrayDeque<Long> todo = new ArrayDeque<>(edges.get(start));
            while (!todo.isEmpty()) {
                Long n = todo.poll();
                if (seen.add(n)) {
                    todo.addAll(edges.getOrDefault(n, Set.of()));
                }
            }
            out.put(start, seen.stream().mapToLong(Long::longValue).toArray());
        }
        return out;
    }

    private static Map<Long, long[]> arrays(Map<Long, Set<Long>> m) {
        Map<Long, long[]> out = new HashMap<>();
        m.forEach((k, s) -> out.put(k, s.stream().mapToLong(Long::longValue).toArray()));
        return out;
    }

    private static Map<Long, long[]> invert(Map<Long, long[]> m) {
        Map<Long, Set<Long>> inv = new HashMap<>();
        m.forEach((k, a) -> {
            for (long x : a) {
                edge(inv, x, k);
            }
        });
        return arrays(inv);
    }
}
