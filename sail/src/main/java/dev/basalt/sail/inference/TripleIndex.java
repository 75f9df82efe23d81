package dev.basalt.sail.inference;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * A small in-memory set of triples of term ids that answers the reasoner's patterns: membership,
 * and matches with the subject or the object bound through a map from each to its triples (a
 * pattern with both unbound walks the whole set). Holds the changes of one transaction's preview
 * ({@link PreviewClosure}), so it is sized for the changes of a transaction, not for a store. Not
 * thread-safe.
 */
final class TripleIndex {
    record Triple(long s, long p, long o) {
    }

    private final Set<Triple> all = new HashSet<>();
    private final Map<Long, Set<Triple>> bySubject = new HashMap<>();
    private final Map<Long, Set<Triple>> byObject = new HashMap<>();

    boolean contains(long s, long p, long o) {
        return all.contains(new Triple(s, p, o));
    }

    /** Adds a triple; false if it was present. */
    boolean add(long s, long p, long o) {
        Triple t = new Triple(s, p, o);
        if (!all.add(t)) {
            return false;
        }
        bySubject.computeIfAbsent(s, k -> new HashSet<>()).add(t);
        byObject.computeIfAbsent(o, k -> new HashSet<>()).add(t);
        return true;
    }

    /** Removes a triple; false if it was absent. */
    boolean remove(long s, long p, long o) {
        Triple t = new Triple(s, p, o);
        if (!all.remove(t)) {
            return false;
        }
        unlink(bySubject, s, t);
        unlink(byObject, o, t);
        return true;
    }

    private static void unlink(Map<Long, Set<Triple>> map, long key, Triple t) {
        Set<Triple> set = map.get(key);
        set.remove(t);
        if (set.isEmpty()) {
            map.remove(key);
        }
    }

    void clear() {
        all.clear();
        bySubject.clear();
        byObject.clear();
    }

    int size() {
        return all.size();
    }

    /** Appends every triple matching the pattern (0 = unbound) to {@code out}. */
    void match(long s, long p, long o, TripleList out) {
        Set<Triple> candidates = s != 0 ? bySubject.getOrDefault(s, Set.of())
                : o != 0 ? byObject.getOrDefault(o, Set.of()) : all;
        for (Triple t : candidates) {
            if ((s == 0 || t.s() == s) && (p == 0 || t.p() == p) && (o == 0 || t.o() == o)) {
                out.add(t.s(), t.p(), t.o());
            }
        }
    }

    /** Every triple, appended to {@code out}. */
    void addTo(TripleList out) {
        for (Triple t : all) {
            out.add(t.s(), t.p(), t.o());
        }
    }
}
