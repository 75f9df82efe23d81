package dev.basalt.sail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.query.algebra.evaluation.EvaluationStrategyFactory;
import org.eclipse.rdf4j.query.algebra.evaluation.federation.FederatedServiceResolver;
import org.eclipse.rdf4j.query.algebra.evaluation.federation.FederatedServiceResolverClient;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategyFactory;
import org.eclipse.rdf4j.repository.sparql.federation.SPARQLServiceResolver;
import org.eclipse.rdf4j.sail.NotifyingSailConnection;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.helpers.AbstractNotifyingSail;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.optimizer.rdf4j.NativeQueryStats;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.spill.OverflowModelFactory;
import dev.basalt.store.Snapshot;
import dev.basalt.store.OnlineCompactor;
import dev.basalt.store.StoreBackup;
import dev.basalt.store.StoreStats;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.StoreException;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconCounts;
import dev.basalt.sail.ops.StoreMBeans;
import dev.basalt.sail.ops.StoreOperations;
import dev.basalt.sail.ops.StoreOperationsMXBean;
import dev.basalt.sail.query.NativeQueries;
import dev.basalt.sail.query.NativeQueriesMetrics;
import dev.basalt.sail.read.FixedSnapshot;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.StatementSet;

/**
 * Basalt as an RDF4J {@link org.eclipse.rdf4j.sail.NotifyingSail}: a persistent quad store in one
 * journal file, {@code <dataDir>/}{@value #JOURNAL_FILE}. A second process opening the same
 * directory gets a clear error from the journal's file lock.
 *
 * <p>Isolation levels NONE, READ_COMMITTED, SNAPSHOT_READ (default), SNAPSHOT and SERIALIZABLE
 * are supported through RDF4J's sail-base framework: each transaction keeps its changes in its own
 * branch ({@link IsolatingSailStore}), readers read pinned commit points, and a commit is durable
 * in the journal when {@code commit()} returns. NONE writes each update operation as its own
 * commit.
 *
 * <p><b>Read as of the past.</b> {@link #getConnectionAsOf(long)} and
 * {@link #getConnectionAsOf(Instant)} open a read-only connection (SPARQL queries, statements,
 * namespaces, size) on an earlier commit point, as long as it is retained: every commit point in
 * WORM mode, those inside the history retention in RW mode. {@link #getRetainedCommits()} lists
 * them. Asking for a released commit point is a {@link SailException} naming the oldest one left.
 * The connection pins its commit point until it is closed.
 *
 * <p>Thread-safe, as RDF4J's {@code AbstractSail} requires: connections are opened and used from any
 * threads; what initialization creates is published through volatile fields, and the one thread-local
 * hand-off is listed in {@link Rdf4jInternals}.
 */
public class BasaltStore extends AbstractNotifyingSail implements FederatedServiceResolverClient, NativeQueries.Host {
    public static final String JOURNAL_FILE = "basalt.jnl";
    /** Subdirectory of the data directory holding spilled pending changes (deleted on close and on open). */
    public static final String SPILL_DIR = "spill";
    private static final Logger LOG = LoggerFactory.getLogger(BasaltStore.class);

    private final BasaltStoreConfig config;
    /** Relies on RDF4J's call order: {@link Rdf4jInternals}, dependency 5. */
    private final ThreadLocal<PastSailStore> opening = new ThreadLocal<>();
    private volatile BasaltSailStore backing;
    private volatile IsolatingSailStore store;
    private volatile OverflowModelFactory changeSets;
    private boolean temporaryDir;
    /** Set under this store's lock, read without it. */
    private volatile EvaluationStrategyFactory evaluationStrategyFactory;
    private FederatedServiceResolver serviceResolver;
    private SPARQLServiceResolver ownServiceResolver;
    private final NativeQueries nativeQueries;
    /** Bounds of this store's query evaluations, from its configuration when it opens. */
    private volatile ExecLimits execLimits = ExecLimits.defaults();
    /** How this store's plans order joins and execute (batches, parallel joins), from its configuration. */
    private volatile OrderingPolicy orderingPolicy = OrderingPolicy.DEFAULT;
    /** The native query counters published over JMX while the store is open. */
    private StoreMBeans.Registration metrics;
    /** The store's operations (hot backup, online compaction) published over JMX while it is open. */
    private StoreMBeans.Registration operations;

    public BasaltStore() {
        this(new BasaltStoreConfig());
    }

    public BasaltStore(File dataDir) {
        this(dataDir, new BasaltStoreConfig());
    }

    public BasaltStore(File dataDir, BasaltStoreConfig config) {
        this(config);
        setDataDir(dataDir);
    }

