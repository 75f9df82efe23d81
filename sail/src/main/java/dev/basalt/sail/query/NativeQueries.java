package dev.basalt.sail.query;

import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.TimeLimitIteration;
import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.QueryInterruptedException;
import org.eclipse.rdf4j.query.algebra.evaluation.EvaluationStrategy;
import org.eclipse.rdf4j.query.algebra.evaluation.EvaluationStrategyFactory;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.federation.FederatedServiceResolver;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategy;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategyFactory;
import org.eclipse.rdf4j.query.impl.EmptyBindingSet;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.HelperThreads;
import dev.basalt.optimizer.rdf4j.BasaltEvaluationStrategy;
import dev.basalt.optimizer.plan.CardinalityEstimator;
import dev.basalt.optimizer.plan.EstimateCache;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.optimizer.rdf4j.NativeQueryStats;
import dev.basalt.optimizer.rdf4j.PreparedAlgebra;
import dev.basalt.optimizer.rdf4j.QueryFallbacks;
import dev.basalt.optimizer.rdf4j.ShapePlans;
import dev.basalt.optimizer.rdf4j.StatementIds;
import dev.basalt.sail.read.BasaltEvaluationStatistics;
import dev.basalt.sail.read.LatestSnapshots.SnapshotQuadSource;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.ReadView;
import dev.basalt.sail.read.StatementSet;

/**
 * Decides per query whether Basalt's native engine takes part, and holds what it reads. Outside a
 * transaction the native engine reads the newest commit point (every commit is in the store when
 * {@code commit()} returns); inside one it reads the triple source RDF4J's evaluator would read for
 * the query, the transaction's branch ({@link TransactionQuadSource}), so a SPARQL update's WHERE
 * clause sees exactly what RDF4J's would (the state before the update's own changes). Queries with
 * a dataset (FROM / FROM NAMED) are compiled with RDF4J's dataset semantics ({@code DatasetGraphs}).
 * RDF4J's evaluator runs the whole query, counted as a fallback, only inside a SERIALIZABLE
 * transaction (its observed reads must be the patterns RDF4J's evaluator reads) or when a custom
 * evaluation strategy factory is configured; nothing is counted when native evaluation is off.
 *
 * <p>Thread-safe: one instance per store, shared by every connection; its counters and estimate caches
 * allow concurrent use, the bound store's settings and the newest view's sources are immutable records in
 * volatile fields (replaced, never changed), and each query's state lives in the {@code Session} it opens,
 * used by that query's threads one at a time.
 */
public final class NativeQueries {
    /**
     * What a session needs of the store it evaluates for: the store's evaluation settings, read at each query on a
     * connection, and fixed by {@link #bind} for the direct route (the store is the {@code BasaltStore}, which binds
     * again when they change).
     */
    public interface Host {
        EvaluationStrategyFactory getEvaluationStrategyFactory();

        ValueFactory getValueFactory();

        FederatedServiceResolver getFederatedServiceResolver();

        long getIterationCacheSyncThreshold();

        boolean isTrackResultSize();

        ExecLimits getExecLimits();

        OrderingPolicy getOrderingPolicy();

        QueryEvaluationMode getDefaultQueryEvaluationMode();

        /** The store's query time limit in seconds, 0 for none. */
        int getQueryTimeoutSeconds();
    }

    /**
     * The store this engine runs kept plans on outside any connection, while the store is open ({@link #bind}), with
     * its settings as they were when it was bound; {@code rdf4jStrategy}: its evaluation strategy factory is RDF4J's
     * default. The store binds itself again when one of these settings changes (the evaluation strategy factory,
     * result-size tracking, the default evaluation mode), so a query reads them here, not from the store.
     */
    private record Store(Host host, ReadSource latest, ValueFactory values, ExecLimits limits, OrderingPolicy ordering,
            int timeoutSeconds, boolean rdf4jStrategy, boolean trackResultSize, QueryEvaluationMode mode) {
    }

    /**
     * The sources of one committed view, per statement-set choice, with its commit counter: made by the first direct
     * run on the newest view and shared by the direct runs after it until a newer view comes (a view and its
     * sources are immutable).
     */
    private record ViewSources(ReadView view, long state, SnapshotQuadSource explicit, SnapshotQuadSource inferred) {
        static ViewSources of(ReadView view, ValueFactory values) {
            return new ViewSources(view, view.commitCounter(), new SnapshotQuadSource(view, false, values),
                    new SnapshotQuadSource(view, true, values));
        }
    }

    private volatile Store store;
    /** The sources of the newest view a direct run read, or null; replaced, never changed. */
    private volatile ViewSources newest;

