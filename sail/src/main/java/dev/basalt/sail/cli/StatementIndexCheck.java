package dev.basalt.sail.cli;

import java.util.ArrayList;
import java.util.List;

import dev.basalt.sail.SailLayout;
import dev.basalt.store.Snapshot;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;

/**
 * Checks that every statement index order of a set holds the same quads (equal sizes, and every
 * key of each secondary order found in the primary one; keys in a tree are distinct, so that is
 * set equality) and that no quad is both explicit and inferred. A context-first order that the
 * store leaves empty while every quad of the set is in the default graph must be empty, and the
 * primary order must then hold no quad in a named graph. Reads one snapshot.
 *
 * <p>Thread-safe: stateless; it reads only the snapshot it is given.
 */
final class StatementIndexCheck {
    private StatementIndexCheck() {
    }

    /** The problems found, empty if none. */
    static List<String> check(Snapshot s, List<QuadOrder> orders) {
        List<String> problems = new ArrayList<>();
        checkSet(s, orders, true, problems);
        checkSet(s, orders, false, problems);
        BTree explicit = s.tree(SailLayout.explicitTree(orders.get(0)));
        BTree inferred = s.tree(SailLayout.inferredTree(orders.get(0)));
        if (explicit != null && inferred != null) {
            BTreeCursor c = inferred.cursor(null, null);
            while (c.next() && problems.size() < 20) {
                if (explicit.containsKey(c.key())) {
                    problems.add("a quad is both explicit and inferred: " + describe(orders.get(0), c.key()));
                }
            }
        }
        return problems;
    }

    private static void checkSet(Snapshot s, List<QuadOrder> orders, boolean explicit, List<String> problems) {
        QuadOrder primaryOrder = orders.get(0);
        String primaryName = name(primaryOrder, explicit);
        BTree primary = s.tree(primaryName);
        long size = primary == null ? 0 : primary.size();
        long[] quad = new long[4];
        boolean defaultGraphOnly = SailLayout.defaultGraphOnly(s, explicit);
        if (defaultGraphOnly && primary != null) {
            BTreeCursor c = primary.cursor(null, null);
            while (c.next() && problems.size() < 20) {
                primaryOrder.decode(c.key(), quad);
                if (quad[QuadOrder.C] != TermIds.DEFAULT_GRAPH) {
                    problems.add(primaryName + " holds " + describe(primaryOrder, c.key())
                            + " in a named graph, but the store records that every quad of the set is in the default graph");
                }
            }
        }
        for (QuadOrder o : orders.subList(1, orders.size())) {
            String name = name(o, explicit);
            BTree t = s.tree(name);
            long n = t == null ? 0 : t.size();
            if (defaultGraphOnly && QuadIndexes.isDeferrable(o, primaryOrder)) {
                if (n != 0) {
                    problems.add(name + " holds " + n + " quads but is left empty while every quad is in the default graph");
                }
                continue;
            }
            if (n != size) {
                problems.add(name + " holds " + n + " quads but " + primaryName + " holds " + size);
                continue;
            }
            if (t == null) {
                continue;
            }
            BTreeCursor c = t.cursor(null, null);
            while (c.next()) {
                o.decode(c.key(), quad);
                if (!primary.containsKey(primaryOrder.key(quad))) {
                    problems.add(name + " holds " + describe(o, c.key()) + " which " + primaryName + " lacks");
                    if (problems.size() >= 20) {
                        return;
                    }
                }
            }
        }
    }

    private static String name(QuadOrder o, boolean explicit) {
        return explicit ? SailLayout.explicitTree(o) : SailLayout.inferredTree(o);
    }

    private static String describe(QuadOrder o, byte[] key) {
        long[] q = new long[4];
        o.decode(key, q);
        return String.format("(s %016x, p %016x, o %016x, c %016x)", q[0], q[1], q[2], q[3]);
    }
}
