package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
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
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.ParentReferenceCleaner;
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.QueryJoinOptimizer;
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.StandardQueryOptimizerPipeline;
import org.eclipse.rdf4j.query.algebra.evaluation.util.QueryEvaluationUtil;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.plan.CardinalityEstimator;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.optimizer.plan.ValueFunctions;

/**
 * RDF4J's evaluation strategy with Basalt's engine in it: RDF4J's standard optimizer pipeline
 * with {@link BasaltPlanOptimizer} in place of RDF4J's join optimizer (which follows it), and {@link #precompile} turning each
 * {@link BasaltPlanNode} into a step that runs the Basalt plan over the {@link QuadSource}. All
 * other nodes are RDF4J's as usual, with the plan nodes as leaves. One instance per query
 * evaluation; the source must stay open until the query's result is closed.
 */
public class BasaltEvaluationStrategy extends DefaultEvaluationStrategy {
    private final QuadSource source;
    private final NativeQueryStats stats;
    private final BasaltPlanOptimizer basalt;
    private boolean trackTime;
    private ExecLimits limits = ExecLimits.defaults();
    /** RDF4J's interface answers false unless overridden, also while an EXPLAIN counts rows. */
    private boolean trackResultSize;

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
        ValueFunctions functions = valueConditions();
        this.basalt = new BasaltPlanOptimizer(source, functions, functions, stats, estimator, ordering);
        setOptimizerPipeline(() -> {
            List<QueryOptimizer> standard = new ArrayList<>();
            new StandardQueryOptimizerPipeline(this, tripleSource, new PlanAwareStatistics(statistics)).getOptimizers()
                    .forEach(standard::add);
            return withBasalt(standard, basalt);
        });
    }

    /**
     * RDF4J's pipeline with Basalt's step where RDF4J's join optimizer was, after filter placement
     * and ORDER BY/LIMIT hints (Basalt's compiler relies on filters pushed into OPTIONAL's left
     * side), and RDF4J's join optimizer moved after it. Basalt orders the joins of what it compiles
     * itself, so RDF4J's cost-based reordering of those joins (range counts per pattern and a
     * greedy search, a measurable part of a short query's time) was wasted work; what stays with
     * RDF4J still gets it, its filters already placed.
     */
    private static List<QueryOptimizer> withBasalt(List<QueryOptimizer> standard, QueryOptimizer basalt) {
        List<QueryOptimizer> all = new ArrayList<>(standard);
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
        basalt.recordIn(record);
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
