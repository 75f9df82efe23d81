package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.MutableBindingSet;
import org.eclipse.rdf4j.query.algebra.AggregateOperator;
import org.eclipse.rdf4j.query.algebra.DescribeOperator;
import org.eclipse.rdf4j.query.algebra.ArbitraryLengthPath;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.ExtensionElem;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ZeroLengthPath;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryEvaluationStep;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryOptimizer;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryValueEvaluationStep;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.ValueExprEvaluationException;
import org.eclipse.rdf4j.query.algebra.evaluation.federation.FederatedServiceResolver;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.ArrayBindingBasedQueryEvaluationContext;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategy;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.EvaluationStatistics;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.QueryEvaluationContext;
import org.eclipse.rdf4j.query.algebra.evaluation.iterator.ExtensionIterator;
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.BindingSetAssignmentInlinerOptimizer;
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.FilterOptimizer;
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.ParentReferenceCleaner;
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.QueryJoinOptimizer;
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.StandardQueryOptimizerPipeline;
import org.eclipse.rdf4j.query.algebra.evaluation.util.QueryEvaluationUtil;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.plan.CardinalityEstimator;
import dev.basalt.optimizer.plan.DatasetGraphs;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.optimizer.plan.ValueFunctions;

/**
 * RDF4J's evaluation strategy with Basalt's engine in it: RDF4J's standard optimizer pipeline
 * with {@link BasaltPlanOptimizer} in place of RDF4J's join optimizer (which follows it), and {@link #precompile} turning each
 * {@link BasaltPlanNode} into a step that runs the Basalt plan over the {@link QuadSource}. All
 * other nodes are RDF4J's as usual, with the plan nodes as leaves, except the few RDF4J 5.0.3 gets wrong: a BIND
 * in error, a DESCRIBE (read from the indices, {@link NativeDescribe}) and property paths ({@link PathSteps}). One instance per query
 * evaluation; the source must stay open until the query's result is closed.
 * Not thread-safe: used by the thread evaluating its one query.
 */
public class BasaltEvaluationStrategy extends DefaultEvaluationStrategy {
    private final QuadSource source;
    private final NativeQueryStats stats;
    /** Basalt's step of the pipeline, made on first use (a query that runs its shape's kept plan needs none). */
    private BasaltPlanOptimizer basalt;
    private final CardinalityEstimator estimator;
    /** Where this evaluation's fallbacks are recorded for its EXPLAIN, or null. */
    private QueryFallbacks fallbackRecord;
    /** The statistics RDF4J's join optimizer reads after Basalt's step. */
    private final PlanAwareStatistics planAwareStatistics;
    private boolean trackTime;
    private ExecLimits limits = ExecLimits.defaults();
    /** RDF4J's interface answers false unless overridden, also while an EXPLAIN counts rows. */
    private boolean trackResultSize;
    /** The query's optimization before Basalt's step as its shape may already know it, or null. */
    private PreparedAlgebra prepared;
    private final OrderingPolicy ordering;
    /** Whether a kept plan of the query's shape may run ({@link #reusePlans}), for which statement sets and state. */
    private boolean reusePlans;
    private Object planPartition;
    private long planState;

    public BasaltEvaluationStrategy(TripleSource tripleSource, Dataset dataset, FederatedServiceResolver resolver,
            long iterationCacheSyncThreshold, EvaluationStatistics statistics, boolean trackResultSize,
            QuadSource source, NativeQueryStats stats) {
        this(tripleSource, dataset, resolver, iterationCacheSyncThreshold, statistics, trackResultSize, source, stats,
                new CardinalityEstimator(source), OrderingPolicy.DEFAULT);
    }

    /**
     * @param estimator the query's estimator, possibly backed by estimates shared between queries of
     *        the same state ({@link dev.basalt.optimizer.plan.EstimateCache})
     * @param ordering how join groups are ordered (store configuration and query hints)
     */
    public BasaltEvaluationStrategy(TripleSource tripleSource, Dataset dataset, FederatedServiceResolver resolver,
            long iterationCacheSyncThreshold, EvaluationStatistics statistics, boolean trackResultSize,
            QuadSource source, NativeQueryStats stats, CardinalityEstimator estimator, OrderingPolicy ordering) {
        super(tripleSource, dataset, resolver, iterationCacheSyncThreshold, statistics, trackResultSize);
        this.trackResultSize = trackResultSize;
        this.source = source;
        this.stats = stats;
        this.estimator = estimator;
        this.ordering = ordering;
        this.planAwareStatistics = new PlanAwareStatistics(statistics);
        setOptimizerPipeline(this::optimizers);
    }

