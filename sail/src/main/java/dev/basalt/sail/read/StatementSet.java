package dev.basalt.sail.read;

import java.util.List;
import java.util.Locale;

import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;

/**
 * The two statement sets of a Basalt store. Each has its own statement indices (one B+tree per
 * key order, named {@code q.e.spoc}, {@code q.i.posc} ...), so a count of one set is a range
 * count of its own trees. A statement is in at most one set: adding it explicitly removes an
 * inferred copy, and an inferred copy of an explicit statement is not stored.
 *
 * <p>Thread-safe: an immutable enum.
 */
public enum StatementSet {
    EXPLICIT("q.e."),
    INFERRED("q.i.");

    private final String treePrefix;

    StatementSet(String treePrefix) {
        this.treePrefix = treePrefix;
    }

    public String treePrefix() {
        return treePrefix;
    }

    public String treeName(QuadOrder order) {
        return treePrefix + order.name();
    }

    /**
     * Store property present ({@code "true"}) while every quad of this set is in the default graph
     * and its context-first orders are left empty ({@link QuadIndexes#isDeferrable}); absent once
     * they are kept (and in stores made before such orders could wait). docs/FORMAT.md §5.1, §5.3.
     */
    public String defaultGraphOnlyProperty() {
        return "sail.defaultGraphOnly." + name().toLowerCase(Locale.ROOT);
    }

    /** The set's statement indices in a write transaction, keeping the property above up to date. */
    public QuadIndexes writable(WriteTransaction tx, List<QuadOrder> orders) {
        long defaultGraphOnly = tx.property(defaultGraphOnlyProperty()) != null ? TermIds.DEFAULT_GRAPH : 0;
        QuadIndexes q = new QuadIndexes(orders, o -> tx.tree(treeName(o)), defaultGraphOnly);
        q.onContextOrdersBuilt(() -> tx.setProperty(defaultGraphOnlyProperty(), null));
        return q;
    }
}
