package dev.basalt.sail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.model.Namespace;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;
import dev.basalt.sail.read.NamespaceTable;
import dev.basalt.sail.read.StatementSet;

/**
 * Where a {@link BasaltStore} keeps its data inside the store (docs/FORMAT.md section 5), for the
 * tools that work on a closed store directory without going through the sail: the bulk loader
 * ({@code dev.basalt.sail.load}) and the command line ({@code dev.basalt.sail.cli}). Applications
 * use the {@link BasaltStore} instead.
 *
 * <p>Thread-safe: constants only.
 */
public final class SailLayout {
    /** Store property with the statement index orders, e.g. {@code spoc,posc,ospc,cspo}; the first is primary. */
    public static final String INDEXES_PROPERTY = BasaltSailStore.INDEXES_PROPERTY;

    /** Store property naming the rule set the inferred statements are closed under; absent = none. */
    public static final String INFERENCE_PROPERTY = BasaltSailStore.INFERENCE_PROPERTY;

    private SailLayout() {
    }

    /** The journal file of a data directory. */
    public static Path journal(Path dataDir) {
        return dataDir.resolve(BasaltStore.JOURNAL_FILE);
    }

    /** The statement index orders recorded in a store, or null if none are recorded yet (a new store). */
    public static List<QuadOrder> indexOrders(byte[] property) {
        return property == null ? null
                : dev.basalt.sail.config.BasaltStoreConfig.parseIndexes(new String(property, StandardCharsets.UTF_8));
    }

    /** The property value recording {@code orders}. */
    public static byte[] indexesProperty(List<QuadOrder> orders) {
        return BasaltSailStore.names(orders).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Records {@code orders} in a new store's transaction: the orders, and that its context-first
     * orders wait for the first quad in a named graph (both sets are empty, so every quad is in the
     * default graph), and the sail layout version that says so (docs/FORMAT.md §5.1); see
     * {@link QuadIndexes}.
     */
    public static void recordIndexes(WriteTransaction tx, List<QuadOrder> orders) {
        tx.setProperty(INDEXES_PROPERTY, indexesProperty(orders));
        tx.setProperty(StatementSet.LAYOUT_PROPERTY, new byte[] { (byte) StatementSet.LAYOUT_VERSION });
        boolean deferrable = orders.stream().skip(1).anyMatch(o -> QuadIndexes.isDeferrable(o, orders.get(0)));
        for (StatementSet set : StatementSet.values()) {
            String primary = set.treeName(orders.get(0));
            if (deferrable && (!tx.hasTree(primary) || tx.tree(primary).isEmpty())) {
                tx.setProperty(set.defaultGraphOnlyProperty(), "true".getBytes(StandardCharsets.UTF_8));
            }
        }
    }

    /** The explicit statement indices in a write transaction (they build their context-first orders when needed). */
    public static QuadIndexes explicitIndexes(WriteTransaction tx, List<QuadOrder> orders) {
        return StatementSet.EXPLICIT.writable(tx, orders);
    }

    /** The inferred statement indices in a write transaction, as {@link #explicitIndexes}. */
    public static QuadIndexes inferredIndexes(WriteTransaction tx, List<QuadOrder> orders) {
        return StatementSet.INFERRED.writable(tx, orders);
    }

    /** Whether the store (as of {@code snapshot}) leaves a statement set's context-first orders empty. */
    public static boolean defaultGraphOnly(Snapshot snapshot, boolean explicit) {
        StatementSet set = explicit ? StatementSet.EXPLICIT : StatementSet.INFERRED;
        return set.defaultGraphOnly(snapshot::property) != 0;
    }

    /** Tree of the explicit statements in one order, e.g. {@code q.e.spoc}. */
    public static String explicitTree(QuadOrder order) {
        return StatementSet.EXPLICIT.treeName(order);
    }

    /** Tree of the inferred statements in one order, e.g. {@code q.i.spoc}. */
    public static String inferredTree(QuadOrder order) {
        return StatementSet.INFERRED.treeName(order);
    }

    public static List<Namespace> namespaces(Snapshot snapshot) {
        return NamespaceTable.all(snapshot);
    }

    /**
     * Sets a namespace unless its prefix is already defined in the transaction's state, as RDF4J's
     * {@code RDFInserter} does for parsed prefixes; returns true if it was set.
     */
    public static boolean setNamespaceIfAbsent(WriteTransaction tx, String prefix, String name) {
        if (tx.hasTree(NamespaceTable.TREE)
                && tx.tree(NamespaceTable.TREE).containsKey(prefix.getBytes(StandardCharsets.UTF_8))) {
            return false;
        }
        return NamespaceTable.set(tx, prefix, name);
    }
}