    public BasaltStore(BasaltStoreConfig config) {
        this.config = config;
        this.nativeQueries = new NativeQueries(config.isNativeEvaluation());
        setSupportedIsolationLevels(IsolationLevels.NONE, IsolationLevels.READ_COMMITTED,
                IsolationLevels.SNAPSHOT_READ, IsolationLevels.SNAPSHOT, IsolationLevels.SERIALIZABLE);
        setDefaultIsolationLevel(IsolationLevels.SNAPSHOT_READ);
        config.getDefaultQueryEvaluationMode().ifPresent(this::setDefaultQueryEvaluationMode);
        if (config.getIterationCacheSyncThreshold() > 0) {
            setIterationCacheSyncThreshold(config.getIterationCacheSyncThreshold());
        }
        EvaluationStrategyFactory factory = config.getEvaluationStrategyFactory();
        if (factory != null) {
            setEvaluationStrategyFactory(factory);
        }
    }

    public BasaltStoreConfig getConfig() {
        return config;
    }

    /**
     * The factory of RDF4J's evaluation strategies, made on first use; it carries the store's iteration cache
     * threshold and result-size tracking, which the setters of those settings pass on, so a query reads it without
     * a lock or a write.
     */
    public EvaluationStrategyFactory getEvaluationStrategyFactory() {
        EvaluationStrategyFactory factory = evaluationStrategyFactory;
        return factory != null ? factory : defaultEvaluationStrategyFactory();
    }

    private synchronized EvaluationStrategyFactory defaultEvaluationStrategyFactory() {
        if (evaluationStrategyFactory == null) {
            EvaluationStrategyFactory factory = new DefaultEvaluationStrategyFactory(getFederatedServiceResolver());
            applySettings(factory);
            evaluationStrategyFactory = factory;
        }
        return evaluationStrategyFactory;
    }

    private void applySettings(EvaluationStrategyFactory factory) {
        factory.setQuerySolutionCacheThreshold(getIterationCacheSyncThreshold());
        factory.setTrackResultSize(isTrackResultSize());
    }

    @Override
    public synchronized void setIterationCacheSyncThreshold(long threshold) {
        super.setIterationCacheSyncThreshold(threshold);
        if (evaluationStrategyFactory != null) {
            applySettings(evaluationStrategyFactory);
        }
    }

    @Override
    public synchronized void setTrackResultSize(boolean track) {
        super.setTrackResultSize(track);
        if (evaluationStrategyFactory != null) {
            applySettings(evaluationStrategyFactory);
        }
        rebindNativeQueries();
    }

    @Override
    public synchronized void setDefaultQueryEvaluationMode(QueryEvaluationMode mode) {
        super.setDefaultQueryEvaluationMode(mode);
        rebindNativeQueries();
    }

    /** The direct route fixes the store's settings when bound: binds it again after one of them changed. */
    private void rebindNativeQueries() {
        if (backing != null) {
            nativeQueries.bind(this, backing.latest());
        }
    }

    public synchronized void setEvaluationStrategyFactory(EvaluationStrategyFactory factory) {
        if (factory != null) {
            applySettings(factory);
        }
        this.evaluationStrategyFactory = factory;
        rebindNativeQueries(); // the direct route reads the factory's kind when bound
    }

    public synchronized FederatedServiceResolver getFederatedServiceResolver() {
        if (serviceResolver == null) {
            if (ownServiceResolver == null) {
                ownServiceResolver = new SPARQLServiceResolver();
            }
            setFederatedServiceResolver(ownServiceResolver);
        }
        return serviceResolver;
    }

    @Override
    public synchronized void setFederatedServiceResolver(FederatedServiceResolver resolver) {
        this.serviceResolver = resolver;
        if (resolver != null && evaluationStrategyFactory instanceof FederatedServiceResolverClient client) {
            client.setFederatedServiceResolver(resolver);
        }
    }