    private List<QueryOptimizer> optimizers() {
        List<QueryOptimizer> standard = new ArrayList<>();
        new StandardQueryOptimizerPipeline(this, tripleSource, planAwareStatistics).getOptimizers().forEach(standard::add);
        return withBasalt(standard, basalt());
    }

    private BasaltPlanOptimizer basalt() {
        if (basalt == null) {
            ValueFunctions functions = valueConditions();
            basalt = new BasaltPlanOptimizer(source, functions, functions, stats, estimator, ordering);
            if (fallbackRecord != null) {
                basalt.recordIn(fallbackRecord);
            }
        }
        return basalt;
    }

    /**
     * Let {@code prepared} do this evaluation's optimizers before Basalt's step ({@link PreparedAlgebra}); null
     * runs them all.
     */
    public void prepareWith(PreparedAlgebra prepared) {
        this.prepared = prepared;
    }

    /**
     * Let a query of a known shape run the plan kept for its shape ({@link ShapePlans}), for a source that is
     * the committed state {@code state} of the store (its commit counter), read by this strategy's source
     * alone; {@code partition} names the statement-set choice (plans of one shape differ by it); only with a
     * {@link PreparedAlgebra} that knows the shape and keeps plans.
     */
    public void reusePlans(Object partition, long state) {
        this.reusePlans = true;
        this.planPartition = partition;
        this.planState = state;
    }

    /**
     * As RDF4J's, except that with a {@link PreparedAlgebra} the optimizers before Basalt's step are its to run
     * (or to skip for a tree its shape already knows), and those from Basalt's step on run here as usual; a
     * query without bindings whose shape has a kept plan ({@link #reusePlans}) gets that plan and no
     * optimization at all.
     */
    @Override
    public TupleExpr optimize(TupleExpr expr, EvaluationStatistics evaluationStatistics, BindingSet bindings) {
        if (prepared == null || !(expr instanceof QueryRoot root)) {
            return super.optimize(expr, evaluationStatistics, bindings);
        }
        if (reusePlans && (bindings == null || bindings.isEmpty())) {
            PreparedAlgebra.Shape shape = prepared.shape(dataset, bindings, getQueryEvaluationMode());
            ShapePlans plans = shape == null ? null : shape.plans();
            QueryRoot planned = plans == null ? null
                    : plans.planned(shape, ordering, planPartition, planState, source,
                            (template, parameters) -> ShapePlans.compile(template, parameters, valueConditions(),
                                    dataset, ordering, stats),
                            stats);
            if (planned != null) {
                return planned;
            }
        }
        List<QueryOptimizer> all = optimizers();
        int at = all.indexOf(basalt());
        QueryRoot optimized = prepared.optimized(root, dataset, bindings, getQueryEvaluationMode(),
                tree -> optimize(all.subList(0, at), tree, bindings));
        optimize(all.subList(at, all.size()), optimized, bindings);
        return optimized;
    }

    /** Runs the optimizers of this strategy's pipeline that come before Basalt's step on {@code root}. */
    public void optimizeBeforeBasalt(QueryRoot root, BindingSet bindings) {
        List<QueryOptimizer> all = optimizers();
        optimize(all.subList(0, all.indexOf(basalt())), root, bindings);
    }

    private void optimize(List<QueryOptimizer> optimizers, TupleExpr root, BindingSet bindings) {
        for (QueryOptimizer o : optimizers) {
            o.optimize(root, dataset, bindings);
        }
    }

