package dev.basalt.sail.inference;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.OWL;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.RDFS;

/**
 * A test oracle for the reasoner: the same rule set written again, as plainly as possible, over
 * RDF4J values: rules applied to every triple until nothing changes (naive evaluation), no ids, no
 * indices, no deltas. Schema statements are read from the explicit triples and the RDF/RDFS axioms,
 * as the reasoner does.
 */
final class NaiveClosure {
    /** A triple without context. */
    record T(Resource s, IRI p, Value o) {
    }

    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private final boolean owl;
    private final Set<T> explicit;

    private NaiveClosure(Set<T> explicit, boolean owl) {
        this.explicit = explicit;
        this.owl = owl;
    }

    static Set<T> triples(Iterable<? extends Statement> statements) {
        Set<T> out = new HashSet<>();
        for (Statement st : statements) {
            out.add(new T(st.getSubject(), st.getPredicate(), st.getObject()));
        }
        return out;
    }

    /** The closure (explicit triples included) of {@code explicit}. */
    static Set<T> of(Set<T> explicit, boolean owl) {
        return new NaiveClosure(explicit, owl).run();
    }

    /** Subject and object of each explicit triple and each RDF/RDFS axiom with predicate {@code p}. */
    private List<Value[]> pairs(IRI p) {
        List<Value[]> out = new ArrayList<>();
        for (T t : explicit) {
            if (t.p().equals(p)) {
                out.add(new Value[] { t.s(), t.o() });
            }
        }
        for (IRI[] a : RdfsAxioms.TRIPLES) {
            if (a[1].equals(p)) {
                out.add(new Value[] { a[0], a[2] });
            }
        }
        return out;
    }

    /** Subjects of explicit triples (?, rdf:type, c). */
    private List<Value> typedAs(IRI c) {
        List<Value> out = new ArrayList<>();
        for (T t : explicit) {
            if (t.p().equals(RDF.TYPE) && t.o().equals(c)) {
                out.add(t.s());
            }
        }
        return out;
    }

    private Value single(Value node, IRI p) {
        Value found = null;
        for (T t : explicit) {
            if (t.s().equals(node) && t.p().equals(p)) {
                if (found != null && !found.equals(t.o())) {
                    return null;
                }
                found = t.o();
            }
        }
        return found;
    }

    private List<Value> list(Value head) {
        List<Value> out = new ArrayList<>();
        Set<Value> seen = new HashSet<>();
        Value node = head;
        while (!RDF.NIL.equals(node)) {
            if (!seen.add(node)) {
                return null;
            }
            Value f = single(node, RDF.FIRST);
            Value r = single(node, RDF.REST);
            if (f == null || r == null) {
                return null;
            }
            out.add(f);
            node = r;
        }
        return out;
    }

