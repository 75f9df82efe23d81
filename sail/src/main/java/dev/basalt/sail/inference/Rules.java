package dev.basalt.sail.inference;

import java.util.Arrays;
import java.util.List;

import dev.basalt.store.lexicon.TermIds;

/**
 * The instance rules, on term ids, against a compiled {@link Schema} and the closure in a
 * {@link ClosureStore}. {@link #forward} applies every rule with a given triple as one premise
 * (the pivot of a semi-naive round) and the other premises taken from the store; {@link #derivable}
 * asks whether a triple follows in one step from the store (the rederive step of
 * delete-and-rederive). The two must stay mirror images of each other: each rule appears in both.
 *
 * <p>Rules (names from the RDF 1.1 Semantics and OWL 2 RL tables): rdf1 (property typing), the
 * container membership rule ({@code x rdf:_n y} types {@code rdf:_n} as a
 * {@code rdfs:ContainerMembershipProperty} and concludes {@code x rdfs:member y}), rdfs2
 * (domain), rdfs3 (range), rdfs4a/b (resource typing), rdfs6, rdfs8, rdfs10, rdfs12 and rdfs13
 * (axioms of a typing by an RDFS class), rdfs7 (subproperty), rdfs9 (subclass); with OWL: prp-trp,
 * prp-symp, prp-inv1/2, cls-int1, cls-svf1 (with owl:Thing as filler also cls-svf2), cls-hv1,
 * cls-hv2. cls-int2, cax-eqc1/2 and prp-eqp1/2 run as rdfs9/rdfs7 over the subclass and
 * subproperty axioms the schema entails.
 * Conclusions with a literal subject are dropped. Not thread-safe (one per closure run).
 */
final class Rules {
    private final Schema schema;
    private final Vocabulary v;
    private final ClosureStore store;
    private final TripleList scratch = new TripleList();

    /**
     * @param v the vocabulary of this run's transaction (a schema kept from an earlier commit
     *          holds the same ids, but its dictionary belongs to that commit's transaction)
     */
    Rules(Schema schema, Vocabulary v, ClosureStore store) {
        this.schema = schema;
        this.v = v;
        this.store = store;
    }

    /** The id of {@code rdf:type}. */
    long typeId() {
        return v.type;
    }

    /** Appends to {@code out} every conclusion of a rule with (s, p, o) as one premise. */
    void forward(long s, long p, long o, TripleList out) {
        out.add(s, v.type, v.resource);
        out.add(p, v.type, v.property);
        if (TermIds.isResource(o)) {
            out.add(o, v.type, v.resource);
        }
        if (p == v.type) {
            vocabularyTyping(s, o, out);
        }
        if (v.isMembershipProperty(p)) {
            out.add(p, v.type, v.membershipProperty);
            out.add(s, v.member, o);
        }
        for (long q : Schema.get(schema.superProperties, p)) {
            out.add(s, q, o);
        }
        for (long c : Schema.get(schema.domains, p)) {
            out.add(s, v.type, c);
        }
        boolean resourceObject = TermIds.isResource(o);
        if (resourceObject) {
            for (long c : Schema.get(schema.ranges, p)) {
                out.add(o, v.type, c);
            }
        }
        if (p == v.type) {
            for (long d : Schema.get(schema.superClasses, o)) {
                out.add(s, v.type, d);
            }
        }
        if (!schema.owl) {
            return;
        }
        if (resourceObject) {
            if (schema.symmetric.contains(p)) {
                out.add(o, p, s);
            }
            for (long q : Schema.get(schema.inverses, p)) {
                out.add(o, q, s);
            }
        }
        if (schema.transitive.contains(p)) {
            match(o, p, 0);
            for (int i = 0; i < scratch.size(); i++) {
                out.add(s, p, scratch.o(i));
            }
            match(0, p, s);
            for (int i = 0; i < scratch.size(); i++) {
                out.add(scratch.s(i), p, o);
            }
        }
        for (Schema.Restriction x : schema.someValuesByProperty.getOrDefault(p, List.of())) {
            if (x.filler() == v.thing || store.has(o, v.type, x.filler())) {
                out.add(s, v.type, x.restriction());
            }
        }
        for (Schema.Restriction x : schema.hasValueByProperty.getOrDefault(p, List.of())) {
            if (x.filler() == o) {
                out.add(s, v.type, x.restriction());
            }
        }
        if (p != v.type) {
            return;
        }
        List<Schema.Intersection> intersections = schema.intersectionsByMember.getOrDefault(o, List.of());
        if (!intersections.isEmpty()) {
            long[] types = typesOf(s);
            for (Schema.Intersection i : intersections) {
                if (containsAll(types, i.members(), o)) {
                    out.add(s, v.type, i.intersection());
                }
            }
        }
        for (Schema.Restriction x : schema.hasValueByClass.getOrDefault(o, List.of())) {
            out.add(s, x.property(), x.filler());
        }
        for (Schema.Restriction x : schema.someValuesByFiller.getOrDefault(o, List.of())) {
            match(0, x.property(), s);
            for (int i = 0; i < scratch.size(); i++) {
                out.add(scratch.s(i), v.type, x.restriction());
            }
        }
    }

