package dev.basalt.sail.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.sail.base.config.BaseSailConfig;
import org.eclipse.rdf4j.sail.config.SailConfigException;

import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.ParallelMode;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.sail.spill.SpillPolicy;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.journal.JournalConfig;
import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.lexicon.LexiconConfig;
import dev.basalt.store.quads.QuadOrder;

/**
 * Configuration of a {@link dev.basalt.sail.BasaltStore}, as Java bean and as RDF in the
 * {@link BasaltStoreSchema} vocabulary. Unset numeric settings (-1) take the store's defaults.
 * Journal mode and statement indexes are fixed when the store is created: an existing store
 * keeps its own, and a configuration that names different ones is refused when the store opens.
 *
 * <p>Not thread-safe: a mutable bean; fill it in one thread before handing it to a store, which reads it
 * while initializing.
 */
public class BasaltStoreConfig extends BaseSailConfig {
    public static final String DEFAULT_INDEXES = "spoc,posc,ospc,cspo";

    private JournalMode journalMode = JournalMode.RW;
    private Duration historyRetention = Duration.ZERO;
    /** Default of {@link #getLargeTransactionThreshold()}: one write batch of an update at isolation NONE. */
    public static final long DEFAULT_LARGE_TRANSACTION_THRESHOLD = 100_000;
    /** Default of {@link #getLargeTransactionIdleSeconds()}. */
    public static final int DEFAULT_LARGE_TRANSACTION_IDLE_SECONDS = 30;
    private String statementIndexes;
    private int leafMaxEntries = -1;
    private int internalMaxEntries = -1;
    private long pageCacheBytes = -1;
    private int valueCacheSize = -1;
    private int valueIdCacheSize = -1;
    private boolean durable = true;
    private int spillThreshold = -1;
    private long largeTransactionThreshold = DEFAULT_LARGE_TRANSACTION_THRESHOLD;
    private int largeTransactionIdleSeconds = DEFAULT_LARGE_TRANSACTION_IDLE_SECONDS;
    private boolean nativeEvaluation = true;
    private InferenceMode inference = InferenceMode.NONE;

    public BasaltStoreConfig() {
        super(BasaltStoreSchema.SAIL_TYPE);
    }

    public JournalMode getJournalMode() {
        return journalMode;
    }

    public void setJournalMode(JournalMode journalMode) {
        this.journalMode = journalMode;
        this.journalModeSet = true;
    }

    public Duration getHistoryRetention() {
        return historyRetention;
    }

    public void setHistoryRetention(Duration historyRetention) {
        this.historyRetention = historyRetention;
    }

    /** The configured index orders, or null to keep those of an existing store (default for a new one). */
    public String getStatementIndexes() {
        return statementIndexes;
    }

    public void setStatementIndexes(String statementIndexes) {
        this.statementIndexes = statementIndexes;
    }

    public int getLeafMaxEntries() {
        return leafMaxEntries;
    }

    public void setLeafMaxEntries(int leafMaxEntries) {
        this.leafMaxEntries = leafMaxEntries;
    }

    public int getInternalMaxEntries() {
        return internalMaxEntries;
    }

    public void setInternalMaxEntries(int internalMaxEntries) {
        this.internalMaxEntries = internalMaxEntries;
    }

    public long getPageCacheBytes() {
        return pageCacheBytes;
    }

    public void setPageCacheBytes(long pageCacheBytes) {
        this.pageCacheBytes = pageCacheBytes;
    }

    public int getValueCacheSize() {
        return valueCacheSize;
    }

    public void setValueCacheSize(int valueCacheSize) {
        this.valueCacheSize = valueCacheSize;
    }

    public int getValueIdCacheSize() {
        return valueIdCacheSize;
    }

    public void setValueIdCacheSize(int valueIdCacheSize) {
        this.valueIdCacheSize = valueIdCacheSize;
    }

    public boolean isDurable() {
        return durable;
    }

    public void setDurable(boolean durable) {
        this.durable = durable;
    }

    /**
     * Statements one model of a transaction's pending changes may hold in memory before it spills
     * to a temporary store on disk; -1 for the default (100 000).
     */
    public int getSpillThreshold() {
        return spillThreshold;
    }

    public void setSpillThreshold(int spillThreshold) {
        this.spillThreshold = spillThreshold;
    }

