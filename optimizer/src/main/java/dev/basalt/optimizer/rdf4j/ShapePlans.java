package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.DescribeOperator;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.optimizer.ParentReferenceCleaner;
import org.eclipse.rdf4j.query.impl.EmptyBindingSet;

import dev.basalt.optimizer.access.ParameterSource;
import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.plan.CardinalityEstimator;
import dev.basalt.optimizer.plan.DatasetGraphs;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.optimizer.plan.PureExpressions;
import dev.basalt.optimizer.plan.ValueFunctions;
import dev.basalt.store.lexicon.TermIds;

/**
 * Compiled plans per query shape, with the shape's pattern and condition constants as parameters: a query of a shape seen
 * before skips the clone of the shape's optimized tree, the constants' substitution and Basalt's plan
 * compilation, and runs the shape's plan with its own constants' term ids ({@link ParameterSource}).
 *
 * <p>A shape's plan is made from its optimized template ({@link PreparedAlgebra.Shape}): the template is
 * compiled with each sentinel in a pattern position looked up as a parameter, and every read of the
 * compilation (counts, samples, estimates, a FILTER's range) sees the term ids and values of the query that
 * triggered it, so the join order is the one that query would get. A plan is kept only when it is valid for every query of the shape:
 * <ul>
 * <li>every sentinel of the template is a constant of a statement pattern's subject, predicate or object (not
 * a graph, which a dataset restricts at compile time), or a constant that a BIND or a CONSTRUCT template binds
 * (the plan turns it into an id per evaluation, {@link dev.basalt.optimizer.exec.ExecContext#withParameterValues}),
 * or a constant of a FILTER's or an OPTIONAL's condition (the compiled condition takes each evaluation's constants
 * from the same values), or a value of a VALUES row (the compiled VALUES looks its values up per evaluation, through
 * the same values; the shape fixes the number of rows and where a row is UNDEF, so the plan's estimates hold); not a
 * constant of any other expression, whose values the compiled operators hold;</li>
 * <li>the whole query under its root is one Basalt plan (or a DESCRIBE of its results), compiled without RDF4J value
 * functions other than those of {@link PureExpressions} (others may hold the evaluation they were made for) and
 * without EXISTS (whose filter keeps per-evaluation state);</li>
 * <li>each parameter's term is in the store for the compiling query (a missing constant would let the compiler
 * order joins for a pattern that matches nothing), except after {@value #MAX_MISSES} queries of the shape that
 * each missed a constant: such a constant may be one of the shape's own, missing for every query, and the
 * plan is then compiled with it (join orders are a matter of speed, never of answers).</li>
 * </ul>
 * Plan choices depend on statistics only for speed, never for results, and a constant that the store does not
 * hold makes its patterns match nothing at run time. Plans are kept per state of the store (commit counter):
 * the first query on a newer state compiles the shape again, so join orders follow the data; a query on an
 * older state compiles its own.
 *
 * <p>One instance holds the plans of ONE optimized shape ({@link PreparedAlgebra.Shape#plans}), one per join
 * ordering policy and statement-set choice ({@code partition}: a few at most); it has no bound and no eviction
 * of its own, it lives and goes with the shape's entry in the query front door that owns it. Thread-safe; a
 * kept plan is run by concurrent evaluations, each with its own context and without operator statistics.
 */
public final class ShapePlans {
    /**
     * Queries of the shape that could not make its plan because a pattern constant was not in the store; past
     * this many, the plan is compiled with such a constant anyway (a constant of the shape itself, the same in
     * every query, may never be in the store).
     */
    static final int MAX_MISSES = 2;
    private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
    /** Per ordering policy and statement-set choice (range class ""): the ranged patterns of the shape's plans. */
    private final Map<Key, Probe> probes = new ConcurrentHashMap<>();
    private final AtomicInteger misses = new AtomicInteger();

    /**
     * The ordering policy and statement-set choice a plan is compiled for, and the range class of its queries
     * ({@link RangeClasses}; empty for a shape without ranged patterns).
     */
    private record Key(OrderingPolicy ordering, Object partition, String rangeClass) {
    }

    /** The ranged patterns of the plans kept at {@code state}, and the sentinels their conditions read. */
    private record Probe(long state, RangeClasses classes, Value[] constants) {
    }

    /** Plans held (one per ordering policy and statement-set choice), for counters and tests. */
    public int size() {
        return entries.size();
    }

