package dev.basalt.sail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.model.Namespace;

import dev.basalt.store.Snapshot;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.lexicon.Lexicon;
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
     * Bytes of a statement index page with its record framing: the journal's 4 KiB slot class. A
     * bulk build fills each leaf up to it by the leaf's exact coded size (about 800-1,600 BSBM
     * statements), so the leaves fill their slots; pages changed one statement at a time split by
     * the page's estimated size, at about 110 statements, as with the former limit of 128.
     */
    public static final int STATEMENT_PAGE_BYTES = 4096;
    /**
     * Most statements in one leaf: above what a 4 KiB leaf holds at two bytes a statement; a
     * configured {@code basalt:leafMaxEntries} takes its place.
     */
    public static final int STATEMENT_LEAF_ENTRIES = 2048;

    /**
     * {@code config} with settings for the statement index trees of both sets: those of its
     * default tree, with keys declared as tuples of four term ids, so their leaves are written as
     * delta-coded id-tuple leaves (docs/FORMAT.md section 3), pages of
     * {@link #STATEMENT_PAGE_BYTES} before compression, and pages written Zstandard-compressed
     * (on BSBM 1M 2.4x fewer bytes: docs/benchmarks-size.md).
     */
    public static StoreConfig withStatementTrees(StoreConfig config) {
        BTreeConfig base = config.defaultTree();
        // a leaf entry limit the configuration sets (basalt:leafMaxEntries) holds for statement leaves too
        int entries = base.leafMaxEntries() != BTreeConfig.DEFAULT.leafMaxEntries() ? base.leafMaxEntries()
                : STATEMENT_LEAF_ENTRIES;
        BTreeConfig statements = base.toBuilder().idTupleWidth(QuadOrder.KEY_BYTES / Long.BYTES)
                .leafMaxEntries(entries).maxPageBytes(STATEMENT_PAGE_BYTES).compressPages(true).build();
        for (StatementSet set : StatementSet.values()) {
            config = config.withTreesStartingWith(set.treePrefix(), statements);
        }
        return config;
    }

    /**
     * Most bytes of a dictionary page: with its record framing (8 bytes) it fits the journal's
     * 8 KiB slot class, where a 16 KiB page would take a 12 or 16 KiB extent.
     */
    public static final int LEXICON_PAGE_BYTES = 8100;

    /**
     * {@code config} with settings for the dictionary trees (docs/FORMAT.md section 5.2): pages of
     * at most {@link #LEXICON_PAGE_BYTES}; ID2TERM keeps values up to a quarter of that in its
     * leaves (a long literal's compressed text is then no record of its own, whose rounding up to a
     * slot class and pointer cost more than the value's share of a leaf), and TERM2ID leaves hold
     * up to twice the default entries, so that their bytes rather than their count end a page.
     * On BSBM 2M the store took 9.6% fewer bytes (99.5 to 90.0 MB) with the same record payload.
     * TERM2ID writes its pages Zstandard-compressed (2.5x fewer bytes on BSBM 1M); ID2TERM does not:
     * its long values are compressed one by one already, so its pages shrink by 1.13x only, and a
     * query resolving one term would decompress a whole 8 KB page on a page-cache miss
     * (docs/benchmarks-size.md).
     */
    public static StoreConfig withLexiconTrees(StoreConfig config) {
        BTreeConfig base = config.defaultTree();
        BTreeConfig idToTerm = base.toBuilder().maxPageBytes(LEXICON_PAGE_BYTES)
                .inlineValueThreshold(LEXICON_PAGE_BYTES / 4).build();
        BTreeConfig termToId = base.toBuilder().maxPageBytes(LEXICON_PAGE_BYTES)
                .leafMaxEntries(2 * base.leafMaxEntries()).compressPages(true).build();
        return config.withTreesStartingWith(Lexicon.ID_TO_TERM, idToTerm).withTreesStartingWith(Lexicon.TERM_TO_ID,
                termToId);
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
