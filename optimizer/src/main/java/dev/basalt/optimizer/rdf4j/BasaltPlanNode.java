package dev.basalt.optimizer.rdf4j;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.LookAheadIteration;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.AbstractQueryModelNode;
import org.eclipse.rdf4j.query.algebra.ExtensionElem;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryModelVisitor;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryBindingSet;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryEvaluationStep;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.QueryEvaluationContext;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractSimpleQueryModelVisitor;
import org.eclipse.rdf4j.query.impl.EmptyBindingSet;

import dev.basalt.optimizer.access.ParameterSource;
import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.RowCursor;
import dev.basalt.optimizer.plan.CompiledPlan;
import dev.basalt.store.lexicon.TermIds;

/**
 * An algebra leaf standing for a subtree that Basalt evaluates itself: RDF4J's evaluator sees it
 * as a tuple expression with the subtree's binding names and evaluates it through
 * {@link BasaltEvaluationStrategy#precompile}. Its signature (shown by {@code Query.explain}) is the
 * Basalt plan with estimated and actual rows and time per operator.
 *
 * <p>Rows become binding sets a batch at a time (ids resolved together). Incoming bindings from
 * an enclosing RDF4J operator are turned into ids and bound before the plan runs (a value the
 * store does not hold gets a query-local id); a binding without a value, or any incoming binding
 * under a SELECT projection, sends this evaluation to RDF4J's evaluator over the original subtree
 * (counted as a runtime fallback). An incoming binding of a BIND target of the subtree is not bound
 * before the plan runs (the plan's BIND would set the variable over it): the plan's rows are joined
 * with it instead, kept where the BIND's value is the incoming one or none (SPARQL 1.1 section 18.5,
 * Join of the incoming row with the subtree's solutions). A variable left by a BIND error
 * ({@link ExecContext#UNBOUND_BY_ERROR}) is output as a name without a value, as RDF4J does, except
 * from a plan ending in a SELECT projection, which (as RDF4J's) outputs only names with a value.
 * A plan kept for a query shape ({@link ShapePlans}) holds parameters in place of the shape's pattern
 * constants; each evaluation's node reads the store through a {@link ParameterSource} that puts its own
 * term ids in their place.
 * Thread-safe as a kept plan's node, evaluated concurrently: the plan is immutable, the runtime
 * fallback count atomic and its last reason volatile; a parameter source is as thread-safe as the source it wraps.
 */
public final class BasaltPlanNode extends AbstractQueryModelNode implements TupleExpr {
    private static final int BATCH = 128;
    /*
     * Transient: RDF4J checks between optimizers (with assertions on) that the algebra serializes;
     * a plan holds its store reads and is never serialized, a node is only ever cloned.
     */
    private final transient CompiledPlan plan;
    private final TupleExpr original;
    /** Evaluations of this node handed to RDF4J at run time, and the last reason, for EXPLAIN. */
    private final transient AtomicLong runtimeFallbacks = new AtomicLong();
    private transient volatile String runtimeReason;

    /** The names the subtree's BINDs (and SELECT expressions) assign. */
    private final transient Set<String> bindTargets;
    /**
     * The term id of each parameter of a plan kept for a query shape ({@link ShapePlans}), for this
     * evaluation; null for a plan of this query alone.
     */
    private final transient long[] parameters;
    /** The evaluation's constant per sentinel value the plan holds (BIND and CONSTRUCT template constants), or null. */
    private final transient Map<Value, Value> parameterValues;

    BasaltPlanNode(CompiledPlan plan, TupleExpr original) {
        this(plan, original, targets(original), null, null);
    }

    private BasaltPlanNode(CompiledPlan plan, TupleExpr original, Set<String> bindTargets, long[] parameters,
            Map<Value, Value> parameterValues) {
        this.plan = plan;
        this.original = original;
        this.bindTargets = bindTargets;
        this.parameters = parameters;
        this.parameterValues = parameterValues;
        setResultSizeEstimate(plan.root().estimate());
    }