    /**
     * A shape's plan for one state, or (node null) the mark that the shape's plans cannot be kept; {@code describe}:
     * the plan gives the described values of a DESCRIBE, which RDF4J's {@link DescribeOperator} expands.
     */
    private record Entry(long state, BasaltPlanNode node, boolean describe, Value[] sentinels, Value[] constants,
            RangeClasses classes, List<String> described) {
        /** A plan's entry; {@code described}, a DESCRIBE's described variables, read once from its node. */
        Entry(long state, BasaltPlanNode node, boolean describe, Value[] sentinels, Value[] constants,
                RangeClasses classes) {
            this(state, node, describe, sentinels, constants, classes,
                    describe ? List.copyOf(node.getBindingNames()) : List.of());
        }

        /** The tree of one evaluation, given its id per parameter; null if a sentinel has no value for the query. */
        QueryRoot evaluation(PreparedAlgebra.Shape shape, QuadSource source) {
            BasaltPlanNode planned = node(shape, source);
            return planned == null ? null : new QueryRoot(describe ? new DescribeOperator(planned) : planned);
        }

        /** The plan node of one evaluation, given its id per parameter; null if a sentinel has no value for the query. */
        BasaltPlanNode node(PreparedAlgebra.Shape shape, QuadSource source) {
            long[] ids = ids(shape, sentinels, source);
            if (ids == null) {
                return null;
            }
            Map<Value, Value> values = null;
            if (constants.length > 0) {
                values = new HashMap<>();
                for (Value sentinel : constants) {
                    Value v = shape.valueOf(sentinel);
                    if (v == null) {
                        return null;
                    }
                    values.put(sentinel, v);
                }
            }
            return node.withParameters(ids, values);
        }
    }

    /**
     * What compiles a shape's template for {@link #planned}: Basalt's step over {@code source}; the template's
     * root then holds the plan node, or a DESCRIBE over it, if the whole query became one plan.
     */
    interface Compiler {
        boolean compile(QueryRoot template, QuadSource source);
    }

    /**
     * Basalt's step over a shape's optimized template whose pattern constants {@code parameters} reads as
     * parameters, with estimates of its own (a parameter's id means another term in another shape), for a
     * {@link Compiler}; false if a plan holds an RDF4J value function ({@code functions} are made for one
     * evaluation).
     */
    static boolean compile(QueryRoot template, QuadSource parameters, ValueFunctions functions, Dataset dataset,
            OrderingPolicy ordering, NativeQueryStats stats) {
        boolean[] usesValues = { false };
        // only the compilation's own calls are checked: a kept plan's conditions also make steps per evaluation
        boolean[] compiling = { true };
        ValueFunctions watched = new ValueFunctions() {
            @Override
            public Predicate<BindingSet> compile(ValueExpr condition) {
                if (compiling[0]) {
                    usesValues[0] |= !PureExpressions.test(condition);
                }
                return functions.compile(condition);
            }

            @Override
            public Function<BindingSet, Value> evaluator(ValueExpr expr) {
                if (compiling[0]) {
                    usesValues[0] |= !PureExpressions.test(expr);
                }
                return functions.evaluator(expr);
            }

            @Override
            public boolean strictComparison() {
                return functions.strictComparison();
            }
        };
        new BasaltPlanOptimizer(parameters, watched, watched, new NativeQueryStats(), new CardinalityEstimator(parameters),
                ordering).optimize(template, dataset, EmptyBindingSet.getInstance());
        compiling[0] = false;
        if (usesValues[0]) {
            return false;
        }
        stats.planCompiled();
        return true;
    }

