package dev.basalt.sail.ops;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.eclipse.rdf4j.model.ValueFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.btree.PagePrewarm;
import dev.basalt.store.lexicon.Lexicon;

/**
 * What a store reads into its caches when it is opened, before its first query: the newest commit's pages, upper
 * levels of every tree first, until the page cache is full ({@link Store#prewarm}), then its dictionary's terms
 * in id order until the value cache is full ({@link dev.basalt.store.lexicon.LexiconReader#prewarmValues}).
 * A freshly opened store otherwise reads, checks and decodes each page and term on its first queries' visits, and
 * the JIT compiles the cache-miss paths for them. The caches are filled whole, not in part: what a cache takes in
 * stays in the heap, and taken in during the first queries it is what their young collections copy (BSBM 10M: about
 * 140 MB of pages over the first 5,000 queries when the prewarm filled half the page cache, young pauses of 40-170
 * ms among them, docs/benchmarks-coldstart.md); filled here, the caches are in the heap before the server answers,
 * where a launcher can move them to the old generation at once, and the first queries' misses replace entries
 * (the CLOCK cache evicts entries no query has read first) instead of adding to them. Both stop once the opening
 * thread has spent {@value #MAX_CPU_SECONDS} s of CPU in them, or after {@value #MAX_WALL_SECONDS} s of wall time (a
 * store on a cold disk, a machine so busy that the thread waits for a core). Last it rehearses the value cache's
 * eviction on a scratch copy of {@value #REHEARSAL_ENTRIES} of its values ({@link Lexicon#rehearseValueEviction}), so
 * that every branch of the cache's write paths has run before the first queries evict: otherwise the JIT compiles
 * them from the branches the first evictions happened to take and compiles them again in the first client queries. The store setting
 * {@code basalt:prewarm} turns it on or off for one store; a store that does not set it takes the JVM-wide default,
 * {@code -Dbasalt.store.prewarm} or true ({@link #enabled}).
 *
 * <p>Threads: stateless; it runs on the thread that opens the store, before the store serves anything.
 */
public final class StorePrewarm {
    public static final String PROPERTY = "basalt.store.prewarm";
    static final long MAX_CPU_SECONDS = 20;
    static final long MAX_WALL_SECONDS = 120;
    /** Values of the value cache that its eviction rehearsal puts into its scratch cache. */
    static final int REHEARSAL_ENTRIES = 4_096;
    /**
     * Leaves and terms {@link #rehearseMisses} reads: past the C2 compiler's thresholds (about 15,000 calls with
     * loops) for the miss path's methods, at a few hundred milliseconds of CPU.
     */
    static final int MISS_REHEARSAL_PAGES = 20_000;
    static final int MISS_REHEARSAL_TERMS = 20_000;
    private static final Logger LOG = LoggerFactory.getLogger(StorePrewarm.class);

    private StorePrewarm() {
    }

    /**
     * Whether a store prewarms: as its setting {@code basalt:prewarm} says ({@code setting}), or when that is unset
     * (null) as the JVM-wide default {@code property} (the value of {@value #PROPERTY}) says.
     */
    public static boolean enabled(Boolean setting, String property) {
        return setting != null ? setting : enabled(property);
    }

