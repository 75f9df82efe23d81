package dev.basalt.sail.config;

import dev.basalt.store.StoreConfig;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.quads.QuadOrder;
import dev.basalt.sail.read.StatementSet;

/**
 * The B+tree settings of a Basalt store's own trees (docs/FORMAT.md section 5) over a store
 * configuration: statement index trees of both statement sets, and the dictionary trees. Every
 * store, the bulk loader and the command line open a store with them through
 * {@link BasaltStoreConfig#toStoreConfig()}.
 *
 * <p>Thread-safe: constants and pure functions.
 */
public final class TreeSettings {
    private TreeSettings() {
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
}
