package dev.basalt.sail.config;

import dev.basalt.store.lexicon.LexiconConfig;

/**
 * The cache sizes a store takes when its configuration leaves them unset, derived from the JVM's
 * maximum heap ({@link Runtime#maxMemory()}): each is a share of the heap with a floor, so a
 * small heap still gets the store's fixed defaults and a large one does not re-read what it could
 * hold. Read by {@link StoreConfigTranslator}; {@link BasaltStoreConfig} publishes both sizes.
 *
 * <p>Thread-safe: stateless static functions of the JVM's maximum heap.
 */
public final class HeapBudget {
    private HeapBudget() {
    }

    /**
     * The page cache when none is configured: an eighth of the JVM's maximum heap, at least 64 MiB
     * (128 MiB at {@code -Xmx1g}). A fixed 64 MiB held a third of a 1M-triple store's pages and
     * left short queries spending their time re-reading and re-checking pages the OS had cached.
     */
    public static long pageCacheBytes() {
        return Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 8);
    }

    /**
     * The derived-value caches when none is configured: a sixteenth of the JVM's maximum heap, at
     * least {@link LexiconConfig#DEFAULT_DERIVED_CACHE_BYTES} (64 MiB at {@code -Xmx1g}, 192 MiB at
     * {@code -Xmx3g}), shared by every expression whose values per term the lexicon keeps.
     */
    public static long derivedCacheBytes() {
        return Math.max(LexiconConfig.DEFAULT_DERIVED_CACHE_BYTES, Runtime.getRuntime().maxMemory() / 16);
    }

    /**
     * The id → value cache when none is configured: an eighth of the JVM's maximum heap at about
     * 384 bytes an entry, at least 100,000 entries (349,525 at {@code -Xmx1g}, 1,048,576 at
     * {@code -Xmx3g}). Results and ORDER BY keys are values: at 10M triples a fixed 100,000 entries
     * made BSBM's label sorts re-read most labels from the dictionary on every query, and LUBM's
     * type scans (Q6: 785,679 students at LUBM(75)) re-read every term when the cache held fewer
     * entries than the answer has: 1,000-1,300 ms CPU a run with 524,288 entries, 180-230 ms with
     * 2,000,000 (-Xmx3g). A larger page cache did not help them (768 MiB instead of 384 MiB: the
     * same CPU time).
     */
    public static int valueCacheSize() {
        return (int) Math.min(Integer.MAX_VALUE,
                Math.max(LexiconConfig.DEFAULT.valueCacheSize(), Runtime.getRuntime().maxMemory() / 8 / 384));
    }
}