    /** Whether {@code property} (the value of {@value #PROPERTY}) asks for the prewarm: unset or true. */
    public static boolean enabled(String property) {
        if (property == null || property.isBlank() || property.trim().equalsIgnoreCase("true")) {
            return true;
        }
        if (property.trim().equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("-D" + PROPERTY + " must be true or false, got '" + property + "'");
    }

    /**
     * What a prewarm read: the pages (and how far), the decoded bytes the page cache then held, and the terms; the
     * evictions of its rehearsal.
     */
    public record Outcome(PagePrewarm.Result pages, long cachedPageBytes, long terms, long rehearsedEvictions) {
    }

    /** Prewarms {@code store} with a page budget of {@code pageCacheBytes}; logs and returns what it read. */
    public static Outcome run(Path journal, Store store, long pageCacheBytes, Lexicon lexicon, ValueFactory vf) {
        Clock clock = new Clock();
        BooleanSupplier stop = clock::pastCaps;
        PagePrewarm.Result pages = store.prewarm(pageCacheBytes, stop);
        long cached = store.pageCacheBytesInUse();
        long terms;
        try (Snapshot s = store.snapshot()) {
            terms = lexicon.reader(s).prewarmValues(lexicon.config().valueCacheSize(), vf, stop);
        }
        long evictions = lexicon.rehearseValueEviction(REHEARSAL_ENTRIES);
        LOG.info("{}: prewarmed {} pages ({} levels{}; {} MiB decoded in the page cache) and {} terms, rehearsed {} "
                + "evictions, in {} ms (CPU {} ms)", journal, pages.pages(), pages.levels(),
                pages.complete() ? ", every page" : "", cached >> 20, terms, evictions,
                clock.millis(), clock.cpuMillis() < 0 ? "unknown" : clock.cpuMillis());
        return new Outcome(pages, cached, terms, evictions);
    }
    /** What a rehearsal of cache misses read: leaves, terms, and its time. */
    public record Rehearsal(long pages, long terms, long millis, long cpuMillis) {
        public String describe() {
            return "rehearsed cache misses: " + pages + " leaves and " + terms + " terms read uncached in " + millis
                    + " ms (CPU " + cpuMillis + " ms)";
        }
    }

    /**
     * Reads {@value #MISS_REHEARSAL_PAGES} leaves and {@value #MISS_REHEARSAL_TERMS} terms of {@code store} as
     * cache misses read them, without caching them ({@link Store#rehearsePageMisses}, {@link
     * dev.basalt.store.lexicon.LexiconReader#rehearseMisses}), within the prewarm's CPU and time caps; logs and returns what it read. A
     * server calls it after its warm-ups (RDF4J Server's launcher through {@link StoreOperationsMXBean#rehearseColdReads}):
     * their queries find a prewarmed store's pages and terms cached, so the miss path was last compiled, if at all,
     * for the prewarm's sequential reads, and the JIT's later deoptimizations leave it in the profiling tier, where the
     * first clients' misses (at 10M triples, the cold mixes' share of pages not cached) would run it and have it
     * compiled. Only reads; safe beside queries and a writer (it pins a snapshot).
     */
    public static Rehearsal rehearseMisses(Path journal, Store store, Lexicon lexicon, ValueFactory vf) {
        Clock clock = new Clock();
        BooleanSupplier stop = clock::pastCaps;
        long pages = store.rehearsePageMisses(MISS_REHEARSAL_PAGES, stop);
        long terms;
        try (Snapshot s = store.snapshot()) {
            terms = lexicon.reader(s).rehearseMisses(Lexicon.counts(s), MISS_REHEARSAL_TERMS, vf, stop);
        }
        Rehearsal done = new Rehearsal(pages, terms, clock.millis(), clock.cpuMillis());
        LOG.info("{}: {}", journal, done.describe());
        return done;
    }

    /** The wall and CPU time of this thread since it was made, and whether either is past the prewarm's caps. */
    private static final class Clock {
        private final long started = System.nanoTime();
        private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        private final boolean cpu = threads.isCurrentThreadCpuTimeSupported();
        private final long startedCpu = cpu ? threads.getCurrentThreadCpuTime() : 0;

        boolean pastCaps() {
            return System.nanoTime() - started > TimeUnit.SECONDS.toNanos(MAX_WALL_SECONDS)
                    || cpu && threads.getCurrentThreadCpuTime() - startedCpu > TimeUnit.SECONDS.toNanos(MAX_CPU_SECONDS);
        }

        long millis() {
            return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        }

        /** -1 where the JVM does not measure a thread's CPU time. */
        long cpuMillis() {
            return cpu ? TimeUnit.NANOSECONDS.toMillis(threads.getCurrentThreadCpuTime() - startedCpu) : -1;
        }
    }
}