    /**
     * Explicit additions at which an isolated transaction stops collecting its changes in RDF4J's
     * branch and writes them through into the store's open write transaction, holding the store's
     * writer until it commits or rolls back (see docs/sail.md); 0 keeps every transaction in its
     * branch.
     */
    public long getLargeTransactionThreshold() {
        return largeTransactionThreshold;
    }

    public void setLargeTransactionThreshold(long largeTransactionThreshold) {
        if (largeTransactionThreshold < 0) {
            throw new IllegalArgumentException("largeTransactionThreshold must be 0 (never) or a number of statements, not "
                    + largeTransactionThreshold);
        }
        this.largeTransactionThreshold = largeTransactionThreshold;
    }

    /**
     * Seconds a transaction that writes through (see {@link #getLargeTransactionThreshold()}) may
     * hold the store's writer without an operation of its connection while another connection
     * waits to commit; past that it is rolled back and the waiting commit goes ahead.
     */
    public int getLargeTransactionIdleSeconds() {
        return largeTransactionIdleSeconds;
    }

    public void setLargeTransactionIdleSeconds(int largeTransactionIdleSeconds) {
        if (largeTransactionIdleSeconds < 0) {
            throw new IllegalArgumentException("largeTransactionIdleSeconds must not be negative, not "
                    + largeTransactionIdleSeconds);
        }
        this.largeTransactionIdleSeconds = largeTransactionIdleSeconds;
    }

    /** True if queries run on Basalt's native engine where it supports them (see docs/optimizer.md). */
    public boolean isNativeEvaluation() {
        return nativeEvaluation;
    }

    public void setNativeEvaluation(boolean nativeEvaluation) {
        this.nativeEvaluation = nativeEvaluation;
    }

    // ---- execution limits and tuning knobs: unset (-1 / null) takes ExecLimits.defaults() and the journal's ----
    private long sortRows = -1;
    private long distinctRows = -1;
    private long groupRows = -1;
    private long hashJoinRows = -1;
    private long pathNodes = -1;
    private String spillDirectory;
    private int helperThreads = -1;
    private int queryTimeoutSeconds;
    private Duration readerWarnAge;
    private long maxFileBytes = -1;
    private boolean journalModeSet;
    /** Batch execution of GROUP BY; null for the JVM-wide default ({@link ExecLimits#DEFAULT_BATCHES}). */
    private Boolean batches;
    /** When join chains run in parallel; null for the JVM-wide default ({@link ExecLimits#DEFAULT_PARALLEL}). */
    private ParallelMode parallel;

    /** True if the journal mode was configured (set or parsed), so an existing store in another mode is refused. */
    public boolean isJournalModeSet() {
        return journalModeSet;
    }

    /** Rows a sort buffers before it spills a sorted run; -1 for the default ({@link ExecLimits#defaults()}). */
    public long getSortRows() {
        return sortRows;
    }

    public void setSortRows(long sortRows) {
        this.sortRows = positiveOrUnset("sortRows", sortRows);
    }

    /** Distinct keys DISTINCT holds before it partitions to disk; -1 for the default. */
    public long getDistinctRows() {
        return distinctRows;
    }

    public void setDistinctRows(long distinctRows) {
        this.distinctRows = positiveOrUnset("distinctRows", distinctRows);
    }

    /** Groups GROUP BY holds before it partitions to disk; -1 for the default. */
    public long getGroupRows() {
        return groupRows;
    }

    public void setGroupRows(long groupRows) {
        this.groupRows = positiveOrUnset("groupRows", groupRows);
    }

    /** Rows of a hash join's build side before it spills; -1 for the default. */
    public long getHashJoinRows() {
        return hashJoinRows;
    }

    public void setHashJoinRows(long hashJoinRows) {
        this.hashJoinRows = positiveOrUnset("hashJoinRows", hashJoinRows);
    }

    /** Term ids one property path search may hold before the query fails; -1 for the default. */
    public long getPathNodes() {
        return pathNodes;
    }

    public void setPathNodes(long pathNodes) {
        this.pathNodes = positiveOrUnset("pathNodes", pathNodes);
    }

    /** Directory of query spill files, or null for the default (java.io.tmpdir). */
    public String getSpillDirectory() {
        return spillDirectory;
    }

    public void setSpillDirectory(String spillDirectory) {
        this.spillDirectory = spillDirectory == null || spillDirectory.isBlank() ? null : spillDirectory.trim();
    }