    private final boolean enabled;
    private final NativeQueryStats stats = new NativeQueryStats();
    /** The kept plans' counts of {@link #stats}, which a direct run of a kept plan counts in. */
    private final ShapePlans.Counts planCounts = stats.shapePlans();
    /** Estimates shared by the queries of the newest state, one cache per statement-set choice. */
    private final EstimateCache explicitEstimates = new EstimateCache(ESTIMATE_CACHE_ENTRIES);
    private final EstimateCache inferredEstimates = new EstimateCache(ESTIMATE_CACHE_ENTRIES);
    /** Range counts RDF4J's join optimizer asks for (both statement sets), shared likewise. */
    private final EstimateCache rdf4jCounts = new EstimateCache(ESTIMATE_CACHE_ENTRIES);
    private static final int ESTIMATE_CACHE_ENTRIES = 100_000;
    /** Sessions opened and not yet closed: native evaluations whose result is still open. */
    private final AtomicInteger running = new AtomicInteger();

    public NativeQueries(boolean enabled) {
        this.enabled = enabled;
    }

    public NativeQueryStats stats() {
        return stats;
    }

    /** Native evaluations under way now: opened, result not yet closed (each holds a snapshot lease). */
    public int running() {
        return running.get();
    }

    /** False when the store is configured to leave every query to RDF4J's evaluator. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Binds the open store whose newest state {@link #runKept(PreparedAlgebra, boolean)} reads, or (null) unbinds it
     * when the store shuts down.
     */
    public void bind(Host host, ReadSource latest) {
        this.newest = null;
        this.store = host == null ? null
                : new Store(host, latest, host.getValueFactory(), host.getExecLimits(), host.getOrderingPolicy(),
                        host.getQueryTimeoutSeconds(),
                        host.getEvaluationStrategyFactory().getClass() == DefaultEvaluationStrategyFactory.class,
                        host.isTrackResultSize(), host.getDefaultQueryEvaluationMode());
    }

    /**
     * The result of a SELECT query of a known shape on the bound store's newest state, run by the plan its shape
     * keeps for that state, outside any connection, transaction or RDF4J evaluation: the query front door's direct
     * route ({@code QueryFront#select}). Stopped after the store's query time limit; the snapshot is leased until
     * the result is closed. Null when the query is to be evaluated through a connection: no store bound, native
     * evaluation off or handed to RDF4J ({@link #open}'s reasons), a store that tracks result sizes, or no plan kept
     * for this state, dataset and the store's evaluation mode.
     */
    public CloseableIteration<? extends BindingSet> runKept(PreparedAlgebra prepared, Dataset dataset,
            boolean includeInferred) {
        Store bound = store;
        if (bound == null || !enabled || !bound.rdf4jStrategy || bound.trackResultSize) {
            return null;
        }
        ReadSource.Lease lease = bound.latest.acquire();
        Session session;
        try {
            ViewSources sources = newest;
            if (sources == null || sources.view != lease.view()) {
                sources = ViewSources.of(lease.view(), bound.values);
                newest = sources;
            }
            session = new Session(bound.host, lease, includeInferred ? sources.inferred : sources.explicit,
                    sources.state, includeInferred, false, false, bound.ordering, null);
        } catch (RuntimeException | Error e) {
            lease.close();
            throw e;
        }
        CloseableIteration<? extends BindingSet> rows;
        try {
            rows = session.runKept(prepared, dataset, bound.mode, bound.limits);
        } catch (RuntimeException | Error e) {
            session.close();
            throw e;
        }
        if (rows == null) {
            session.close();
            return null;
        }
        return timeLimited(rows, bound.timeoutSeconds);
    }

    /**
     * {@code result} stopped after the store's query time limit of {@code seconds} (none when 0 or less) with a
     * {@link QueryInterruptedException} that names the setting.
     */
    public static CloseableIteration<? extends BindingSet> timeLimited(CloseableIteration<? extends BindingSet> result,
            int seconds) {
        if (seconds <= 0) {
            return result;
        }
        return new TimeLimitIteration<BindingSet>(result, seconds * 1000L) {
            @Override
            protected void throwInterruptedException() {
                throw new QueryInterruptedException("the query ran longer than the Basalt store's queryTimeoutSeconds ("
                        + seconds + " s) and was stopped");
            }
        };
    }