    @Override
    protected void initializeInternal() throws SailException {
        File dir = getDataDir();
        try {
            if (dir == null || temporaryDir) {
                // a temporary directory is deleted at shutdown; a re-initialized store gets a fresh one
                dir = Files.createTempDirectory("basalt-").toFile();
                setDataDir(dir);
                temporaryDir = true;
            }
            Files.createDirectories(dir.toPath());
        } catch (IOException e) {
            throw new SailException("cannot create the Basalt data directory " + dir + ": " + e.getMessage(), e);
        }
        try {
            backing = BasaltSailStore.open(dir.toPath().resolve(JOURNAL_FILE), config);
        } catch (StoreException | IllegalArgumentException e) {
            throw new SailException(e.getMessage(), e);
        }
        execLimits = config.toExecLimits();
        orderingPolicy = config.toOrderingPolicy();
        Path spillDir = dir.toPath().resolve(SPILL_DIR);
        OverflowModelFactory.deleteLeftovers(spillDir);
        changeSets = new OverflowModelFactory(config.toSpillPolicy(spillDir));
        store = new IsolatingSailStore(backing, changeSets, config.getLargeTransactionThreshold(),
                config.getLargeTransactionIdleSeconds());
        nativeQueries.bind(this, backing.latest());
        metrics = StoreMBeans.publish(new NativeQueriesMetrics(nativeQueries.stats(), nativeQueries::running),
                NativeQueriesMetrics.objectName(dir.toPath()), "native query counters");
        operations = StoreMBeans.publish(new StoreOperations(this::storeStats, this::compact, this::backup,
                () -> rehearseColdReads().describe()), StoreOperations.objectName(dir.toPath()),
                "store operations");
        LOG.debug("opened Basalt store {} with statement indexes {}", dir, BasaltSailStore.names(backing.orders()));
    }

    @Override
    protected void shutDownInternal() throws SailException {
        nativeQueries.bind(null, null);
        awaitDirectResults();
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
        if (operations != null) {
            operations.close();
            operations = null;
        }
        try {
            if (store != null) {
                store.close();
            }
        } finally {
            if (changeSets != null) {
                changeSets.close();
            }
            changeSets = null;
            store = null;
            backing = null;
            if (ownServiceResolver != null) {
                ownServiceResolver.shutDown();
                ownServiceResolver = null;
                serviceResolver = null;
            }
            if (temporaryDir) {
                // the data dir cannot be reset here (AbstractSail refuses while shutting down)
                deleteTree(getDataDir().toPath());
            }
        }
    }

    /** Longest wait at shutdown for query results opened outside any connection (the front door's direct route). */
    private static final long DIRECT_RESULTS_WAIT_MILLIS = 5_000;

