package dev.basalt.sail.config;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;

/**
 * The configuration vocabulary of a Basalt store, namespace {@value #NAMESPACE}.
 *
 * <p>Thread-safe: constants only.
 */
public final class BasaltStoreSchema {
    public static final String NAMESPACE = "http://basalt.dev/config/sail#";
    public static final String PREFIX = "basalt";

    /** "RW" (default) or "WORM"; only matters when the store is created. */
    public static final IRI JOURNAL_MODE = iri("journalMode");
    /** ISO-8601 duration a superseded commit point stays readable in RW mode, e.g. "PT1H"; default PT0S. */
    public static final IRI HISTORY_RETENTION = iri("historyRetention");
    /** Comma-separated statement index orders, e.g. "spoc,posc,ospc,cspo"; fixed at creation. */
    public static final IRI STATEMENT_INDEXES = iri("statementIndexes");
    /** Most entries of a B+tree leaf page. */
    public static final IRI LEAF_MAX_ENTRIES = iri("leafMaxEntries");
    /** Most children of a B+tree internal page. */
    public static final IRI INTERNAL_MAX_ENTRIES = iri("internalMaxEntries");
    /** Byte budget of the decoded-page cache. */
    public static final IRI PAGE_CACHE_BYTES = iri("pageCacheBytes");
    /** Entries of the lexicon's id → value cache. */
    public static final IRI VALUE_CACHE_SIZE = iri("valueCacheSize");
    /** Entries of the lexicon's value → id cache. */
    public static final IRI VALUE_ID_CACHE_SIZE = iri("valueIdCacheSize");
    /** Force data to the device at every commit (default true). */
    public static final IRI DURABLE = iri("durable");
    /** Statements a transaction's pending-change model holds in memory before spilling to disk. */
    public static final IRI SPILL_THRESHOLD = iri("spillThreshold");
    /** Explicit additions at which an isolated transaction starts writing through into the store (0 = never). */
    public static final IRI LARGE_TRANSACTION_THRESHOLD = iri("largeTransactionThreshold");
    /** Seconds such a transaction may hold the writer idle while another connection waits to commit. */
    public static final IRI LARGE_TRANSACTION_IDLE_SECONDS = iri("largeTransactionIdleSeconds");
    /** Evaluate queries with Basalt's own engine where it can (default true); false = RDF4J's evaluator only. */
    public static final IRI NATIVE_EVALUATION = iri("nativeEvaluation");
    /** {@code none}, {@code rdfs} or {@code owl-rl}: the rules kept materialized (docs/sail.md, "Reasoning"). */
    public static final IRI INFERENCE = iri("inference");

    /** Rows a sort (ORDER BY) buffers before it spills a sorted run to disk. */
    public static final IRI SORT_ROWS = iri("sortRows");
    /** Distinct keys DISTINCT holds in memory before it partitions to disk. */
    public static final IRI DISTINCT_ROWS = iri("distinctRows");
    /** Groups GROUP BY holds in memory before it partitions to disk. */
    public static final IRI GROUP_ROWS = iri("groupRows");
    /** Rows of a hash join's (or MINUS's) build side before it spills to disk. */
    public static final IRI HASH_JOIN_ROWS = iri("hashJoinRows");
    /** Term ids one property path search may hold; past it the query fails. */
    public static final IRI PATH_NODES = iri("pathNodes");
    /** Directory of query spill files (default java.io.tmpdir). */
    public static final IRI SPILL_DIRECTORY = iri("spillDirectory");
    /** Helper threads one query may use at once, 0 for none (default: the JVM's pool size). */
    public static final IRI HELPER_THREADS = iri("helperThreads");
    /** Seconds after which a query is stopped, 0 for no limit (default). */
    public static final IRI QUERY_TIMEOUT_SECONDS = iri("queryTimeoutSeconds");
    /** ISO-8601 duration past which an open reader is logged as a warning, e.g. "PT10M". */
    public static final IRI READER_WARN_AGE = iri("readerWarnAge");
    /** Bytes the journal file may not grow past, 0 for no limit (default). */
    public static final IRI MAX_FILE_BYTES = iri("maxFileBytes");
    /** Percent of the journal file not used by the newest commit point at which the store compacts itself online, 0 = never (default). */
    public static final IRI COMPACT_FREE_PERCENT = iri("compactFreePercent");

    private BasaltStoreSchema() {
    }

    private static IRI iri(String local) {
        return SimpleValueFactory.getInstance().createIRI(NAMESPACE, local);
    }
}