    /** rdfs6, rdfs8, rdfs10, rdfs12, rdfs13: the axioms a typing by an RDFS vocabulary class implies. */
    private void vocabularyTyping(long s, long c, TripleList out) {
        if (c == v.property) {
            out.add(s, v.subPropertyOf, s);
        } else if (c == v.rdfsClass) {
            out.add(s, v.subClassOf, v.resource);
            out.add(s, v.subClassOf, s);
        } else if (c == v.membershipProperty) {
            out.add(s, v.subPropertyOf, v.member);
        } else if (c == v.datatype) {
            out.add(s, v.subClassOf, v.literal);
        }
    }

    /**
     * The mirror of {@link #vocabularyTyping}, rdf1, rdfs4a/b and the container membership rule:
     * true if one of them concludes (s, p, o) now.
     */
    private boolean vocabularyDerivable(long s, long p, long o) {
        if (p == v.type && o == v.membershipProperty && v.isMembershipProperty(s)) {
            match(0, s, 0);
            if (!scratch.isEmpty()) {
                return true;
            }
        }
        if (p == v.member) {
            match(s, 0, o);
            for (int i = 0; i < scratch.size(); i++) {
                if (v.isMembershipProperty(scratch.p(i))) {
                    return true;
                }
            }
        }
        if (p == v.type && o == v.resource) {
            match(s, 0, 0);
            if (!scratch.isEmpty()) {
                return true;
            }
            match(0, 0, s);
            return !scratch.isEmpty();
        }
        if (p == v.type && o == v.property) {
            match(0, s, 0);
            return !scratch.isEmpty();
        }
        if (p == v.subPropertyOf) {
            return s == o && store.has(s, v.type, v.property)
                    || o == v.member && store.has(s, v.type, v.membershipProperty);
        }
        if (p == v.subClassOf) {
            return (s == o || o == v.resource) && store.has(s, v.type, v.rdfsClass)
                    || o == v.literal && store.has(s, v.type, v.datatype);
        }
        return false;
    }

    /** True if (s, p, o) is the conclusion of a rule whose premises are all in the store now. */
    boolean derivable(long s, long p, long o) {
        if (schema.entailed.contains(s, p, o) || vocabularyDerivable(s, p, o)) {
            return true;
        }
        for (long q : Schema.get(schema.subProperties, p)) {
            if (store.has(s, q, o)) {
                return true;
            }
        }
        if (p == v.type && typeDerivable(s, o)) {
            return true;
        }
        if (!schema.owl) {
            return false;
        }
        if (schema.symmetric.contains(p) && store.has(o, p, s)) {
            return true;
        }
        for (long q : Schema.get(schema.inverses, p)) {
            if (store.has(o, q, s)) {
                return true;
            }
        }
        if (schema.transitive.contains(p)) {
            match(s, p, 0);
            TripleList middles = copy();
            for (int i = 0; i < middles.size(); i++) {
                if (store.has(middles.o(i), p, o)) {
                    return true;
                }
            }
        }
        for (Schema.Restriction x : schema.hasValueByProperty.getOrDefault(p, List.of())) {
            if (x.filler() == o && store.has(s, v.type, x.restriction())) {
                return true;
            }
        }
        return false;
    }

    private boolean typeDerivable(long s, long c) {
        for (long d : Schema.get(schema.subClasses, c)) {
            if (store.has(s, v.type, d)) {
                return true;
            }
        }
        for (long q : Schema.get(schema.propertiesWithDomain, c)) {
            match(s, q, 0);
            if (!scratch.isEmpty()) {
                return true;
            }
        }
        for (long q : Schema.get(schema.propertiesWithRange, c)) {
            match(0, q, s);
            if (!scratch.isEmpty()) {
                return true;
            }
        }
        if (!schema.owl) {
            return false;
        }
        for (Schema.Intersection i : schema.intersections.getOrDefault(c, List.of())) {
            if (hasAllTypes(s, i.members(), 0)) {
                return true;
            }
        }
        for (Schema.Restriction x : schema.someValuesByClass.getOrDefault(c, List.of())) {
            match(s, x.property(), 0);
            TripleList values = copy();
            for (int i = 0; i < values.size(); i++) {
                if (x.filler() == v.thing || store.has(values.o(i), v.type, x.filler())) {
                    return true;
                }
            }
        }
        for (Schema.Restriction x : schema.hasValueByClass.getOrDefault(c, List.of())) {
            if (store.has(s, x.property(), x.filler())) {
                return true;
            }
        }
        return false;
    }

    /** True if s has every type in {@code members}; {@code known} is a member it is known to have (0 = none). */
    private boolean hasAllTypes(long s, long[] members, long known) {
        for (long m : members) {
            if (m != known && !store.has(s, v.type, m)) {
                return false;
            }
        }
        return true;
    }

    /** The classes s is typed with in the store, sorted (read in one scan instead of a lookup per class). */
    private long[] typesOf(long s) {
        match(s, v.type, 0);
        long[] types = new long[scratch.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = scratch.o(i);
        }
        Arrays.sort(types);
        return types;
    }

    /** True if sorted {@code types} holds every class in {@code members} but {@code known}. */
    private static boolean containsAll(long[] types, long[] members, long known) {
        for (long m : members) {
            if (m != known && Arrays.binarySearch(types, m) < 0) {
                return false;
            }
        }
        return true;
    }

    private void match(long s, long p, long o) {
        scratch.clear();
        store.match(s, p, o, scratch);
    }

    private TripleList copy() {
        TripleList c = new TripleList();
        c.addAll(scratch);
        return c;
    }
}
