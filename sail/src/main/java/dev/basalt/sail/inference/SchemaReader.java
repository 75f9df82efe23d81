package dev.basalt.sail.inference;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads the schema statements out of the explicit statements, for {@link Schema}. It runs on the
 * thread that holds the write transaction it reads.
 */
final class SchemaReader {
    /** Longest RDF list read as an intersection's members; a longer or cyclic list is ignored. */
    private static final int MAX_LIST = 10_000;
    private final ClosureStore store;
    private final Vocabulary v;

    SchemaReader(ClosureStore store, Vocabulary v) {
        this.store = store;
        this.v = v;
    }

    /** Distinct (subject, object) pairs of the explicit statements with this predicate. */
    List<long[]> pairs(long predicate) {
        TripleList t = new TripleList();
        store.matchExplicit(0, predicate, 0, t);
        TripleSet distinct = new TripleSet();
        List<long[]> out = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            if (distinct.add(t.s(i), predicate, t.o(i))) {
                out.add(new long[] { t.s(i), t.o(i) });
            }
        }
        return out;
    }

    /** Subjects of explicit statements (?, predicate, object). */
    Set<Long> subjects(long predicate, long object) {
        TripleList t = new TripleList();
        store.matchExplicit(0, predicate, object, t);
        Set<Long> out = new HashSet<>();
        for (int i = 0; i < t.size(); i++) {
            out.add(t.s(i));
        }
        return out;
    }

    /**
     * The members of the RDF list starting at {@code head}, in order, or null if it is not a
     * well-formed list of explicit statements (a node without exactly one rdf:first and one rdf:rest,
     * a cycle, or longer than {@value #MAX_LIST}).
     */
    long[] list(long head) {
        List<Long> members = new ArrayList<>();
        Set<Long> seen = new LinkedHashSet<>();
        long node = head;
        while (node != v.nil) {
            if (!seen.add(node) || seen.size() > MAX_LIST) {
                return null;
            }
            Long first = single(node, v.first);
            Long rest = single(node, v.rest);
            if (first == null || rest == null) {
                return null;
            }
            members.add(first);
            node = rest;
        }
        return members.stream().mapToLong(Long::longValue).toArray();
    }

    private Long single(long subject, long predicate) {
        TripleList t = new TripleList();
        store.matchExplicit(subject, predicate, 0, t);
        Long value = null;
        for (int i = 0; i < t.size(); i++) {
            if (value != null && value != t.o(i)) {
                return null;
            }
            value = t.o(i);
        }
        return value;
    }
}
