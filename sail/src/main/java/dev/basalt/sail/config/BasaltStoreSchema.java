package dev.basalt.sail.config;

import org.eclipse.rdf4j.model.IRI;

/**
 * The configuration vocabulary of a Basalt store, namespace {@value #NAMESPACE}: named constants for
 * the properties of the store's sail node, each a row of {@link BasaltSettings}.
 *
 * <p>Thread-safe: constants only.
 */
public final class BasaltStoreSchema {
    public static final String NAMESPACE = "http://basalt.dev/config/sail#";
    public static final String PREFIX = "basalt";
    /** The sail type of a Basalt store's sail node ({@code config:sail.type}). */
    public static final String SAIL_TYPE = "basalt:BasaltStore";

    /** "RW" (default) or "WORM"; only matters when the store is created. */
    public static final IRI JOURNAL_MODE = BasaltSettings.JOURNAL_MODE.iri();
    /** ISO-8601 duration a superseded commit point stays readable in RW mode, e.g. "PT1H"; default PT0S. */
    public static final IRI HISTORY_RETENTION = BasaltSettings.HISTORY_RETENTION.iri();
    /** Comma-separated statement index orders, e.g. "spoc,posc,ospc,cspo"; fixed at creation. */
    public static final IRI STATEMENT_INDEXES = BasaltSettings.STATEMENT_INDEXES.iri();
    /** Most entries of a B+tree leaf page. */
    public static final IRI LEAF_MAX_ENTRIES = BasaltSettings.LEAF_MAX_ENTRIES.iri();
    /** Most children of a B+tree internal page. */
    public static final IRI INTERNAL_MAX_ENTRIES = BasaltSettings.INTERNAL_MAX_ENTRIES.iri();
    /** Byte budget of the decoded-page cache. */
    public static final IRI PAGE_CACHE_BYTES = BasaltSettings.PAGE_CACHE_BYTES.iri();
    /** Entries of the lexicon's id → value cache. */
    public static final IRI VALUE_CACHE_SIZE = BasaltSettings.VALUE_CACHE_SIZE.iri();
    public static final IRI DERIVED_CACHE_BYTES = BasaltSettings.DERIVED_CACHE_BYTES.iri();
    /** Entries of the lexicon's value → id cache. */
    public static final IRI VALUE_ID_CACHE_SIZE = BasaltSettings.VALUE_ID_CACHE_SIZE.iri();
    /** Force data to the device at every commit (default true). */
    public static final IRI DURABLE = BasaltSettings.DURABLE.iri();
    /** Statements a transaction's pending-change model holds in memory before spilling to disk. */
    public static final IRI SPILL_THRESHOLD = BasaltSettings.SPILL_THRESHOLD.iri();
    /** Explicit additions at which an isolated transaction starts writing through into the store (0 = never). */
    public static final IRI LARGE_TRANSACTION_THRESHOLD = BasaltSettings.LARGE_TRANSACTION_THRESHOLD.iri();
    /** Seconds such a transaction may hold the writer idle while another connection waits to commit. */
    public static final IRI LARGE_TRANSACTION_IDLE_SECONDS = BasaltSettings.LARGE_TRANSACTION_IDLE_SECONDS.iri();
    /** Whether GROUP BY reads its input in batches ("true"/"false"; unset = the JVM-wide default, true). */
    public static final IRI BATCHES = BasaltSettings.BATCHES.iri();
    /** When join chains run in chunks on helper threads: "auto", "force" or "off" (unset = the JVM-wide default, auto). */
    public static final IRI PARALLEL = BasaltSettings.PARALLEL.iri();
    /** Evaluate queries with Basalt's own engine where it can (default true); false = RDF4J's evaluator only. */
    public static final IRI NATIVE_EVALUATION = BasaltSettings.NATIVE_EVALUATION.iri();
    /** {@code none}, {@code rdfs} or {@code owl-rl}: the rules kept materialized (docs/sail.md, "Reasoning"). */
    public static final IRI INFERENCE = BasaltSettings.INFERENCE.iri();

    /** Rows a sort (ORDER BY) buffers before it spills a sorted run to disk. */
    public static final IRI SORT_ROWS = BasaltSettings.SORT_ROWS.iri();
    /** Distinct keys DISTINCT holds in memory before it partitions to disk. */
    public static final IRI DISTINCT_ROWS = BasaltSettings.DISTINCT_ROWS.iri();
    /** Groups GROUP BY holds in memory before it partitions to disk. */
    public static final IRI GROUP_ROWS = BasaltSettings.GROUP_ROWS.iri();
    /** Rows of a hash join's (or MINUS's) build side before it spills to disk. */
    public static final IRI HASH_JOIN_ROWS = BasaltSettings.HASH_JOIN_ROWS.iri();
    /** Term ids one property path search may hold; past it the query fails. */
    public static final IRI PATH_NODES = BasaltSettings.PATH_NODES.iri();
    /** Directory of query spill files (default java.io.tmpdir). */
    public static final IRI SPILL_DIRECTORY = BasaltSettings.SPILL_DIRECTORY.iri();
    /** Helper threads one query may use at once, 0 for none (default: the JVM's pool size). */
    public static final IRI HELPER_THREADS = BasaltSettings.HELPER_THREADS.iri();
    /** Seconds after which a query is stopped, 0 for no limit (default). */
    public static final IRI QUERY_TIMEOUT_SECONDS = BasaltSettings.QUERY_TIMEOUT_SECONDS.iri();
    /** ISO-8601 duration past which an open reader is logged as a warning, e.g. "PT10M". */
    public static final IRI READER_WARN_AGE = BasaltSettings.READER_WARN_AGE.iri();
    /** Bytes the journal file may not grow past, 0 for no limit (default). */
    public static final IRI MAX_FILE_BYTES = BasaltSettings.MAX_FILE_BYTES.iri();
    /** Percent of the journal file not used by the newest commit point at which the store compacts itself online, 0 = never (default). */
    public static final IRI COMPACT_FREE_PERCENT = BasaltSettings.COMPACT_FREE_PERCENT.iri();
    /** Whether opening the store reads its pages and terms into its caches ("true"/"false"; unset = the JVM-wide default, true). */
    public static final IRI PREWARM = BasaltSettings.PREWARM.iri();

    private BasaltStoreSchema() {
    }
}