    /**
     * A native session for one query evaluation over {@code reads}, or null if RDF4J's evaluator
     * must run it all. The session holds a lease on the snapshot until its result is closed.
     * {@code explained} (null unless the evaluation is an EXPLAIN's) receives what is left to RDF4J.
     */
    public Session open(Host sail, ReadSource reads, boolean readAsOf, boolean includeInferred,
            boolean transactionActive, boolean serializable, OrderingPolicy ordering, QueryFallbacks explained) {
        if (!enabled) {
            return null;
        }
        String reason = null;
        if (transactionActive && serializable) {
            // native join orders read other patterns than RDF4J's evaluator would, so the observed
            // reads (and the conflicts they report) would differ; RDF4J runs these queries
            reason = "SerializableTransaction";
        } else if (sail.getEvaluationStrategyFactory().getClass() != DefaultEvaluationStrategyFactory.class) {
            reason = "CustomEvaluationStrategyFactory";
        }
        if (reason != null) {
            stats.fallback(reason, "whole query evaluated by RDF4J");
            if (explained != null) {
                explained.wholeQuery(reason);
            }
            return null;
        }
        // every commit is in the store when commit() returns, so the newest commit point is the
        // committed state a query outside a transaction must see
        ReadSource.Lease lease = reads.acquire();
        try {
            ReadView view = lease.view();
            return new Session(sail, lease, new SnapshotQuadSource(view, includeInferred, sail.getValueFactory()),
                    view.commitCounter(), includeInferred, readAsOf, transactionActive, ordering, explained);
        } catch (RuntimeException | Error e) {
            lease.close();
            throw e;
        }
    }

    public final class Session {
        private final Host sail;
        private final ReadSource.Lease lease;
        private final boolean inTransaction;
        private final SnapshotQuadSource source;
        private final CardinalityEstimator estimator;
        private final OrderingPolicy ordering;
        private final Map<CardinalityEstimator.Key, Double> counts;
        private final QueryFallbacks explained;
        /** Whether a kept plan of the query's shape may run: a query of the newest committed state. */
        private final boolean newestState;
        private final boolean includeInferred;
        private final long state;
        private boolean closed;
        /** What may do the query's RDF4J optimizations for its shape, or null ({@link PreparedAlgebra}). */
        private PreparedAlgebra prepared;

        /** {@code source} reads {@code lease}'s view, whose commit counter is {@code state}. */
        private Session(Host sail, ReadSource.Lease lease, SnapshotQuadSource source, long state,
                boolean includeInferred, boolean readAsOf, boolean inTransaction, OrderingPolicy ordering,
                QueryFallbacks explained) {
            this.sail = sail;
            this.explained = explained;
            this.lease = lease;
            this.inTransaction = inTransaction;
            this.source = source;
            this.ordering = ordering;
            // past states are not shared: a read-as-of query gets estimates of its own
            this.state = state;
            this.newestState = !readAsOf;
            this.includeInferred = includeInferred;
            this.estimator = readAsOf ? new CardinalityEstimator(source)
                    : new CardinalityEstimator(source, (includeInferred ? inferredEstimates : explicitEstimates)
                            .forState(state));
            this.counts = readAsOf ? new HashMap<>() : rdf4jCounts.forState(state);
            // from compilation to the result's close this query has a core; helper threads count on it
            HelperThreads.evaluationStarted();
            running.incrementAndGet();
        }

        public void prepareWith(PreparedAlgebra prepared) {
            this.prepared = prepared;
        }

        /**
         * The result of a SELECT, CONSTRUCT or DESCRIBE query of a known shape run by the plan its shape keeps for the
         * session's state ({@link ShapePlans#run}: a CONSTRUCT's statements as rows, a DESCRIBE expanded), with
         * nothing of RDF4J's evaluation set up (no transaction branch, dataset, triple source, strategy or
         * optimizer), released with the session when closed; null when the query must be evaluated as usual
         * ({@link #strategy}): no plan kept for this state and {@code dataset} and {@code mode}, or a session that
         * may not run one (in a transaction, which reads its own changes; a past state; an EXPLAIN; a store that
         * tracks result sizes). The caller gives no bindings; {@code mode} is the connection's evaluation mode.
         */
        public CloseableIteration<? extends BindingSet> runKept(PreparedAlgebra prepared, Dataset dataset,
                QueryEvaluationMode mode) {
            return sail.isTrackResultSize() ? null : runKept(prepared, dataset, mode, sail.getExecLimits());
        }

        /** {@link #runKept(PreparedAlgebra, Dataset, QueryEvaluationMode)} on a store that tracks no result sizes. */
        private CloseableIteration<? extends BindingSet> runKept(PreparedAlgebra prepared, Dataset dataset,
                QueryEvaluationMode mode, ExecLimits limits) {
            if (prepared == null || inTransaction || !newestState || explained != null) {
                return null;
            }
            PreparedAlgebra.Shape shape = prepared.shape(dataset, EmptyBindingSet.getInstance(), mode);
            ShapePlans plans = shape == null ? null : shape.plans();
            CloseableIteration<BindingSet> rows = plans == null ? null
                    : plans.run(shape, ordering, includeInferred ? StatementSet.INFERRED : StatementSet.EXPLICIT,
                            state, source, dataset, limits, planCounts);
            return rows == null ? null : attach(rows);
        }