    /** Helper threads (of the JVM's shared pool) one query may use at once, 0 for none; -1 for the default. */
    public int getHelperThreads() {
        return helperThreads;
    }

    public void setHelperThreads(int helperThreads) {
        if (helperThreads < -1) {
            throw new IllegalArgumentException("helperThreads must be 0 or more (or -1 for the default), not "
                    + helperThreads);
        }
        this.helperThreads = helperThreads;
    }

    /** Seconds after which a query on this store is stopped, 0 for no limit (a shorter per-query limit still applies). */
    public int getQueryTimeoutSeconds() {
        return queryTimeoutSeconds;
    }

    public void setQueryTimeoutSeconds(int queryTimeoutSeconds) {
        if (queryTimeoutSeconds < 0) {
            throw new IllegalArgumentException("queryTimeoutSeconds must be 0 (no limit) or more, not "
                    + queryTimeoutSeconds);
        }
        this.queryTimeoutSeconds = queryTimeoutSeconds;
    }

    /** Age past which a reader pinning a commit point is logged as a warning; null for the journal's default. */
    public Duration getReaderWarnAge() {
        return readerWarnAge;
    }

    public void setReaderWarnAge(Duration readerWarnAge) {
        this.readerWarnAge = readerWarnAge;
    }

    /** Bytes the journal file may not grow past (0 = no limit); -1 for the journal's default. */
    public long getMaxFileBytes() {
        return maxFileBytes;
    }

    public void setMaxFileBytes(long maxFileBytes) {
        if (maxFileBytes < -1) {
            throw new IllegalArgumentException("maxFileBytes must be 0 (no limit) or more, not " + maxFileBytes);
        }
        this.maxFileBytes = maxFileBytes;
    }

    /**
     * Whether a GROUP BY may read its input in batches (see docs/optimizer.md); null (unset) takes
     * the JVM-wide default, {@code -Dbasalt.exec.batches} or true.
     */
    public Boolean getBatches() {
        return batches;
    }

    public void setBatches(Boolean batches) {
        this.batches = batches;
    }

    /**
     * When the plan compiler runs a join chain in chunks on helper threads ({@link ParallelMode});
     * null (unset) takes the JVM-wide default, {@code -Dbasalt.exec.parallel} or {@code auto}.
     */
    public ParallelMode getParallel() {
        return parallel;
    }

    public void setParallel(ParallelMode parallel) {
        this.parallel = parallel;
    }

    /** The plan compiler's policy for this store's queries: its batch and parallel settings over {@link OrderingPolicy#DEFAULT}. */
    public OrderingPolicy toOrderingPolicy() {
        OrderingPolicy d = OrderingPolicy.DEFAULT;
        return d.withExecution(batches != null ? batches : d.batches(), parallel != null ? parallel : d.parallel());
    }

    /** The bounds of this store's query evaluations: the configured values over {@link ExecLimits#defaults()}. */
    public ExecLimits toExecLimits() {
        ExecLimits d = ExecLimits.defaults();
        return new ExecLimits(sortRows > 0 ? sortRows : d.sortRows(), distinctRows > 0 ? distinctRows : d.distinctRows(),
                groupRows > 0 ? groupRows : d.groupRows(), hashJoinRows > 0 ? hashJoinRows : d.hashJoinRows(),
                pathNodes > 0 ? pathNodes : d.pathNodes(),
                spillDirectory != null ? java.nio.file.Path.of(spillDirectory) : d.spillDir(),
                helperThreads >= 0 ? helperThreads : d.helperThreads());
    }

    /** The journal settings of this section over {@code journal}. */
    private JournalConfig withJournalKnobs(JournalConfig journal) {
        JournalConfig j = readerWarnAge != null ? journal.withReaderWarnAge(readerWarnAge) : journal;
        return maxFileBytes >= 0 ? j.withMaxFileBytes(maxFileBytes) : j;
    }

    private static long positiveOrUnset(String name, long value) {
        if (value < 1 && value != -1) {
            throw new IllegalArgumentException(name + " must be a positive number of rows (or -1 for the default), not "
                    + value);
        }
        return value;
    }