    private Set<T> run() {
        Set<T> c = new HashSet<>(explicit);
        for (IRI[] a : RdfsAxioms.TRIPLES) {
            c.add(new T(a[0], a[1], a[2]));
        }
        Map<Value, Set<Value>> sub = new HashMap<>();
        Map<Value, Set<Value>> subP = new HashMap<>();
        pairs(RDFS.SUBCLASSOF).forEach(e -> edge(sub, e[0], e[1]));
        pairs(RDFS.SUBPROPERTYOF).forEach(e -> edge(subP, e[0], e[1]));
        typedAs(RDFS.DATATYPE).forEach(d -> edge(sub, d, RDFS.LITERAL));
        typedAs(RDFS.CONTAINERMEMBERSHIPPROPERTY).forEach(p -> edge(subP, p, RDFS.MEMBER));
        Map<Value, List<Value>> intersections = new HashMap<>();
        List<Value[]> intersectionList = new ArrayList<>();
        if (owl) {
            pairs(OWL.EQUIVALENTCLASS).forEach(e -> { edge(sub, e[0], e[1]); edge(sub, e[1], e[0]); });
            pairs(OWL.EQUIVALENTPROPERTY).forEach(e -> { edge(subP, e[0], e[1]); edge(subP, e[1], e[0]); });
            for (Value[] e : pairs(OWL.INTERSECTIONOF)) {
                List<Value> members = list(e[1]);
                if (members != null && !members.isEmpty()) {
                    intersectionList.add(new Value[] { e[0], e[1] });
                    intersections.put(e[1], members);
                    members.forEach(m -> edge(sub, e[0], m));
                }
            }
        }
        Map<Value, Set<Value>> supC = transitive(sub);
        Map<Value, Set<Value>> supP = transitive(subP);
        supC.forEach((k, vs) -> vs.forEach(x -> c.add(new T((Resource) k, RDFS.SUBCLASSOF, x))));
        supP.forEach((k, vs) -> vs.forEach(x -> c.add(new T((Resource) k, RDFS.SUBPROPERTYOF, x))));
        List<Value[]> domain = pairs(RDFS.DOMAIN), range = pairs(RDFS.RANGE);
        List<Value[]> inverse = owl ? pairs(OWL.INVERSEOF) : List.of();
        Set<Value> trans = new HashSet<>(), sym = new HashSet<>();
        List<Value[]> onProp = owl ? pairs(OWL.ONPROPERTY) : List.of();
        List<Value[]> svf = owl ? pairs(OWL.SOMEVALUESFROM) : List.of();
        List<Value[]> hv = owl ? pairs(OWL.HASVALUE) : List.of();
        if (owl) {
            for (T t : explicit) {
                if (t.p().equals(RDF.TYPE) && t.o().equals(OWL.TRANSITIVEPROPERTY)) {
                    trans.add(t.s());
                }
                if (t.p().equals(RDF.TYPE) && t.o().equals(OWL.SYMMETRICPROPERTY)) {
                    sym.add(t.s());
                }
            }
        }
        boolean changed = true;
        while (changed) {
            Set<T> add = new HashSet<>();
            for (T t : c) {
                add.add(new T(t.s(), RDF.TYPE, RDFS.RESOURCE));
                add.add(new T(t.p(), RDF.TYPE, RDF.PROPERTY));
                if (t.o() instanceof Resource o) {
                    add.add(new T(o, RDF.TYPE, RDFS.RESOURCE));
                }
                if (isMembershipProperty(t.p())) {
                    add.add(new T(t.p(), RDF.TYPE, RDFS.CONTAINERMEMBERSHIPPROPERTY));
                    add.add(new T(t.s(), RDFS.MEMBER, t.o()));
                }
                if (t.p().equals(RDF.TYPE)) {
                    Resource x = t.s();
                    if (t.o().equals(RDF.PROPERTY)) {
                        add.add(new T(x, RDFS.SUBPROPERTYOF, x));
                    } else if (t.o().equals(RDFS.CLASS)) {
                        add.add(new T(x, RDFS.SUBCLASSOF, RDFS.RESOURCE));
                        add.add(new T(x, RDFS.SUBCLASSOF, x));
                    } else if (t.o().equals(RDFS.CONTAINERMEMBERSHIPPROPERTY)) {
                        add.add(new T(x, RDFS.SUBPROPERTYOF, RDFS.MEMBER));
                    } else if (t.o().equals(RDFS.DATATYPE)) {
                        add.add(new T(x, RDFS.SUBCLASSOF, RDFS.LITERAL));
                    }
                }
                for (Value q : supP.getOrDefault(t.p(), Set.of())) {
                    if (q instanceof IRI qi) {
                        add.add(new T(t.s(), qi, t.o()));
                    }
                }
                for (Value[] d : domain) {
                    if (d[0].equals(t.p())) {
                        add.add(new T(t.s(), RDF.TYPE, d[1]));
                    }
                }
                for (Value[] r : range) {
                    if (r[0].equals(t.p()) && t.o() instanceof Resource o) {
                        add.add(new T(o, RDF.TYPE, r[1]));
                    }
                }
                if (t.p().equals(RDF.TYPE)) {
                    for (Value d : supC.getOrDefault(t.o(), Set.of())) {
                        add.add(new T(t.s(), RDF.TYPE, d));
                    }
                }
                if (!owl) {
                    continue;
                }
                if (t.o() instanceof Resource o) {
                    if (sym.contains(t.p())) {
                        add.add(new T(o, t.p(), t.s()));
                    }
                    for (Value[] i : inverse) {
                        if (i[0].equals(t.p())) {
                            add.add(new T(o, (IRI) i[1], t.s()));
                        }
                        if (i[1].equals(t.p())) {
                            add.add(new T(o, (IRI) i[0], t.s()));
                        }
                    }
                    if (trans.contains(t.p())) {
                        for (T u : c) {
                            if (u.p().equals(t.p()) && u.s().equals(o)) {
                                add.add(new T(t.s(), t.p(), u.o()));
                            }
                        }
                    }
                }
                for (Value[] on : onProp) {
                    if (!on[1].equals(t.p())) {
                        continue;
                    }
                    for (Value[] f : svf) {
                        if (f[0].equals(on[0]) && (f[1].equals(OWL.THING) || c.contains(typed(t.o(), f[1])))) {
                            add.add(new T(t.s(), RDF.TYPE, on[0]));
                        }
                    }
                    for (Value[] f : hv) {
                        if (f[0].equals(on[0]) && f[1].equals(t.o())) {
                            add.add(new T(t.s(), RDF.TYPE, on[0]));
                        }
                    }
                }
                if (t.p().equals(RDF.TYPE)) {
                    for (Value[] on : onProp) {
                        for (Value[] f : hv) {
                            if (f[0].equals(on[0]) && f[0].equals(t.o())) {
                                add.add(new T(t.s(), (IRI) on[1], f[1]));
                            }
                        }
                    }
                    for (Value[] i : intersectionList) {
                        if (intersections.get(i[1]).stream().allMatch(m -> c.contains(new T(t.s(), RDF.TYPE, m)))) {
                            add.add(new T(t.s(), RDF.TYPE, i[0]));
                        }
                    }
                }
            }
            add.removeIf(t -> t.p().equals(RDF.TYPE) && !(t.o() instanceof Resource));
            changed = c.addAll(add);
        }
        return c;
    }

    /** rdf:_1, rdf:_2, ...: the RDF namespace, an underscore, a decimal number from 1 without leading zeros. */
    private static boolean isMembershipProperty(IRI p) {
        return p.stringValue().matches(java.util.regex.Pattern.quote(RDF.NAMESPACE) + "_[1-9][0-9]*");
    }

    private static T typed(Value v, Value type) {
        return v instanceof Resource r ? new T(r, RDF.TYPE, type) : new T(VF.createIRI("urn:none:literal"), RDF.TYPE, type);
    }

    private static void edge(Map<Value, Set<Value>> m, Value a, Value b) {
        if (b instanceof Resource) {
            m.computeIfAbsent(a, k -> new HashSet<>()).add(b);
        }
    }

    private static Map<Value, Set<Value>> transitive(Map<Value, Set<Value>> edges) {
        Map<Value, Set<Value>> out = new HashMap<>();
        for (Value start : edges.keySet()) {
            Set<Value> seen = new HashSet<>();
            List<Value> todo = new ArrayList<>(edges.get(start));
            while (!todo.isEmpty()) {
                Value n = todo.remove(todo.size() - 1);
                if (seen.add(n)) {
                    todo.addAll(edges.getOrDefault(n, Set.of()));
                }
            }
            out.put(start, seen);
        }
        return out;
    }
}
