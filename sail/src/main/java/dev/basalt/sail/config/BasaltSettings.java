package dev.basalt.sail.config;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;

/**
 * The one table of a Basalt repository's settings: each row is a property of the configuration
 * vocabulary ({@link BasaltStoreSchema#NAMESPACE}), where it is set (the store's sail node or the
 * repository node), the question and default of the repository templates (RDF4J Console's
 * {@code basalt.ttl}, the Workbench's {@code basalt.ttl} and its form {@code create-basalt.xsl}),
 * an example value other than the default, and the operator guide's line. The vocabulary's IRIs
 * ({@link BasaltStoreSchema}, {@code BasaltRepositoryConfig}) are taken from here;
 * {@code SettingsTableTest} and the Workbench's {@code CreateFormSettingsTest} fail when the
 * configuration codec, a template, the form or docs/operator-guide.md's settings table lacks a row
 * or disagrees with it.
 *
 * <p>A template field whose default is empty leaves the setting unset: the store sizes it
 * itself (see the row's guide line).
 *
 * <p>Thread-safe: constants only.
 */
public enum BasaltSettings {
    JOURNAL_MODE("journalMode", Scope.STORE, "Journal mode", "RW|WORM", "WORM",
            "`RW` (or `WORM`: every commit stays readable); fixed at creation"),
    HISTORY_RETENTION("historyRetention", Scope.STORE, "History retention", "PT0S", "PT1H",
            "`PT0S` (ISO-8601 duration a superseded commit stays readable in RW mode)"),
    STATEMENT_INDEXES("statementIndexes", Scope.STORE, "Statement indexes", "spoc,posc,ospc,cspo", "spoc,posc",
            "`spoc,posc,ospc,cspo`; fixed at creation (`cspo` is built when the first statement in a named graph is added, see below)"),
    DURABLE("durable", Scope.STORE, "Durable commits", "true|false", "false", "`true` (fsync at every commit)"),
    LEAF_MAX_ENTRIES("leafMaxEntries", Scope.STORE, "Leaf page entries", "", "256",
            "empty = automatic: statement index leaves hold as many entries as a 4 KiB page holds, at most 2,048"),
    INTERNAL_MAX_ENTRIES("internalMaxEntries", Scope.STORE, "Internal page children", "", "64",
            "empty = the B+tree's default"),
    PAGE_CACHE_BYTES("pageCacheBytes", Scope.STORE, "Page cache bytes", "", "67108864",
            "empty = automatic: 1/8 of the max heap, at least 64 MiB"),
    VALUE_CACHE_SIZE("valueCacheSize", Scope.STORE, "Value cache size", "", "50000",
            "empty = automatic: 1/8 of the max heap at ~384 bytes an entry (at least 100000); a term longer than"
                    + " 256 characters counts one entry per 256"),
    DERIVED_CACHE_BYTES("derivedCacheBytes", Scope.STORE, "Derived value cache bytes", "", "16777216",
            "empty = automatic: 1/16 of the max heap, at least 64 MiB: heap the values of per-term expressions (such as `xsd:decimal(?price)` in a SUM) that all queries share may take"),
    VALUE_ID_CACHE_SIZE("valueIdCacheSize", Scope.STORE, "Value id cache size", "", "50000",
            "empty = automatic (100000)"),
    SPILL_THRESHOLD("spillThreshold", Scope.STORE, "Spill threshold", "100000", "20000",
            "100000: statements a transaction's pending changes hold in memory before they spill to disk"),
    LARGE_TRANSACTION_THRESHOLD("largeTransactionThreshold", Scope.STORE, "Large transaction threshold", "100000",
            "7000", "100000: explicit additions at which an isolated transaction writes through into the store;"
                    + " 0 = never"),
    LARGE_TRANSACTION_IDLE_SECONDS("largeTransactionIdleSeconds", Scope.STORE, "Large transaction idle seconds", "30",
            "45", "30: how long such a transaction may hold the writer idle while another connection waits to commit"),
    SORT_ROWS("sortRows", Scope.STORE, "Sort rows", "0", "11",
            "0 = the default, 250000 rows an ORDER BY buffers before it spills a sorted run"),
    DISTINCT_ROWS("distinctRows", Scope.STORE, "Distinct rows", "0", "12",
            "0 = the default, 500000 keys DISTINCT holds before it partitions to disk"),
    GROUP_ROWS("groupRows", Scope.STORE, "Group rows", "0", "13",
            "0 = the default, 500000 groups GROUP BY holds before it partitions to disk"),
    HASH_JOIN_ROWS("hashJoinRows", Scope.STORE, "Hash join rows", "0", "14",
            "0 = the default, 4000000 rows of a hash join's build side before it spills (and keys of a counting join's table, or three of its key-partition pairs per row, before it counts row by row)"),
    PATH_NODES("pathNodes", Scope.STORE, "Path nodes", "0", "15",
            "0 = the default, 4000000 term ids one property path search may hold"),
    SPILL_DIRECTORY("spillDirectory", Scope.STORE, "Spill directory", "", "/var/tmp/basalt-spill",
            "empty = `java.io.tmpdir`"),
    HELPER_THREADS("helperThreads", Scope.STORE, "Helper threads per query", "-1", "0",
            "-1 = the JVM's helper pool (processors − 1); 0 = none"),
    QUERY_TIMEOUT_SECONDS("queryTimeoutSeconds", Scope.STORE, "Query timeout seconds", "0", "30", "0 = no limit"),
    READER_WARN_AGE("readerWarnAge", Scope.STORE, "Reader warn age", "PT10M", "PT1M",
            "`PT10M`: an open reader older than this is logged as a warning"),
    MAX_FILE_BYTES("maxFileBytes", Scope.STORE, "Maximum file bytes", "0", "1073741824", "0 = no limit"),
    COMPACT_FREE_PERCENT("compactFreePercent", Scope.STORE, "Compact at free percent", "0", "70",
            "0 = never; else the store compacts itself online when this percent of the journal file is not used"
                    + " (see \"Compacting a store\")"),
    PREWARM("prewarm", Scope.STORE, "Prewarm caches at open", "true|false", "false",
            "`true`: opening the store reads the newest commit's pages and the dictionary's terms into its caches"
                    + " before its first query (see \"What a store reads when it opens\"); unset = the JVM-wide"
                    + " default `-Dbasalt.store.prewarm` (true)"),
    BATCHES("batches", Scope.STORE, "Batch execution", "true|false", "false",
            "`true`: a GROUP BY whose input operators all have a batch form reads it in batches of rows; unset ="
                    + " the JVM-wide default `-Dbasalt.exec.batches` (true)"),
    PARALLEL("parallel", Scope.STORE, "Parallel joins", "auto|force|off", "force",
            "`auto`: a join chain over 128 estimated rows or more runs in chunks on helper threads; `force`: every"
                    + " chain that can, `off`: none; unset = the JVM-wide default `-Dbasalt.exec.parallel` (auto)"),
    NATIVE_EVALUATION("nativeEvaluation", Scope.STORE, "Native evaluation", "true|false", "false",
            "`true`: Basalt's engine evaluates what it supports; `false`: RDF4J's evaluator only"),
    INFERENCE("inference", Scope.STORE, "Inference", "none|rdfs|owl-rl", "rdfs",
            "`none` (or `rdfs`, `owl-rl`: the rules kept materialized, see sail.md)"),
    QUERY_SHAPES("queryShapes", Scope.REPOSITORY, "Query shapes", "1000", "20",
            "1000: SPARQL query shapes the query front door keeps, each with its parsed template, optimized trees"
                    + " and compiled plans; 0 parses every query"),
    SHAPE_PLANS("shapePlans", Scope.REPOSITORY, "Keep shape plans", "true|false", "false",
            "`true`: compiled plans are kept with the shapes; `false` compiles every query");