    private void exportExecutionSettings(Model m, Resource node) {
        ValueFactory vf = SimpleValueFactory.getInstance();
        long[] rows = { sortRows, distinctRows, groupRows, hashJoinRows, pathNodes };
        IRI[] rowProperties = { BasaltStoreSchema.SORT_ROWS, BasaltStoreSchema.DISTINCT_ROWS,
                BasaltStoreSchema.GROUP_ROWS, BasaltStoreSchema.HASH_JOIN_ROWS, BasaltStoreSchema.PATH_NODES };
        for (int i = 0; i < rows.length; i++) {
            if (rows[i] > 0) {
                m.add(node, rowProperties[i], vf.createLiteral(rows[i]));
            }
        }
        if (spillDirectory != null) {
            m.add(node, BasaltStoreSchema.SPILL_DIRECTORY, vf.createLiteral(spillDirectory));
        }
        if (helperThreads >= 0) {
            m.add(node, BasaltStoreSchema.HELPER_THREADS, vf.createLiteral(helperThreads));
        }
        if (queryTimeoutSeconds > 0) {
            m.add(node, BasaltStoreSchema.QUERY_TIMEOUT_SECONDS, vf.createLiteral(queryTimeoutSeconds));
        }
        if (readerWarnAge != null) {
            m.add(node, BasaltStoreSchema.READER_WARN_AGE, vf.createLiteral(readerWarnAge.toString()));
        }
        if (maxFileBytes >= 0) {
            m.add(node, BasaltStoreSchema.MAX_FILE_BYTES, vf.createLiteral(maxFileBytes));
        }
        if (batches != null) {
            m.add(node, BasaltStoreSchema.BATCHES, vf.createLiteral(batches));
        }
        if (parallel != null) {
            m.add(node, BasaltStoreSchema.PARALLEL, vf.createLiteral(parallel.label()));
        }
    }

    private void parseExecutionSettings(Model m, Resource node) {
        literal(m, node, BasaltStoreSchema.SORT_ROWS, l -> sortRows = rows(l, BasaltStoreSchema.SORT_ROWS));
        literal(m, node, BasaltStoreSchema.DISTINCT_ROWS, l -> distinctRows = rows(l, BasaltStoreSchema.DISTINCT_ROWS));
        literal(m, node, BasaltStoreSchema.GROUP_ROWS, l -> groupRows = rows(l, BasaltStoreSchema.GROUP_ROWS));
        literal(m, node, BasaltStoreSchema.HASH_JOIN_ROWS, l -> hashJoinRows = rows(l, BasaltStoreSchema.HASH_JOIN_ROWS));
        literal(m, node, BasaltStoreSchema.PATH_NODES, l -> pathNodes = rows(l, BasaltStoreSchema.PATH_NODES));
        literal(m, node, BasaltStoreSchema.SPILL_DIRECTORY, l -> setSpillDirectory(l.getLabel()));
        literal(m, node, BasaltStoreSchema.HELPER_THREADS, l -> helperThreads = "-1".equals(l.getLabel().trim()) ? -1
                : (int) number(l, BasaltStoreSchema.HELPER_THREADS));
        literal(m, node, BasaltStoreSchema.QUERY_TIMEOUT_SECONDS,
                l -> queryTimeoutSeconds = (int) number(l, BasaltStoreSchema.QUERY_TIMEOUT_SECONDS));
        literal(m, node, BasaltStoreSchema.READER_WARN_AGE, l -> {
            try {
                readerWarnAge = Duration.parse(l.getLabel().trim());
            } catch (DateTimeParseException e) {
                throw new SailConfigException(BasaltStoreSchema.READER_WARN_AGE
                        + " must be an ISO-8601 duration such as PT10M, found '" + l.getLabel() + "'");
            }
        });
        literal(m, node, BasaltStoreSchema.MAX_FILE_BYTES, l -> maxFileBytes = rows(l, BasaltStoreSchema.MAX_FILE_BYTES));
        literal(m, node, BasaltStoreSchema.BATCHES, l -> batches = bool(l, BasaltStoreSchema.BATCHES));
        literal(m, node, BasaltStoreSchema.PARALLEL, l -> {
            try {
                parallel = ParallelMode.parse(l.getLabel());
            } catch (IllegalArgumentException e) {
                throw new SailConfigException(BasaltStoreSchema.PARALLEL + " must be auto, force or off, found '"
                        + l.getLabel() + "'");
            }
        });
    }

