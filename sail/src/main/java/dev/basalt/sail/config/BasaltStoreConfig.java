package dev.basalt.sail.config;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.sail.base.config.BaseSailConfig;
import org.eclipse.rdf4j.sail.config.SailConfigException;

import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.ParallelMode;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.sail.spill.SpillPolicy;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.lexicon.LexiconConfig;
import dev.basalt.store.quads.QuadOrder;

/**
 * Configuration of a {@link dev.basalt.sail.BasaltStore}, as Java bean and as RDF in the
 * {@link BasaltStoreSchema} vocabulary. Unset numeric settings (-1) take the store's defaults.
 * Journal mode and statement indexes are fixed when the store is created: an existing store
 * keeps its own, and a configuration that names different ones is refused when the store opens.
 * This class holds the settings, checks them ({@link #validate()}) and keeps RDF4J's
 * {@code SailImplConfig} contract; it hands the RDF form to {@link StoreConfigCodec}, the
 * translation into store, lexicon, spill and query settings to {@link StoreConfigTranslator}, and
 * the sizes of caches left unset to {@link HeapBudget}.
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
    private long derivedCacheBytes = -1;
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

    /** Heap bytes of the derived-value caches, or -1 for {@link HeapBudget#derivedCacheBytes()}. */
    public long getDerivedCacheBytes() {
        return derivedCacheBytes;
    }

    public void setDerivedCacheBytes(long derivedCacheBytes) {
        this.derivedCacheBytes = derivedCacheBytes;
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
    /** Whether opening the store reads its caches; null for the JVM-wide default ({@code StorePrewarm}). */
    private Boolean prewarm;

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
     * Whether opening the store reads the newest commit's pages and the dictionary's terms into its caches
     * (docs/operator-guide.md, "What a store reads when it opens"); null (unset) takes the JVM-wide default,
     * {@code -Dbasalt.store.prewarm} or true.
     */
    public Boolean getPrewarm() {
        return prewarm;
    }

    public void setPrewarm(Boolean prewarm) {
        this.prewarm = prewarm;
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
        return StoreConfigTranslator.orderingPolicy(this);
    }

    /** The bounds of this store's query evaluations: the configured values over {@link ExecLimits#defaults()}. */
    public ExecLimits toExecLimits() {
        return StoreConfigTranslator.execLimits(this);
    }

    private static long positiveOrUnset(String name, long value) {
        if (value < 1 && value != -1) {
            throw new IllegalArgumentException(name + " must be a positive number of rows (or -1 for the default), not "
                    + value);
        }
        return value;
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
        return StoreConfigTranslator.storeConfig(this);
    }

    /** The page cache when none is configured: see {@link HeapBudget#pageCacheBytes()}. */
    public static long defaultPageCacheBytes() {
        return HeapBudget.pageCacheBytes();
    }

    /** Spilling of pending changes into temporary stores under {@code directory}. */
    public SpillPolicy toSpillPolicy(java.nio.file.Path directory) {
        return StoreConfigTranslator.spillPolicy(this, directory);
    }

    /** The lexicon's cache sizes this configuration asks for. */
    public LexiconConfig toLexiconConfig() {
        return StoreConfigTranslator.lexiconConfig(this);
    }

    /** The id → value cache when none is configured: see {@link HeapBudget#valueCacheSize()}. */
    public static int defaultValueCacheSize() {
        return HeapBudget.valueCacheSize();
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
        StoreConfigCodec.export(this, m, node);
        return node;
    }

    @Override
    public void parse(Model m, Resource node) throws SailConfigException {
        super.parse(m, node);
        StoreConfigCodec.parse(this, m, node);
    }
}