    /**
     * The query's tree with the shape's kept plan as its only node, or null when the query is to be optimized as
     * usual (no plan kept for this state and none can be made with this query, or the shape's plans cannot be
     * kept).
     */
    QueryRoot planned(PreparedAlgebra.Shape shape, OrderingPolicy ordering, Object partition, long state,
            QuadSource source, Compiler compiler, NativeQueryStats stats) {
        Key key = key(shape, ordering, partition, state, source);
        Entry entry = entries.get(key);
        if (entry != null && entry.state == state) {
            if (entry.node == null) {
                stats.shapePlans().planNotKept();
                return null;
            }
            QueryRoot evaluation = entry.evaluation(shape, source);
            if (evaluation == null) {
                return null;
            }
            stats.shapePlans().planReused();
            shape.taken();
            if (entry.describe) {
                stats.postProcessed(DescribeOperator.class.getSimpleName());
            }
            return evaluation;
        }
        if (entry != null && entry.state > state) {
            return null; // a query on an older state plans on its own
        }
        Entry made = make(shape, state, source, compiler, stats);
        if (made == null) {
            return null;
        }
        if (made.classes != null) {
            // the shape's first plan at this state: its ranged patterns class this query and every later one
            Key base = new Key(ordering, partition, "");
            Probe probe = probes.get(base);
            if (probe == null || probe.state < state) {
                probe = new Probe(state, made.classes, made.constants);
                probes.put(base, probe);
            }
            key = new Key(ordering, partition, rangeClass(probe, shape, source));
        }
        entries.put(key, made);
        QueryRoot evaluation = made.node == null ? null : made.evaluation(shape, source);
        if (evaluation == null) {
            return null;
        }
        stats.shapePlans().planKept();
        shape.taken();
        return evaluation;
    }

    /**
     * The result of a query of the shape, run by the plan kept for {@code state} with the query's constants, outside
     * RDF4J's evaluation (no strategy, no optimizer, no RDF4J operator above the plan); null when no plan is kept for
     * this state (the query then goes through {@link BasaltEvaluationStrategy#optimize}, which may compile one). A
     * SELECT's rows are its solutions, a CONSTRUCT's the template's statements as {@code subject}, {@code predicate},
     * {@code object} (and {@code context}) rows; a DESCRIBE's plan gives the described values, which
     * {@link NativeDescribe} expands over the default graphs of {@code dataset} as the strategy's DESCRIBE does. The
     * caller holds {@code source} open until the result is closed and gives no incoming bindings; the plan gives the
     * same rows as through {@link BasaltEvaluationStrategy}. The run is counted in {@code counts} (the store's,
     * {@link NativeQueryStats#shapePlans}).
     */
    public CloseableIteration<BindingSet> run(PreparedAlgebra.Shape shape, OrderingPolicy ordering, Object partition,
            long state, QuadSource source, Dataset dataset, ExecLimits limits, Counts counts) {
        Entry entry = entries.get(key(shape, ordering, partition, state, source));
        if (entry == null || entry.state != state || entry.node == null) {
            return null;
        }
        BasaltPlanNode node = entry.node(shape, source);
        if (node == null) {
            return null;
        }
        counts.planReused();
        counts.planRunDirectly();
        shape.taken();
        if (!entry.describe) {
            return node.run(source, limits);
        }
        NativeDescribe.IdRows rows = node.runIds(source, limits, entry.described);
        try {
            return new NativeDescribe(rows, entry.described.size(), source,
                    DatasetGraphs.defaultGraphs(dataset, source));
        } catch (RuntimeException | Error e) {
            rows.close();
            throw e;
        }
    }

    /**
     * The counts of the plans kept per query shape, one set per store (the store's {@link NativeQueryStats} holds it
     * and reports it with its other counts): plans compiled to be kept, evaluations that ran a kept plan (and of
     * those, the runs outside RDF4J's evaluation, {@link #run}), and evaluations of shapes whose plans were refused.
     * Thread-safe: adders, counted by concurrent evaluations.
     */
    public static final class Counts {
        private final LongAdder kept = new LongAdder();
        private final LongAdder reused = new LongAdder();
        private final LongAdder runDirectly = new LongAdder();
        private final LongAdder notKept = new LongAdder();

        /** A plan compiled for a query shape, to be kept and reused. */
        void planKept() {
            kept.increment();
        }

        /** An evaluation ran the plan kept for its query shape, without optimization or compilation. */
        void planReused() {
            reused.increment();
        }

        /** Of those, an evaluation that ran the kept plan outside RDF4J's evaluation setup ({@link #run}). */
        void planRunDirectly() {
            runDirectly.increment();
        }

        /**
         * An evaluation of a shape whose plans were refused at this store state: optimized and compiled as a query
         * without a kept plan ({@link NativeQueryStats#shapePlanRefused} counts the refusal once per shape and state).
         */
        void planNotKept() {
            notKept.increment();
        }

        public long kept() {
            return kept.sum();
        }

        public long reused() {
            return reused.sum();
        }

        public long runDirectly() {
            return runDirectly.sum();
        }

        public long notKept() {
            return notKept.sum();
        }