    private static Set<String> targets(TupleExpr original) {
        Set<String> targets = new HashSet<>();
        original.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(false) {
            @Override
            public void meet(ExtensionElem node) {
                targets.add(node.getName());
                super.meet(node);
            }
        });
        return Set.copyOf(targets);
    }

    /**
     * This node of a plan compiled with parameters ({@link ShapePlans}) for one evaluation, which gives each
     * parameter the term id {@code ids} holds for it (0 = a term the store does not hold) and each sentinel value
     * the plan binds as a constant the value {@code values} holds for it (null if there are none).
     */
    BasaltPlanNode withParameters(long[] ids, Map<Value, Value> values) {
        return new BasaltPlanNode(plan, original, bindTargets, ids, values);
    }

    public CompiledPlan plan() {
        return plan;
    }

    /** The algebra subtree this plan replaced. */
    public TupleExpr original() {
        return original;
    }

    @Override
    public Set<String> getBindingNames() {
        return original.getBindingNames();
    }

    @Override
    public Set<String> getAssuredBindingNames() {
        return original.getAssuredBindingNames();
    }

    @Override
    public <X extends Exception> void visit(QueryModelVisitor<X> visitor) throws X {
        visitor.meetOther(this);
    }

    @Override
    public <X extends Exception> void visitChildren(QueryModelVisitor<X> visitor) throws X {
        // a leaf for RDF4J: the plan is not algebra
    }

    @Override
    public void replaceChildNode(QueryModelNode current, QueryModelNode replacement) {
        throw new IllegalArgumentException("a Basalt plan has no algebra children");
    }

    @Override
    public String getSignature() {
        long handedOver = runtimeFallbacks.get();
        String head = handedOver == 0 ? "BasaltPlan (native)"
                : "BasaltPlan (native; " + handedOver + (handedOver == 1 ? " evaluation" : " evaluations")
                        + " run by RDF4J's evaluator instead: " + runtimeReason + ")";
        return head + "\n" + plan.explain().stripTrailing();
    }

    /** Equal when they stand for equal algebra (as RDF4J's nodes compare structurally). */
    @Override
    public boolean equals(Object o) {
        return o instanceof BasaltPlanNode other && original.equals(other.original);
    }

    @Override
    public int hashCode() {
        return original.hashCode();
    }

    @Override
    public BasaltPlanNode clone() {
        return new BasaltPlanNode(plan, original.clone(), bindTargets, parameters, parameterValues);
    }

    /**
     * A kept plan's evaluation without incoming bindings and outside any RDF4J evaluation ({@link ShapePlans#run}):
     * no operator counts, helper threads may take part, as in any evaluation that is not an EXPLAIN's.
     */
    CloseableIteration<BindingSet> run(QuadSource source, ExecLimits limits) {
        ExecContext ctx = context(parameters == null ? source : new ParameterSource(source, parameters, Map.of()),
                false, false, limits);
        return new Results(plan.root().open(new long[plan.vars().size()], ctx), ctx, EmptyBindingSet.getInstance(),
                Set.of());
    }

    /**
     * As {@link #run}, the rows as ids: per row, the id of each of {@code names} (an output name of the plan, else
     * {@link TermIds#NULL}), in that order, for a caller that reads ids (a kept DESCRIBE's expansion,
     * {@link NativeDescribe}) and would otherwise look up again each value {@link #run} resolved. An id is a stored
     * term's, {@link TermIds#NULL} for no value, or a computed value's ({@link TermIds#isLocal},
     * {@link ExecContext#UNBOUND_BY_ERROR}), which no statement holds. Read by one thread; closing it ends the run.
     */
    NativeDescribe.IdRows runIds(QuadSource source, ExecLimits limits, List<String> names) {
        ExecContext ctx = context(parameters == null ? source : new ParameterSource(source, parameters, Map.of()),
                false, false, limits);
        int[] slots = new int[names.size()];
        for (int i = 0; i < slots.length; i++) {
            int at = plan.outputNames().indexOf(names.get(i));
            slots[i] = at < 0 ? -1 : plan.outputSlots()[at];
        }
        RowCursor rows = plan.root().open(new long[plan.vars().size()], ctx);
        long[] out = new long[slots.length];
        return new NativeDescribe.IdRows() {
            @Override
            public long[] next() {
                long[] r = rows.next();
                if (r == null) {
                    return null;
                }
                for (int i = 0; i < slots.length; i++) {
                    out[i] = slots[i] < 0 ? TermIds.NULL : r[slots[i]];
                }
                return out;
            }

            @Override
            public void close() {
                ctx.cancel();
                rows.close();
            }
        };
    }

    private ExecContext context(QuadSource source, boolean trackTime, boolean trackResultSize, ExecLimits limits) {
        ExecContext ctx = new ExecContext(source, trackTime, limits);
        if (parameterValues != null) {
            ctx.withParameterValues(parameterValues);
        }
        if (!trackTime && !trackResultSize) {
            // not an EXPLAIN: no operator counts, and helper threads may take part
            ctx.withoutStatistics();
        }
        return ctx;
    }

    QueryEvaluationStep step(BasaltEvaluationStrategy strategy, QueryEvaluationContext context) {
        QuadSource source = parameters == null ? strategy.quadSource()
                : new ParameterSource(strategy.quadSource(), parameters, Map.of());
        QueryEvaluationStep[] fallback = new QueryEvaluationStep[1];
        return bindings -> {
            long[] input = new long[plan.vars().size()];
            ExecContext ctx = context(source, strategy.isTrackingTime(), strategy.isTrackResultSize(),
                    strategy.execLimits());
            String reason = null;
            Set<String> joined = Set.of();
            if (plan.isProjected() && bindings.size() > 0) {
                reason = "incoming bindings under a projection";
            }
            for (String name : bindings.getBindingNames()) {
                Value value = bindings.getValue(name);
                int slot = plan.vars().find(name);
                if (reason == null && slot >= 0 && value == null) {
                    // a name without a value (an expression error upstream): RDF4J's own handling applies
                    reason = "incoming binding without a value: " + name;
                } else if (reason == null && slot >= 0 && bindTargets.contains(name)) {
                    if (joined.isEmpty()) {
                        joined = new HashSet<>();
                    }
                    joined.add(name);
                } else if (reason == null && slot >= 0) {
                    // a value the store does not hold gets a query-local id: patterns with it match nothing
                    input[slot] = ctx.idOf(value);
                }
            }
            if (reason != null && parameters != null) {
                // the original subtree holds the shape's sentinels; ShapePlans serves queries without incoming bindings
                throw new IllegalStateException("a shape's plan met incoming bindings: " + reason);
            }
            if (reason != null) {
                strategy.stats().runtimeFallback(reason);
                runtimeReason = reason;
                runtimeFallbacks.incrementAndGet();
                if (fallback[0] == null) {
                    TupleExpr copy = original.clone();
                    // RDF4J reads the position in the tree (e.g. whether a projection is the outermost)
                    copy.setParentNode(this);
                    fallback[0] = strategy.precompileWithRdf4j(copy, context);
                }
                return fallback[0].evaluate(bindings);
            }
            return new Results(plan.root().open(input, ctx), ctx, bindings, joined);
        };
    }

    private final class Results extends LookAheadIteration<BindingSet> {
        private final RowCursor rows;
        private final ExecContext ctx;
        private final BindingSet parent;
        /** Incoming names the plan binds itself (BIND targets): its value must be the incoming one, or none. */
        private final Set<String> joined;
        private final List<String> names;
        private final int[] slots;
        private final Deque<BindingSet> ready = new ArrayDeque<>();
        private boolean exhausted;

        Results(RowCursor rows, ExecContext ctx, BindingSet parent, Set<String> joined) {
            this.rows = rows;
            this.ctx = ctx;
            this.parent = parent;
            this.joined = joined;
            this.names = plan.outputNames();
            this.slots = plan.outputSlots();
        }

        @Override
        protected BindingSet getNextElement() {
            if (ready.isEmpty() && !exhausted) {
                fill();
            }
            return ready.poll();
        }

        private void fill() {
            List<long[]> batch = new ArrayList<>(BATCH);
            long[] r;
            while (batch.size() < BATCH && (r = rows.next()) != null) {
                batch.add(r);
            }
            exhausted = batch.size() < BATCH;
            long[] ids = new long[batch.size() * slots.length];
            int n = 0;
            for (long[] row : batch) {
                for (int s : slots) {
                    ids[n++] = row[s];
                }
            }
            Value[] values = ctx.resolve(ids);
            n = 0;
            for (int i = 0; i < batch.size(); i++) {
                QueryBindingSet bs = new QueryBindingSet(slots.length + (plan.isProjected() ? 0 : parent.size()));
                if (!plan.isProjected()) {
                    for (String name : parent.getBindingNames()) {
                        Value v = parent.getValue(name);
                        if (v != null) {
                            bs.setBinding(name, v);
                        }
                    }
                }
                boolean compatible = true;
                for (int j = 0; j < slots.length; j++) {
                    Value v = values[n];
                    if (!joined.isEmpty() && joined.contains(names.get(j))) {
                        // the incoming value stays; a BIND value other than it does not join
                        compatible &= v == null || v.equals(parent.getValue(names.get(j)));
                    } else if (v != null) {
                        bs.setBinding(names.get(j), v);
                    } else if (ids[n] == ExecContext.UNBOUND_BY_ERROR && !plan.isProjected()) {
                        // as RDF4J's Extension: the name stays, without a value, so RDF4J's operators above
                        // match nothing on it; RDF4J's projection keeps only names with a value
                        bs.setBinding(names.get(j), null);
                    }
                    n++;
                }
                if (compatible) {
                    ready.add(bs);
                }
            }
        }

        @Override
        protected void handleClose() {
            ctx.cancel();
            try {
                rows.close();
            } finally {
                setResultSizeActual(plan.root().actualRows());
                setTotalTimeNanosActual(plan.root().nanos());
            }
        }
    }
}