        /**
         * Basalt's strategy in place of the one RDF4J's settings produced (its mode is kept).
         * {@code tripleSource} is what RDF4J's evaluator reads for this query; inside a
         * transaction the native engine reads it too, with estimates of its own.
         */
        public EvaluationStrategy strategy(EvaluationStrategy rdf4j, Dataset dataset, TripleSource tripleSource) {
            QuadSource read = inTransaction
                    ? new TransactionQuadSource(tripleSource, source, lease.view().lexicon(), sail.getValueFactory())
                    : source;
            CardinalityEstimator est = inTransaction ? new CardinalityEstimator(read) : estimator;
            BasaltEvaluationStrategy s = new BasaltEvaluationStrategy(tripleSource, dataset,
                    sail.getFederatedServiceResolver(), sail.getIterationCacheSyncThreshold(),
                    new BasaltEvaluationStatistics(this::reuse, counts), sail.isTrackResultSize(),
                    read, stats, est, ordering);
            s.setExecLimits(sail.getExecLimits());
            if (rdf4j instanceof DefaultEvaluationStrategy d) {
                s.setQueryEvaluationMode(d.getQueryEvaluationMode());
            }
            if (explained != null) {
                s.recordFallbacksIn(explained);
            }
            s.prepareWith(prepared);
            if (!inTransaction && newestState) {
                // the shape's plans (kept by the query front door with the shape) differ by statement-set choice
                s.reusePlans(includeInferred ? StatementSet.INFERRED : StatementSet.EXPLICIT, state);
            }
            return s;
        }

        /** A non-owning lease on the session's view, for the statistics RDF4J's optimizers ask for. */
        private ReadSource.Lease reuse() {
            return new ReadSource.Lease() {
                @Override
                public ReadView view() {
                    return lease.view();
                }

                @Override
                public ReadSource.Lease share() {
                    return this;
                }

                @Override
                public void close() {
                }
            };
        }

        /**
         * The query's result, releasing the snapshot when it is closed; a DESCRIBE's statements also as ids
         * ({@link AttachedRows.Ids}) over the snapshot's term space.
         */
        public CloseableIteration<? extends BindingSet> attach(CloseableIteration<? extends BindingSet> result) {
            return result instanceof StatementIds ids
                    ? new AttachedRows.Ids(result, this::close, ids, lease.view().lexicon().termSpace())
                    : new AttachedRows(result, this::close);
        }

        public void close() {
            if (!closed) {
                closed = true;
                running.decrementAndGet();
                HelperThreads.evaluationEnded();
                lease.close();
            }
        }
    }

    /**
     * A native evaluation's rows with what closing them releases besides ({@link Session#attach}: the
     * session's snapshot). Not thread-safe: read and closed by the thread that reads the result.
     */
    static class AttachedRows implements CloseableIteration<BindingSet> {
        private final CloseableIteration<? extends BindingSet> rows;
        private final Runnable release;

        AttachedRows(CloseableIteration<? extends BindingSet> rows, Runnable release) {
            this.rows = rows;
            this.release = release;
        }

        @Override
        public boolean hasNext() {
            return rows.hasNext();
        }

        @Override
        public BindingSet next() {
            if (!rows.hasNext()) {
                throw new NoSuchElementException();
            }
            return rows.next();
        }

        @Override
        public void remove() {
            rows.remove();
        }

        @Override
        public void close() {
            try {
                rows.close();
            } finally {
                release.run();
            }
        }

        /**
         * Rows that are a DESCRIBE's statements, readable as ids too ({@link StatementIds}, ids of the committed state of
         * the term space {@link #termSpace} names), for {@link QueryFront#answer}'s graph result ({@link KeptGraph}).
         */
        static final class Ids extends AttachedRows implements StatementIds {
            private final StatementIds ids;
            private final Object termSpace;

            Ids(CloseableIteration<? extends BindingSet> rows, Runnable release, StatementIds ids, Object termSpace) {
                super(rows, release);
                this.ids = ids;
                this.termSpace = termSpace;
            }

            @Override
            public int nextIds(long[] spo) {
                return ids.nextIds(spo);
            }

            @Override
            public Value[] terms(long[] termIds) {
                return ids.terms(termIds);
            }

            /** The identity of the store lexicon whose ids these are ({@code LexiconView#termSpace}). */
            Object termSpace() {
                return termSpace;
            }
        }
    }
}