    /** A non-negative long (0 = unset for row budgets, no limit for maxFileBytes). */
    private static long rows(Literal l, IRI property) {
        try {
            long v = Long.parseLong(l.getLabel().trim());
            if (v >= 0) {
                return property.equals(BasaltStoreSchema.MAX_FILE_BYTES) || v > 0 ? v : -1;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new SailConfigException(property + " must be a non-negative integer, found '" + l.getLabel() + "'");
    }
    // ---- end of execution limits and tuning knobs ----

    // ---- online compaction policy ----
    private int compactFreePercent;

    /**
     * Share (percent) of the journal file not used by the newest commit point at which the store
     * compacts itself online, 0 for never (default); see docs/operator-guide.md, "Compacting a store".
     */
    public int getCompactFreePercent() {
        return compactFreePercent;
    }

    public void setCompactFreePercent(int compactFreePercent) {
        if (compactFreePercent < 0 || compactFreePercent > 99) {
            throw new IllegalArgumentException("compactFreePercent must be 0 (never) to 99, not " + compactFreePercent);
        }
        this.compactFreePercent = compactFreePercent;
    }

    private void exportCompactionSettings(Model m, Resource node) {
        if (compactFreePercent > 0) {
            m.add(node, BasaltStoreSchema.COMPACT_FREE_PERCENT, SimpleValueFactory.getInstance().createLiteral(compactFreePercent));
        }
    }

    private void parseCompactionSettings(Model m, Resource node) {
        literal(m, node, BasaltStoreSchema.COMPACT_FREE_PERCENT, l -> {
            long v = number(l, BasaltStoreSchema.COMPACT_FREE_PERCENT);
            if (v > 99) {
                throw new SailConfigException(BasaltStoreSchema.COMPACT_FREE_PERCENT + " must be 0 (never) to 99, found '"
                        + l.getLabel() + "'");
            }
            compactFreePercent = (int) v;
        });
    }
    // ---- end of online compaction policy ----

    /** The rule set the store keeps materialized in its inferred statements (docs/sail.md, "Reasoning"). */
    public InferenceMode getInference() {
        return inference;
    }

    public void setInference(InferenceMode inference) {
        this.inference = java.util.Objects.requireNonNull(inference, "inference");
    }

    /** Parses an index list such as "spoc, posc": at least one, no duplicates. */
    public static List<QuadOrder> parseIndexes(String text) {
        LinkedHashSet<QuadOrder> orders = new LinkedHashSet<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                QuadOrder o = QuadOrder.parse(part);
                if (!orders.add(o)) {
                    throw new IllegalArgumentException("statement index '" + o + "' is listed twice in '" + text + "'");
                }
            }
        }
        if (orders.isEmpty()) {
            throw new IllegalArgumentException("at least one statement index is needed, got '" + text + "'");
        }
        return new ArrayList<>(orders);
    }

    /** The store settings this configuration asks for. */
    public StoreConfig toStoreConfig() {
        StoreConfig d = StoreConfig.defaults();
        JournalConfig journal = withJournalKnobs(d.journal().withMode(journalMode).withHistoryRetention(historyRetention)
                .withDurable(durable));
        BTreeConfig.Builder tree = BTreeConfig.builder();
        if (leafMaxEntries > 0) {
            tree.leafMaxEntries(leafMaxEntries);
        }
        if (internalMaxEntries > 0) {
            tree.internalMaxEntries(internalMaxEntries);
        }
        return TreeSettings.withLexiconTrees(TreeSettings.withStatementTrees(d.withJournal(journal)
                .withDefaultTree(tree.build())
                .withPageCacheBytes(pageCacheBytes >= 0 ? pageCacheBytes : defaultPageCacheBytes())));
    }

    /**
     * The page cache when none is configured: an eighth of the JVM's maximum heap, at least 64 MiB
     * (128 MiB at {@code -Xmx1g}). A fixed 64 MiB held a third of a 1M-triple store's pages and
     * left short queries spending their time re-reading and re-checking pages the OS had cached.
     */
    public static long defaultPageCacheBytes() {
        return Math.max(64L << 20, Runtime.getRuntime().maxMemory() / 8);
    }

    /** Spilling of pending changes into temporary stores under {@code directory}. */
    public SpillPolicy toSpillPolicy(java.nio.file.Path directory) {
        SpillPolicy d = SpillPolicy.defaults(directory);
        return spillThreshold < 0 ? d
                : new SpillPolicy(spillThreshold, d.minFreeHeapFraction(), directory);
    }