    /** Which configuration node carries a setting. */
    public enum Scope {
        /** The store's sail node ({@code config:sail.impl}). */
        STORE,
        /** The repository node ({@code config:rep.impl}), read by {@code BasaltRepositoryConfig}. */
        REPOSITORY
    }

    private final String localName;
    private final Scope scope;
    private final String label;
    private final String field;
    private final String example;
    private final String guide;
    private final IRI iri;

    BasaltSettings(String localName, Scope scope, String label, String field, String example, String guide) {
        this.localName = localName;
        this.scope = scope;
        this.label = label;
        this.field = field;
        this.example = example;
        this.guide = guide;
        this.iri = SimpleValueFactory.getInstance().createIRI(BasaltStoreSchema.NAMESPACE, localName);
    }

    /** The property's local name in {@link BasaltStoreSchema#NAMESPACE}, also the form field's id. */
    public String localName() {
        return localName;
    }

    public IRI iri() {
        return iri;
    }

    public Scope scope() {
        return scope;
    }

    /** The templates' question, also the form field's name. */
    public String label() {
        return label;
    }

    /** The choices of a template field, the first the default; one entry for a free field. */
    public List<String> choices() {
        return Arrays.asList(field.split("\\|", -1));
    }

    /** The template field's default, empty for "unset". */
    public String defaultText() {
        return choices().get(0);
    }

    /** A valid value other than the default. */
    public String example() {
        return example;
    }

    /** The line of the repository templates: {@code basalt:NAME "{%LABEL|DEFAULT…%}"}. */
    public String templateLine() {
        return BasaltStoreSchema.PREFIX + ":" + localName + " \"{%" + label + "|" + field + "%}\"";
    }

    /** The row of docs/operator-guide.md's settings table. */
    public String guideRow() {
        return "| " + label + " | `" + BasaltStoreSchema.PREFIX + ":" + localName + "`"
                + (scope == Scope.REPOSITORY ? " (on the repository node)" : "") + " | " + guide + " |";
    }

    /** The row of the given property, if it is a setting. */
    public static Optional<BasaltSettings> of(IRI property) {
        return Arrays.stream(values()).filter(s -> s.iri.equals(property)).findFirst();
    }
}