    /**
     * RDF4J's pipeline with Basalt's step where RDF4J's join optimizer was, after filter placement (RDF4J's,
     * with the moves that change answers undone: {@link ScopedFilterPlacement}; RDF4J's one-row VALUES
     * inlining runs only where it keeps the answer: {@link ScopedValuesInlining}; first of all, each FILTER
     * is put over its whole group: {@link GroupFilterScope})
     * and ORDER BY/LIMIT hints (Basalt's compiler relies on filters pushed into OPTIONAL's left
     * side), and RDF4J's join optimizer moved after it. Basalt orders the joins of what it compiles
     * itself, so RDF4J's cost-based reordering of those joins (range counts per pattern and a
     * greedy search, a measurable part of a short query's time) was wasted work; what stays with
     * RDF4J still gets it, its filters already placed.
     */
    private static List<QueryOptimizer> withBasalt(List<QueryOptimizer> standard, QueryOptimizer basalt) {
        List<QueryOptimizer> all = new ArrayList<>(standard);
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i) instanceof FilterOptimizer) {
                all.set(i, new ScopedFilterPlacement(all.get(i)));
            } else if (all.get(i) instanceof BindingSetAssignmentInlinerOptimizer) {
                all.set(i, new ScopedValuesInlining(all.get(i)));
            }
        }
        all.add(0, new GroupFilterScope());
        QueryOptimizer joins = null;
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i) instanceof QueryJoinOptimizer) {
                joins = all.remove(i);
                break;
            }
        }
        int at = all.size();
        if (at > 0 && all.get(at - 1) instanceof ParentReferenceCleaner) {
            at--;
        }
        all.add(at, basalt);
        if (joins != null) {
            all.add(at + 1, joins);
        }
        return all;
    }

    /** Note the nodes this evaluation leaves to RDF4J in {@code record}, for its EXPLAIN. */
    public void recordFallbacksIn(QueryFallbacks record) {
        this.fallbackRecord = record;
        if (basalt != null) {
            basalt.recordIn(record);
        }
    }

    QuadSource quadSource() {
        return source;
    }

    NativeQueryStats stats() {
        return stats;
    }

    /** The bounds of this evaluation's native plans: its store's settings. */
    public void setExecLimits(ExecLimits limits) {
        this.limits = java.util.Objects.requireNonNull(limits, "limits");
    }

    ExecLimits execLimits() {
        return limits;
    }

    boolean isTrackingTime() {
        return trackTime;
    }

    @Override
    public void setTrackResultSize(boolean trackResultSize) {
        super.setTrackResultSize(trackResultSize);
        this.trackResultSize = trackResultSize;
    }

    @Override
    public boolean isTrackResultSize() {
        return trackResultSize;
    }

    @Override
    public void setTrackTime(boolean trackTime) {
        super.setTrackTime(trackTime);
        this.trackTime = trackTime;
    }

    /**
     * As RDF4J's, except that the binding sets RDF4J's operators create for a whole query (an
     * {@link ArrayBindingBasedQueryEvaluationContext}) also hold the variables only Basalt plans
     * use: RDF4J finds the names by visiting the algebra, a plan is a leaf, and a name missing there
     * is silently dropped (e.g. by a FILTER in a MINUS, which keeps only its known names, before an
     * EXISTS inside it reads them).
     */
    @Override
    public QueryEvaluationStep precompile(TupleExpr expr) {
        if (!(expr instanceof QueryRoot root)) {
            return super.precompile(expr);
        }
        Set<String> names = new LinkedHashSet<>(
                Arrays.asList(ArrayBindingBasedQueryEvaluationContext.findAllVariablesUsedInQuery(root)));
        root.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meetOther(QueryModelNode node) {
                if (node instanceof BasaltPlanNode plan) {
                    names.addAll(plan.original().getBindingNames());
                    names.addAll(plan.plan().outputNames());
                } else {
                    super.meetOther(node);
                }
            }
        });
        QueryEvaluationContext context = new ArrayBindingBasedQueryEvaluationContext(
                new QueryEvaluationContext.Minimal(dataset, tripleSource.getValueFactory(),
                        tripleSource.getComparator()),
                names.toArray(new String[0]), tripleSource.getComparator());
        return precompile(expr, context);
    }

    @Override
    public QueryEvaluationStep precompile(TupleExpr expr, QueryEvaluationContext context) {
        if (expr instanceof BasaltPlanNode node) {
            return node.step(this, context);
        }
        return super.precompile(expr, context);
    }

    /**
     * A DESCRIBE's expansion read from the statement indices ({@link NativeDescribe}), the same statements as RDF4J's
     * operator gives; RDF4J's operator only when the evaluation's bindings name one of the statement pattern's
     * variables it would evaluate with them ({@code subject}, {@code predicate}, {@code object}, {@code context}).
     */
    @Override
    protected QueryEvaluationStep prepare(DescribeOperator node, QueryEvaluationContext context) {
        QueryEvaluationStep where = precompile(node.getArg(), context);
        List<String> described = new ArrayList<>(node.getBindingNames());
        return bindings -> {
            if (bindings.hasBinding("context") || NativeDescribe.NAMES.stream().anyMatch(bindings::hasBinding)) {
                return new org.eclipse.rdf4j.query.algebra.evaluation.iterator.DescribeIteration(where.evaluate(bindings),
                        this, node.getBindingNames(), bindings);
            }
            return new NativeDescribe(where.evaluate(bindings), described, source,
                    DatasetGraphs.defaultGraphs(dataset, source));
        };
    }

    /**
     * A BIND that RDF4J evaluates (a part Basalt's compiler leaves to it): as RDF4J's, except that
     * an expression error leaves the variable unbound (SPARQL 1.1 section 18.6 Extend, 17.2).
     * RDF4J 5.0.3's {@code ExtensionIterator} sets the binding to null on an error, and the binding set
     * then holds a binding without a value, which fails a later MINUS, DISTINCT or GROUP BY with a
     * NullPointerException ({@code AbstractBindingSet.hashCode}) instead of answering. Aggregates are
     * left to the group operator, as RDF4J does.
     */
    @Override
    protected QueryEvaluationStep prepare(Extension node, QueryEvaluationContext context) {
        QueryEvaluationStep arg = precompile(node.getArg(), context);
        Consumer<MutableBindingSet> all = bindings -> {
        };
        for (ExtensionElem elem : node.getElements()) {
            if (elem.getExpr() instanceof AggregateOperator) {
                continue;
            }
            QueryValueEvaluationStep step;
            try {
                step = precompile(elem.getExpr(), context);
            } catch (ValueExprEvaluationException | NumberFormatException | ArithmeticException e) {
                // a constant expression in error, folded while compiling: the variable stays unbound
                continue;
            }
            BiConsumer<Value, MutableBindingSet> setter = context.setBinding(elem.getName());
            all = all.andThen(bindings -> {
                Value value;
                try {
                    value = step.evaluate(bindings);
                } catch (ValueExprEvaluationException | NumberFormatException | ArithmeticException e) {
                    return; // an expression error: unbound (17.2)
                }
                if (value != null) {
                    setter.accept(value, bindings);
                }
            });
        }
        Consumer<MutableBindingSet> consumer = all;
        return bindings -> new ExtensionIterator(arg.evaluate(bindings), consumer, context);
    }

    /** A zero-length path RDF4J evaluates, as {@link PathSteps#zeroLength} corrects it. */
    @Override
    protected QueryEvaluationStep prepare(ZeroLengthPath node, QueryEvaluationContext context) {
        return new PathSteps(this, tripleSource, dataset).zeroLength(node, context);
    }

    /** An arbitrary-length path RDF4J evaluates, as {@link PathSteps#arbitraryLength} corrects it. */
    @Override
    protected QueryEvaluationStep prepare(ArbitraryLengthPath node, QueryEvaluationContext context) {
        return new PathSteps(this, tripleSource, dataset).arbitraryLength(node, context);
    }

    /** RDF4J's own step for a zero-length path, for {@link PathSteps}. */
    QueryEvaluationStep prepareWithRdf4j(ZeroLengthPath node, QueryEvaluationContext context) {
        return super.prepare(node, context);
    }

    /** RDF4J's own step for an arbitrary-length path, for {@link PathSteps}. */
    QueryEvaluationStep prepareWithRdf4j(ArbitraryLengthPath node, QueryEvaluationContext context) {
        return super.prepare(node, context);
    }

    /** RDF4J's older entry point, still used by some of its operators (paths, EXISTS). */
    @Override
    public CloseableIteration<BindingSet> evaluate(TupleExpr expr, BindingSet bindings) {
        if (expr instanceof BasaltPlanNode node) {
            return node.step(this, new QueryEvaluationContext.Minimal(dataset, tripleSource.getValueFactory(),
                    tripleSource.getComparator())).evaluate(bindings);
        }
        return super.evaluate(expr, bindings);
    }

    QueryEvaluationStep precompileWithRdf4j(TupleExpr expr, QueryEvaluationContext context) {
        return super.precompile(expr, context);
    }

    private ValueFunctions valueConditions() {
        return new ValueFunctions() {
            @Override
            public Predicate<BindingSet> compile(ValueExpr expr) {
                Function<BindingSet, Value> value = evaluator(expr);
                return bindings -> {
                    Value v = value.apply(bindings);
                    try {
                        return v != null && QueryEvaluationUtil.getEffectiveBooleanValue(v);
                    } catch (ValueExprEvaluationException e) {
                        return false;
                    }
                };
            }

            @Override
            public Function<BindingSet, Value> evaluator(ValueExpr expr) {
                QueryEvaluationContext context = new QueryEvaluationContext.Minimal(dataset,
                        tripleSource.getValueFactory(), tripleSource.getComparator());
                QueryValueEvaluationStep step;
                try {
                    step = precompile(expr, context);
                } catch (ValueExprEvaluationException | NumberFormatException | ArithmeticException e) {
                    // RDF4J folds constant operands while compiling: a constant expression in error has no value
                    return bindings -> null;
                }
                return bindings -> {
                    try {
                        return step.evaluate(bindings);
                    } catch (ValueExprEvaluationException | NumberFormatException | ArithmeticException e) {
                        // some of RDF4J's casts let a Java parse error out (xsd:integer("INF"^^xsd:double)):
                        // it is an expression error all the same (SPARQL 1.1 section 17.2), not a failed query
                        return null;
                    }
                };
            }

            @Override
            public boolean strictComparison() {
                return getQueryEvaluationMode() == QueryEvaluationMode.STRICT;
            }
        };
    }
}