        void reset() {
            kept.reset();
            reused.reset();
            runDirectly.reset();
            notKept.reset();
        }
    }

    /**
     * The key of the query's plan: with the query's range class where the shape's plans at {@code state} read
     * object ranges ({@link RangeClasses}), so that a plan chosen for a much larger or smaller share of a ranged
     * pattern's matches is not run for this query.
     */
    private Key key(PreparedAlgebra.Shape shape, OrderingPolicy ordering, Object partition, long state,
            QuadSource source) {
        // a probe of another state still classes the query: its entries' states decide as without classes
        Key unranged = new Key(ordering, partition, "");
        Probe probe = probes.get(unranged);
        if (probe == null) {
            return unranged;
        }
        return new Key(ordering, partition, rangeClass(probe, shape, source));
    }

    private static String rangeClass(Probe probe, PreparedAlgebra.Shape shape, QuadSource source) {
        return "range class " + probe.classes.classOf(conditionValues(shape, List.of(probe.constants)), source);
    }

    /** The query's term id for each parameter, or null if a sentinel has no value for this query. */
    private static long[] ids(PreparedAlgebra.Shape shape, Value[] sentinels, QuadSource source) {
        long[] ids = new long[sentinels.length];
        for (int i = 0; i < ids.length; i++) {
            Value v = shape.valueOf(sentinels[i]);
            if (v == null) {
                return null;
            }
            ids[i] = source.lookup(v);
        }
        return ids;
    }

    /** The entry for {@code shape} at {@code state}; null when this query cannot make it (a constant not in the store). */
    private Entry make(PreparedAlgebra.Shape shape, long state, QuadSource source, Compiler compiler,
            NativeQueryStats stats) {
        QueryRoot tree = shape.template().clone();
        new ParentReferenceCleaner().optimize(tree, null, null);
        List<Value> inPatterns = new ArrayList<>();
        List<Value> bound = new ArrayList<>();
        if (!ShapeSentinels.collect(shape, tree, inPatterns, bound)) {
            return refused(state, "a constant outside a pattern, BIND, VALUES, CONSTRUCT template or condition, or EXISTS",
                    stats);
        }
        Value[] order = inPatterns.toArray(new Value[0]);
        long[] ids = ids(shape, order, source);
        if (ids == null) {
            return refused(state, "a constant without a value for the query", stats);
        }
        Map<Value, Integer> index = new HashMap<>();
        boolean missing = false;
        for (int i = 0; i < ids.length; i++) {
            missing |= ids[i] == TermIds.NULL;
            index.put(order[i], i);
        }
        if (missing && misses.incrementAndGet() <= MAX_MISSES) {
            stats.shapePlanRefused("a constant not in the store (tried again with the next query)");
            return null;
        }
        Value[] constants = bound.toArray(new Value[0]);
        ParameterSource parameters = new ParameterSource(source, ids, index, conditionValues(shape, bound));
        if (!compiler.compile(tree, parameters)) {
            return refused(state, "an RDF4J value function in the plan that is not a pure expression", stats);
        }
        if (tree.getArg() instanceof BasaltPlanNode node) {
            return new Entry(state, node, false, order, constants, RangeClasses.of(node.plan().root(), parameters));
        }
        if (tree.getArg() instanceof DescribeOperator d && d.getArg() instanceof BasaltPlanNode node) {
            return new Entry(state, node, true, order, constants, RangeClasses.of(node.plan().root(), parameters));
        }
        return refused(state, "not one Basalt plan under the root: " + tree.getArg().getSignature(), stats);
    }

    /**
     * The compiling query's value of each sentinel in {@code bound} (read by a condition, a BIND, a CONSTRUCT template
     * or VALUES), for the compilation's estimates: a FILTER's range is then estimated with the value this query
     * compares with rather than the sentinel's.
     */
    private static Map<Value, Value> conditionValues(PreparedAlgebra.Shape shape, List<Value> bound) {
        Map<Value, Value> values = new HashMap<>();
        for (Value sentinel : bound) {
            Value v = shape.valueOf(sentinel);
            if (v != null) {
                values.put(sentinel, v);
            }
        }
        return values;
    }

    /** The mark that the shape's plans cannot be kept at {@code state}, its reason counted. */
    private static Entry refused(long state, String reason, NativeQueryStats stats) {
        stats.shapePlanRefused(reason);
        return new Entry(state, null, false, null, null, null);
    }
}
