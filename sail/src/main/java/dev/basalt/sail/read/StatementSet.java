package dev.basalt.sail.read;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import dev.basalt.store.journal.StoreException;
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

    /**
     * Store property with the sail layout version (1 byte): {@value #LAYOUT_VERSION} in a store
     * whose context-first orders may wait for named graphs ({@link #defaultGraphOnlyProperty});
     * absent in stores made before they could (layout 1, every order kept). docs/FORMAT.md §5.1.
     */
    public static final String LAYOUT_PROPERTY = "sail.layout";
    /** The sail layout this Basalt writes and the newest it reads. */
    public static final int LAYOUT_VERSION = 2;

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

    /**
     * The default graph's id if the store whose properties {@code property} reads leaves this
     * set's context-first orders empty, else 0 (the {@link QuadIndexes} argument); refuses a store
     * of a sail layout this Basalt does not read.
     */
    public long defaultGraphOnly(Function<String, byte[]> property) {
        requireLayout(property.apply(LAYOUT_PROPERTY));
        return property.apply(defaultGraphOnlyProperty()) != null ? TermIds.DEFAULT_GRAPH : 0;
    }

    /**
     * Refuses a sail layout version other than 1 (absent) to {@value #LAYOUT_VERSION}, naming the
     * version found, with a {@link StoreException}.
     */
    public static void requireLayout(byte[] layout) {
        if (layout != null && (layout.length != 1 || layout[0] < 1 || layout[0] > LAYOUT_VERSION)) {
            throw new StoreException("this store has sail layout " + (layout.length == 1 ? layout[0] : "?")
                    + " (store property '" + LAYOUT_PROPERTY + "') but this Basalt reads layouts 1 to " + LAYOUT_VERSION
                    + " only: it was written by a later Basalt; open it with that release (or export its statements"
                    + " with it and load them into a new store with 'basalt load --store NEWDIR FILE')");
        }
    }

    /** The set's statement indices in a write transaction, keeping the property above up to date. */
    public QuadIndexes writable(WriteTransaction tx, List<QuadOrder> orders) {
        long defaultGraphOnly = defaultGraphOnly(tx::property);
        QuadIndexes q = new QuadIndexes(orders, o -> tx.tree(treeName(o)), defaultGraphOnly);
        q.onContextOrdersBuilt(() -> tx.setProperty(defaultGraphOnlyProperty(), null));
        return q;
    }
}