    /**
     * Waits, at most {@value #DIRECT_RESULTS_WAIT_MILLIS} ms, for the native evaluations still open to close: RDF4J
     * has closed every connection by now, so those are the results of kept plans run without one, each streaming to
     * an HTTP client from a leased snapshot.
     */
    private void awaitDirectResults() {
        long end = System.nanoTime() + DIRECT_RESULTS_WAIT_MILLIS * 1_000_000;
        while (nativeQueries.running() > 0 && System.nanoTime() < end) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete the temporary Basalt directory {}: {}", dir, e.getMessage());
        }
    }

    @Override
    public boolean isWritable() {
        return true;
    }

    @Override
    public ValueFactory getValueFactory() {
        BasaltSailStore b = backing;
        return b != null ? b.getValueFactory() : org.eclipse.rdf4j.model.impl.SimpleValueFactory.getInstance();
    }

    @Override
    protected NotifyingSailConnection getConnectionInternal() throws SailException {
        PastSailStore past = opening.get();
        return past != null ? new BasaltStoreConnection(this, past, backing, past)
                : new BasaltStoreConnection(this, store.forConnection(), backing, null);
    }

    /** A read-only connection on the retained commit point with this counter. */
    public NotifyingSailConnection getConnectionAsOf(long commitCounter) throws SailException {
        ensureInitialized();
        Snapshot s;
        try {
            s = backing.store().snapshot(commitCounter);
        } catch (StoreException e) {
            throw new SailException("cannot read commit point " + commitCounter + ": " + e.getMessage(), e);
        }
        return openPast(s);
    }

    /** A read-only connection on the newest retained commit point made at or before {@code time}. */
    public NotifyingSailConnection getConnectionAsOf(Instant time) throws SailException {
        ensureInitialized();
        Snapshot s;
        try {
            s = backing.store().snapshotAsOf(time.toEpochMilli());
        } catch (StoreException e) {
            throw new SailException("cannot read the store as of " + time + ": " + e.getMessage(), e);
        }
        return openPast(s);
    }

    private NotifyingSailConnection openPast(Snapshot s) {
        PastSailStore past;
        try {
            past = new PastSailStore(new FixedSnapshot(backing.view(s)), getValueFactory());
        } catch (RuntimeException e) {
            s.close();
            throw e;
        }
        opening.set(past);
        try {
            return (NotifyingSailConnection) getConnection();
        } catch (RuntimeException e) {
            past.close();
            throw e;
        } finally {
            opening.remove();
        }
    }

    /**
     * Explicit statements at the retained commit point {@code counter}, or -1 if it is no longer
     * retained; one exact range count.
     */
    long explicitStatementsAt(long counter) {
        ensureInitialized();
        Snapshot s;
        try {
            s = backing.store().snapshot(counter);
        } catch (StoreException e) {
            return -1;
        }
        try (s) {
            return BasaltSailStore.size(backing.view(s), StatementSet.EXPLICIT);
        }
    }

    /**
     * Hot backup: writes a verified compact copy of one commit point to the new file {@code target}
     * while the store keeps serving reads and writes (see {@link StoreBackup}); the backup records
     * the commit point it holds. {@code commitCounter} -1 takes the newest commit point, else a
     * retained one. Also published over JMX ({@link StoreOperationsMXBean}).
     */
    public StoreBackup.Result backup(Path target, long commitCounter) {
        ensureInitialized();
        Snapshot s;
        try {
            s = commitCounter < 0 ? backing.store().snapshot() : backing.store().snapshot(commitCounter);
        } catch (StoreException e) {
            throw new SailException("cannot back up commit point " + commitCounter + ": " + e.getMessage(), e);
        }
        try (s) {
            return StoreBackup.backup(backing.store(), s, target, config.toStoreConfig());
        }
    }

    /**
     * Online compaction: shrinks the journal file while the store keeps serving reads and writes
     * (see {@link OnlineCompactor}); returns what it did and what readers' pins or history
     * retention kept it from releasing. Also published over JMX ({@link StoreOperationsMXBean}).
     *
     * @throws SailException for a WORM store (it frees nothing) or if the store fails meanwhile
     */
    public OnlineCompactor.Result compact() {
        ensureInitialized();
        try {
            return backing.compactOnline();
        } catch (StoreException e) {
            throw new SailException(e.getMessage(), e);
        }
    }

    /**
     * Reads a sample of the store's pages and terms as cache misses read them, without caching them, so that the
     * JIT compiles the miss path before clients' queries need it ({@link dev.basalt.sail.ops.StorePrewarm#rehearseMisses}): for a server
     * to call after its warm-ups. Also published over JMX ({@link StoreOperationsMXBean#rehearseColdReads}).
     */
    public dev.basalt.sail.ops.StorePrewarm.Rehearsal rehearseColdReads() {
        ensureInitialized();
        try {
            return backing.rehearseMisses(getDataDir().toPath().resolve(JOURNAL_FILE));
        } catch (StoreException e) {
            throw new SailException(e.getMessage(), e);
        }
    }

    /** The factory of the models holding connections' pending changes (spill statistics for tests). */
    OverflowModelFactory changeSetModels() {
        return changeSets;
    }

    /** Every commit point that can still be read as of the past, oldest first. */
    public List<CommitPoint> getRetainedCommits() {
        ensureInitialized();
        return backing.store().retainedCommits();
    }

    /**
     * Counters of the native query engine: plans compiled and, per algebra node type or reason,
     * how often RDF4J's evaluator took over (see docs/optimizer.md).
     */
    public NativeQueryStats getNativeQueryStats() {
        return nativeQueries.stats();
    }

    /** Bounds of this store's query evaluations (row budgets, spill directory, helper threads). */
    public ExecLimits getExecLimits() {
        return execLimits;
    }

    /**
     * The plan compiler's policy for this store's queries before hints: its batch and parallel
     * execution settings ({@code basalt:batches}, {@code basalt:parallel}) over
     * {@link OrderingPolicy#DEFAULT}.
     */
    public OrderingPolicy getOrderingPolicy() {
        return orderingPolicy;
    }

    /**
     * The store's native query engine: its connections' and, for a repository over this store itself, the query
     * front door's direct route to kept plans ({@code QueryFront#bind}).
     */
    public NativeQueries nativeQueries() {
        return nativeQueries;
    }

    /** The store's query time limit in seconds ({@code basalt:queryTimeoutSeconds}), 0 for none. */
    @Override
    public int getQueryTimeoutSeconds() {
        return config.getQueryTimeoutSeconds();
    }

    /** Dictionary term counts (IRIs, literals, blank nodes, triple terms) of the newest commit point. */
    public LexiconCounts getTermCounts() {
        ensureInitialized();
        try (ReadSource.Lease lease = backing.latest().acquire()) {
            return Lexicon.counts(lease.view().snapshot());
        }
    }

    /** A lease on the newest commit point, to be closed by the caller; for tests and diagnostics. */
    ReadSource.Lease latestSnapshot() {
        ensureInitialized();
        return backing.latest().acquire();
    }

    /** Journal figures of the open store (open readers, space); for tests and diagnostics. */
    StoreStats storeStats() {
        ensureInitialized();
        return backing.store().stats();
    }

    private void ensureInitialized() {
        if (!isInitialized()) {
            init();
        }
    }
}
