package dev.basalt.sail.inference;

import dev.basalt.store.lexicon.TermIds;

/**
 * The semi-naive rounds of one closure run: triples concluded in a round are written into the
 * inferred set at once (so later joins of the same round see them) and become the pivots of the
 * next round; the rounds end when one concludes nothing new. A conclusion whose subject is a
 * literal or whose predicate is not an IRI (a subproperty axiom naming a blank node) is dropped, and
 * so is a typing by a literal (a domain, range or superclass given as a literal names no class).
 * Not thread-safe: one closure run uses it, on the thread that holds the write transaction.
 */
final class Rounds {
    private final ClosureStore store;
    private final Rules rules;
    private final TripleList conclusions = new TripleList();
    private TripleList next = new TripleList();
    private long added;
    private int count;

    Rounds(ClosureStore store, Rules rules) {
        this.store = store;
        this.rules = rules;
    }

    /** Adds a conclusion to the closure if it is new there; a new one is a pivot of the next round. */
    void conclude(long s, long p, long o) {
        if (!Vocabulary.isResource(s) || TermIds.kindCode(p) != TermIds.KIND_IRI
                || p == rules.typeId() && !Vocabulary.isResource(o)) {
            return;
        }
        if (store.addInferred(s, p, o)) {
            next.add(s, p, o);
            added++;
        }
    }

    /** Applies the rules with each triple of {@code pivots} as one premise. */
    void pivot(TripleList pivots) {
        for (int i = 0; i < pivots.size(); i++) {
            conclusions.clear();
            rules.forward(pivots.s(i), pivots.p(i), pivots.o(i), conclusions);
            for (int k = 0; k < conclusions.size(); k++) {
                conclude(conclusions.s(k), conclusions.p(k), conclusions.o(k));
            }
        }
    }

    /** Runs rounds until none concludes anything new. */
    void run() {
        while (!next.isEmpty()) {
            TripleList delta = next;
            next = new TripleList();
            count++;
            pivot(delta);
        }
    }

    long added() {
        return added;
    }

    int count() {
        return count;
    }
}