    public LexiconConfig toLexiconConfig() {
        LexiconConfig d = LexiconConfig.DEFAULT;
        return new LexiconConfig(valueCacheSize >= 0 ? valueCacheSize : defaultValueCacheSize(),
                valueIdCacheSize >= 0 ? valueIdCacheSize : d.idCacheSize(), d.writerCacheSize());
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
    public static int defaultValueCacheSize() {
        return (int) Math.min(Integer.MAX_VALUE,
                Math.max(LexiconConfig.DEFAULT.valueCacheSize(), Runtime.getRuntime().maxMemory() / 8 / 384));
    }

    @Override
    public void validate() throws SailConfigException {
        super.validate();
        try {
            if (statementIndexes != null) {
                parseIndexes(statementIndexes);
            }
            if (historyRetention == null || journalMode == null) {
                throw new IllegalArgumentException("journal mode and history retention must be set");
            }
            toStoreConfig();
            toLexiconConfig();
            toSpillPolicy(java.nio.file.Path.of("."));
            toExecLimits();
        } catch (IllegalArgumentException e) {
            throw new SailConfigException("invalid Basalt store configuration: " + e.getMessage(), e);
        }
    }

    @Override
    public Resource export(Model m) {
        Resource node = super.export(m);
        ValueFactory vf = SimpleValueFactory.getInstance();
        m.setNamespace(BasaltStoreSchema.PREFIX, BasaltStoreSchema.NAMESPACE);
        m.add(node, BasaltStoreSchema.JOURNAL_MODE, vf.createLiteral(journalMode.name()));
        m.add(node, BasaltStoreSchema.HISTORY_RETENTION, vf.createLiteral(historyRetention.toString()));
        if (statementIndexes != null) {
            m.add(node, BasaltStoreSchema.STATEMENT_INDEXES, vf.createLiteral(statementIndexes));
        }
        if (leafMaxEntries > 0) {
            m.add(node, BasaltStoreSchema.LEAF_MAX_ENTRIES, vf.createLiteral(leafMaxEntries));
        }
        if (internalMaxEntries > 0) {
            m.add(node, BasaltStoreSchema.INTERNAL_MAX_ENTRIES, vf.createLiteral(internalMaxEntries));
        }
        if (pageCacheBytes >= 0) {
            m.add(node, BasaltStoreSchema.PAGE_CACHE_BYTES, vf.createLiteral(pageCacheBytes));
        }
        if (valueCacheSize >= 0) {
            m.add(node, BasaltStoreSchema.VALUE_CACHE_SIZE, vf.createLiteral(valueCacheSize));
        }
        if (valueIdCacheSize >= 0) {
            m.add(node, BasaltStoreSchema.VALUE_ID_CACHE_SIZE, vf.createLiteral(valueIdCacheSize));
        }
        m.add(node, BasaltStoreSchema.DURABLE, vf.createLiteral(durable));
        if (spillThreshold > 0) {
            m.add(node, BasaltStoreSchema.SPILL_THRESHOLD, vf.createLiteral(spillThreshold));
        }
        if (largeTransactionThreshold != DEFAULT_LARGE_TRANSACTION_THRESHOLD) {
            m.add(node, BasaltStoreSchema.LARGE_TRANSACTION_THRESHOLD, vf.createLiteral(largeTransactionThreshold));
        }
        if (largeTransactionIdleSeconds != DEFAULT_LARGE_TRANSACTION_IDLE_SECONDS) {
            m.add(node, BasaltStoreSchema.LARGE_TRANSACTION_IDLE_SECONDS, vf.createLiteral(largeTransactionIdleSeconds));
        }
        m.add(node, BasaltStoreSchema.NATIVE_EVALUATION, vf.createLiteral(nativeEvaluation));
        exportExecutionSettings(m, node);
        exportCompactionSettings(m, node);
        if (inference != InferenceMode.NONE) {
            m.add(node, BasaltStoreSchema.INFERENCE, vf.createLiteral(inference.label()));
        }
        return node;
    }

    @Override
    public void parse(Model m, Resource node) throws SailConfigException {
        super.parse(m, node);
        literal(m, node, BasaltStoreSchema.JOURNAL_MODE, l -> {
            String mode = l.getLabel().trim().toUpperCase(Locale.ROOT);
            try {
                setJournalMode(JournalMode.valueOf(mode));
            } catch (IllegalArgumentException e) {
                throw new SailConfigException(BasaltStoreSchema.JOURNAL_MODE + " must be RW or WORM, found '"
                        + l.getLabel() + "'");
            }
        });
        literal(m, node, BasaltStoreSchema.HISTORY_RETENTION, l -> {
            try {
                historyRetention = Duration.parse(l.getLabel().trim());
            } catch (DateTimeParseException e) {
                throw new SailConfigException(BasaltStoreSchema.HISTORY_RETENTION
                        + " must be an ISO-8601 duration such as PT0S, PT30M or P7D, found '" + l.getLabel() + "'");
            }
        });
        literal(m, node, BasaltStoreSchema.STATEMENT_INDEXES, l -> statementIndexes = l.getLabel().trim());
        literal(m, node, BasaltStoreSchema.LEAF_MAX_ENTRIES, l -> leafMaxEntries = (int) number(l, BasaltStoreSchema.LEAF_MAX_ENTRIES));
        literal(m, node, BasaltStoreSchema.INTERNAL_MAX_ENTRIES,
                l -> internalMaxEntries = (int) number(l, BasaltStoreSchema.INTERNAL_MAX_ENTRIES));
        literal(m, node, BasaltStoreSchema.PAGE_CACHE_BYTES, l -> pageCacheBytes = number(l, BasaltStoreSchema.PAGE_CACHE_BYTES));
        literal(m, node, BasaltStoreSchema.VALUE_CACHE_SIZE, l -> valueCacheSize = (int) number(l, BasaltStoreSchema.VALUE_CACHE_SIZE));
        literal(m, node, BasaltStoreSchema.VALUE_ID_CACHE_SIZE,
                l -> valueIdCacheSize = (int) number(l, BasaltStoreSchema.VALUE_ID_CACHE_SIZE));
        literal(m, node, BasaltStoreSchema.SPILL_THRESHOLD,
                l -> spillThreshold = (int) number(l, BasaltStoreSchema.SPILL_THRESHOLD));
        literal(m, node, BasaltStoreSchema.LARGE_TRANSACTION_THRESHOLD,
                l -> largeTransactionThreshold = number(l, BasaltStoreSchema.LARGE_TRANSACTION_THRESHOLD));
        literal(m, node, BasaltStoreSchema.LARGE_TRANSACTION_IDLE_SECONDS,
                l -> largeTransactionIdleSeconds = (int) number(l, BasaltStoreSchema.LARGE_TRANSACTION_IDLE_SECONDS));
        literal(m, node, BasaltStoreSchema.DURABLE, l -> durable = bool(l, BasaltStoreSchema.DURABLE));
        literal(m, node, BasaltStoreSchema.NATIVE_EVALUATION,
                l -> nativeEvaluation = bool(l, BasaltStoreSchema.NATIVE_EVALUATION));
        parseExecutionSettings(m, node);
        parseCompactionSettings(m, node);
        literal(m, node, BasaltStoreSchema.INFERENCE, l -> {
            try {
                inference = InferenceMode.parse(l.getLabel());
            } catch (IllegalArgumentException e) {
                throw new SailConfigException(BasaltStoreSchema.INFERENCE + ": " + e.getMessage());
            }
        });
    }

    /** Runs {@code action} on the property's value; a blank value (a template field left empty) leaves it unset. */
    private static void literal(Model m, Resource node, IRI property, Consumer<Literal> action) {
        Optional<Literal> l = Models.objectLiteral(m.getStatements(node, property, null));
        l.filter(v -> !v.getLabel().isBlank()).ifPresent(action);
    }

    private static boolean bool(Literal l, IRI property) {
        String b = l.getLabel().trim();
        if (!b.equals("true") && !b.equals("false")) {
            throw new SailConfigException(property + " must be true or false, found '" + b + "'");
        }
        return Boolean.parseBoolean(b);
    }

    private static long number(Literal l, IRI property) {
        try {
            long v = Long.parseLong(l.getLabel().trim());
            if (v < 0 || v > Integer.MAX_VALUE && !property.equals(BasaltStoreSchema.PAGE_CACHE_BYTES)) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw new SailConfigException(property + " must be a non-negative integer, found '" + l.getLabel() + "'");
        }
    }
}
