package dev.basalt.sail.config;

import java.nio.file.Path;

import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.sail.spill.SpillPolicy;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.journal.JournalConfig;
import dev.basalt.store.lexicon.LexiconConfig;

/**
 * Translates a {@link BasaltStoreConfig} into the settings the store, the lexicon, the spill of
 * pending changes and the query engine take: each configured value over that layer's defaults, an
 * unset one (-1 or null) leaving the default, cache sizes left unset taken from {@link HeapBudget}.
 * Every method builds a new value and leaves the configuration as it is; an out-of-range value is
 * refused by the target's own constructor with an {@link IllegalArgumentException}.
 *
 * <p>Thread-safe: stateless static functions; the configuration they read must not be changed
 * meanwhile (see {@link BasaltStoreConfig}'s thread rules).
 */
final class StoreConfigTranslator {
    private StoreConfigTranslator() {
    }

    /** The store settings the configuration asks for. */
    static StoreConfig storeConfig(BasaltStoreConfig c) {
        StoreConfig d = StoreConfig.defaults();
        JournalConfig journal = withJournalKnobs(c, d.journal().withMode(c.getJournalMode())
                .withHistoryRetention(c.getHistoryRetention()).withDurable(c.isDurable()));
        BTreeConfig.Builder tree = BTreeConfig.builder();
        if (c.getLeafMaxEntries() > 0) {
            tree.leafMaxEntries(c.getLeafMaxEntries());
        }
        if (c.getInternalMaxEntries() > 0) {
            tree.internalMaxEntries(c.getInternalMaxEntries());
        }
        long pageCache = c.getPageCacheBytes();
        return TreeSettings.withLexiconTrees(TreeSettings.withStatementTrees(d.withJournal(journal)
                .withDefaultTree(tree.build())
                .withPageCacheBytes(pageCache >= 0 ? pageCache : HeapBudget.pageCacheBytes())));
    }

    /** The journal settings of the configuration over {@code journal}. */
    private static JournalConfig withJournalKnobs(BasaltStoreConfig c, JournalConfig journal) {
        JournalConfig j = c.getReaderWarnAge() != null ? journal.withReaderWarnAge(c.getReaderWarnAge()) : journal;
        return c.getMaxFileBytes() >= 0 ? j.withMaxFileBytes(c.getMaxFileBytes()) : j;
    }

    /** The lexicon's caches: the configured sizes over {@link LexiconConfig#DEFAULT} and {@link HeapBudget}. */
    static LexiconConfig lexiconConfig(BasaltStoreConfig c) {
        LexiconConfig d = LexiconConfig.DEFAULT;
        return new LexiconConfig(c.getValueCacheSize() >= 0 ? c.getValueCacheSize() : HeapBudget.valueCacheSize(),
                c.getValueIdCacheSize() >= 0 ? c.getValueIdCacheSize() : d.idCacheSize(), d.writerCacheSize())
                .withDerivedCacheBytes(c.getDerivedCacheBytes() >= 0 ? c.getDerivedCacheBytes()
                        : HeapBudget.derivedCacheBytes());
    }

    /** Spilling of pending changes into temporary stores under {@code directory}. */
    static SpillPolicy spillPolicy(BasaltStoreConfig c, Path directory) {
        SpillPolicy d = SpillPolicy.defaults(directory);
        return c.getSpillThreshold() < 0 ? d
                : new SpillPolicy(c.getSpillThreshold(), d.minFreeHeapFraction(), directory);
    }

    /** The bounds of the store's query evaluations: the configured values over {@link ExecLimits#defaults()}. */
    static ExecLimits execLimits(BasaltStoreConfig c) {
        ExecLimits d = ExecLimits.defaults();
        return new ExecLimits(orDefault(c.getSortRows(), d.sortRows()), orDefault(c.getDistinctRows(), d.distinctRows()),
                orDefault(c.getGroupRows(), d.groupRows()), orDefault(c.getHashJoinRows(), d.hashJoinRows()),
                orDefault(c.getPathNodes(), d.pathNodes()),
                c.getSpillDirectory() != null ? Path.of(c.getSpillDirectory()) : d.spillDir(),
                c.getHelperThreads() >= 0 ? c.getHelperThreads() : d.helperThreads());
    }

    private static long orDefault(long rows, long defaultRows) {
        return rows > 0 ? rows : defaultRows;
    }

    /** The plan compiler's policy: the configured batch and parallel settings over {@link OrderingPolicy#DEFAULT}. */
    static OrderingPolicy orderingPolicy(BasaltStoreConfig c) {
        OrderingPolicy d = OrderingPolicy.DEFAULT;
        return d.withExecution(c.getBatches() != null ? c.getBatches() : d.batches(),
                c.getParallel() != null ? c.getParallel() : d.parallel());
    }
}
