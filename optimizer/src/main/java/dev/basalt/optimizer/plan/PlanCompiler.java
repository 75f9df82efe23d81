package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.ArbitraryLengthPath;
import org.eclipse.rdf4j.query.algebra.EmptySet;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.MultiProjection;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.SingletonSet;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.Union;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.ZeroLengthPath;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.ConstantOp;
import dev.basalt.optimizer.exec.CorrelatedJoin;
import dev.basalt.optimizer.exec.CorrelatedLeftJoin;
import dev.basalt.optimizer.exec.FilterOp;
import dev.basalt.optimizer.exec.HashJoin;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.ParallelJoin;
import dev.basalt.optimizer.exec.PathOp;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.optimizer.exec.PipelineJoin;
import dev.basalt.optimizer.exec.RowFilter;
import dev.basalt.optimizer.exec.UnionOp;

/**
 * Compiles an RDF4J algebra subtree into a Basalt plan over ids, or says which node it cannot
 * compile ({@link Unsupported}): the walk over the algebra that decides which part compiles each
 * node. Supported: statement patterns (default graph = all graphs, as RDF4J without a dataset;
 * {@code GRAPH} = named graphs; a dataset restricts both as RDF4J does, see {@link DatasetGraphs}
 * and {@link PatternCompiler}), joins, filters, OPTIONAL (LeftJoin), UNION, property paths
 * ({@link PathCompiler}), the empty group and set, GROUP BY with aggregates
 * ({@link ModifierCompiler}), and at the head of a scope SELECT's projection (or a CONSTRUCT
 * template's MultiProjection), ORDER BY, DISTINCT/REDUCED and LIMIT/OFFSET ({@link ScopeCompiler}).
 * BIND, VALUES, MINUS, subqueries and EXISTS / NOT EXISTS conjuncts are compiled by
 * {@link AlgebraCompiler}.
 *
 * <p><b>Join groups.</b> Nested joins are flattened into one group of operands
 * ({@link JoinOperand}) by the {@link GroupFlattener}; a filter whose variables its argument always
 * binds joins the group's filter list (it commutes with the inner joins). The {@link JoinOrderer} orders the operands by
 * the estimates of the {@link JoinCostModel}. Patterns join by index lookups ({@link PipelineJoin})
 * or, in a group evaluated once when that is cheaper, from a hash table of the pattern
 * ({@link JoinChoice}); other operands (UNION, OPTIONAL groups, filtered sub-groups) are evaluated
 * on their own and hash-joined, or per row of the operands before them when that is cheaper and
 * gives the same rows ({@link #correlated}). Each filter is placed right after the operand that
 * binds the last of its variables.
 *
 * <p>A compiler and the parts it makes compile one query in one thread; the estimator it is given
 * may be shared by the compilers of one query, and the estimator's cache beyond
 * ({@link EstimateCache}).
 */
public final class PlanCompiler {
    /** A node the compiler does not support; {@code node} is null when nothing is worth compiling. */
    public static final class Unsupported extends Exception {
        private final transient QueryModelNode node;

        Unsupported(QueryModelNode node, String reason) {
            super(reason, null, false, false);
            this.node = node;
        }

        public QueryModelNode node() {
            return node;
        }
    }

    private final QuadSource source;
    private final ValueConditions values;
    private final CardinalityEstimator estimator;
    private final JoinCostModel costs;
    private final JoinOrderer orderer;
    private final PatternCompiler scans;
    private final VarTable vars = new VarTable();
    private final DatasetGraphs datasetGraphs;
    private final OrderingPolicy ordering;
    private final ModifierCompiler modifiers;
    private final AlgebraCompiler algebra;
    private final ScopeCompiler scope;
    private final ValueFunctions functions;
    private final GroupFlattener groups;
    /**
     * Ids of the pattern constants looked up so far, shared with the nested compilers: a query
     * names the same term in many patterns (BSBM's product in each of a dozen patterns), and the
     * dictionary is asked once per term.
     */
    private final Map<Value, Long> constantIds;
    /**
     * Slots every input row binds while a correlated operand is compiled ({@link #correlated}): its
     * groups are ordered and estimated as lookups per input row. Empty otherwise.
     */
    private Set<Integer> outerBound = Set.of();

    /** A compiler without value functions: BIND expressions other than constants and copies are not compiled. */
    public PlanCompiler(QuadSource source, ValueConditions values) {
        this(source, values, values instanceof ValueFunctions f ? f : null, new CardinalityEstimator(source),
                OrderingPolicy.DEFAULT, null);
    }

    /**
     * A compiler sharing {@code estimator} (and its cached estimates) with the other compilers of one
     * query, for a query with a dataset (FROM / FROM NAMED), or none when {@code dataset} is null.
     * Without {@code functions}, BIND expressions other than constants and copies, and ORDER BY or
     * aggregate expressions other than variables, are not compiled.
     */
    public PlanCompiler(QuadSource source, ValueConditions values, ValueFunctions functions,
            CardinalityEstimator estimator, OrderingPolicy ordering, Dataset dataset) {
        this(source, values, functions, estimator, ordering, dataset, new HashMap<>());
    }

    private PlanCompiler(QuadSource source, ValueConditions values, ValueFunctions functions,
            CardinalityEstimator estimator, OrderingPolicy ordering, Dataset dataset, Map<Value, Long> constantIds) {
        this.source = source;
        this.constantIds = constantIds;
        this.values = values;
        this.functions = functions;
        this.estimator = estimator;
        this.ordering = ordering;
        this.datasetGraphs = new DatasetGraphs(dataset, source);
        this.costs = new JoinCostModel(estimator);
        this.orderer = new JoinOrderer(source, vars, ordering, costs);
        this.scans = new PatternCompiler(source, vars, datasetGraphs, constantIds);
        this.groups = new GroupFlattener(this, scans, vars, source);
        this.modifiers = new ModifierCompiler(vars, values, ordering.batches(),
                new CountJoinPlanner(groups, estimator, ordering.joins()));
        this.algebra = new AlgebraCompiler(this, vars, source, values, functions);
        this.scope = new ScopeCompiler(vars, modifiers, algebra, new KnnPlanner(this, vars, source));
    }

    /** A compiler with this one's settings and a variable scope of its own (a subquery). */
    PlanCompiler nested() {
        return new PlanCompiler(source, values, functions, estimator, ordering, datasetGraphs.dataset(), constantIds);
    }

    /** Compiles a subtree that is to be replaced by one Basalt plan. */
    public CompiledPlan compileRoot(TupleExpr root) throws Unsupported {
        if (!containsPattern(root)) {
            throw new Unsupported(null, "no statement pattern");
        }
        return compileScoped(root);
    }

    /**
     * Like {@link #compileRoot(TupleExpr)}, for a group every row it is opened with binds the
     * variables {@code boundOutside} (the pattern of an EXISTS under a filter RDF4J's evaluator
     * runs): the group is ordered and joined as lookups per input row, as an EXISTS inside a Basalt
     * plan is ({@link AlgebraCompiler#existsCondition}).
     */
    public CompiledPlan compileRoot(TupleExpr root, Set<String> boundOutside) throws Unsupported {
        if (boundOutside.isEmpty() || !(root instanceof StatementPattern || root instanceof Join || root instanceof Filter)) {
            return compileRoot(root);
        }
        if (!containsPattern(root)) {
            throw new Unsupported(null, "no statement pattern");
        }
        return scope.compile(root, e -> {
            if (e != root) {
                return compile(e);
            }
            Set<Integer> bound = new HashSet<>();
            for (String n : boundOutside) {
                if (root.getBindingNames().contains(n)) {
                    bound.add(vars.slot(n));
                }
            }
            return compileGroup(e, bound);
        });
    }

    /** Compiles a subtree with this compiler's own variable scope (a plan root or a subquery). */
    CompiledPlan compileScoped(TupleExpr root) throws Unsupported {
        return scope.compile(root, this::compile);
    }

    Operator compile(TupleExpr e) throws Unsupported {
        if (e instanceof StatementPattern || e instanceof Join || e instanceof Filter) {
            return compileGroup(e, outerBound);
        }
        if (e instanceof LeftJoin lj) {
            return compileLeftJoin(lj);
        }
        if (ModifierCompiler.isAggregation(e)) {
            return modifiers.group(e, this::compile, !outerBound.isEmpty());
        }
        if (e instanceof Union u) {
            Operator l = compile(u.getLeftArg());
            Operator r = compile(u.getRightArg());
            Operator op = new UnionOp(l, r);
            op.setEstimate(l.estimate() + r.estimate());
            return op;
        }
        if (e instanceof ArbitraryLengthPath || e instanceof ZeroLengthPath) {
            return new PathCompiler(this, vars).compile(e);
        }
        if (e instanceof SingletonSet || e instanceof EmptySet) {
            Operator op = new ConstantOp(e instanceof SingletonSet);
            op.setEstimate(e instanceof SingletonSet ? 1 : 0);
            return op;
        }
        Operator other = algebra.tryCompile(e);
        if (other != null) {
            return other;
        }
        throw new Unsupported(e, e.getClass().getSimpleName() + " is not compiled by Basalt yet");
    }

    /** Compiles {@code e} as if its input always bound {@code preBound} (a path step, see {@link PathCompiler}). */
    Operator compileBound(TupleExpr e, Set<Integer> preBound) throws Unsupported {
        if (e instanceof StatementPattern || e instanceof Join || e instanceof Filter) {
            return compileGroup(e, preBound);
        }
        return compile(e);
    }

    /** The scan of one pattern, dataset applied. */
    PatternScan scanOf(StatementPattern sp) throws Unsupported {
        return scans.scan(sp);
    }

    private Operator compileLeftJoin(LeftJoin lj) throws Unsupported {
        Operator left = compile(lj.getLeftArg());
        RowFilter condition = lj.hasCondition() ? condition(lj.getCondition(), lj) : null;
        TupleExpr rightArg = lj.getRightArg();
        Operator op;
        // a right side of patterns, joins and self-contained filters is evaluated per left row
        if (GroupFlattener.patternsOnly(rightArg)) {
            SlotSet bound = assuredSlots(lj.getLeftArg());
            bound.addAll(outerBound);
            Operator right = compileGroup(rightArg, bound);
            op = new CorrelatedLeftJoin(left, right, condition);
            op.setEstimate(left.estimate() * Math.max(1, right.estimate()));
        } else {
            Operator right = compile(rightArg);
            SlotSet certain = assuredSlots(lj.getLeftArg());
            certain.addAll(outerBound);
            SlotSet mentioned = slots(lj.getLeftArg().getBindingNames());
            mentioned.addAll(outerBound);
            SlotSet rightAssured = slots(Scopes.assured(rightArg));
            Operator perRow = correlated(rightArg, right, rightAssured, certain, mentioned, left.estimate());
            if (perRow != null) {
                op = new CorrelatedLeftJoin(left, perRow, condition);
                op.setEstimate(left.estimate() * Math.max(1, perRow.estimate()));
                return op;
            }
            Set<Integer> keys = slots(Scopes.assured(lj.getLeftArg()));
            keys.retainAll(rightAssured);
            Set<Integer> shared = slots(lj.getLeftArg().getBindingNames());
            shared.retainAll(slots(rightArg.getBindingNames()));
            op = new HashJoin(left, right, toArray(keys), toArray(shared), true, condition);
            op.setEstimate(left.estimate());
        }
        return op;
    }

    /**
     * The slots of RDF4J's assured binding names of {@code e}, read through joins and OPTIONALs
     * here: RDF4J's own recursion copies the name set at every join level, and nested OPTIONALs
     * (BSBM's detail queries have three or four) each ask it again for the whole group on their left.
     */
    private SlotSet assuredSlots(TupleExpr e) {
        if (e instanceof LeftJoin lj) {
            return assuredSlots(lj.getLeftArg());
        }
        if (e instanceof Join j) {
            SlotSet out = assuredSlots(j.getLeftArg());
            out.addAll(assuredSlots(j.getRightArg()));
            return out;
        }
        return slots(e.getAssuredBindingNames());
    }

    Operator compileGroup(TupleExpr e, Set<Integer> preBound) throws Unsupported {
        GroupFlattener.Group group = groups.flatten(e);
        List<JoinOperand> atoms = group.atoms();
        List<GroupFilter> filters = group.filters();
        if (preBound.isEmpty()) {
            orderer.mergeIntersection(atoms);
        }
        List<JoinOperand> order = orderer.order(atoms, preBound, filters);
        // a group evaluated once per query may hash a pattern (a table per evaluation, not per row)
        JoinChoice joins = preBound.isEmpty() ? new JoinChoice(estimator, ordering.joins()) : null;
        if (joins != null) {
            order = joins.order(order, rest -> orderer.staticOrder(rest, preBound, filters));
        }

        // the first two patterns may be merged from two ordered scans; filters wait until both are joined
        Operator merge = joins == null ? null : joins.merge(order, source);
        Operator cur = null;
        double rows = 1;
        SlotSet certain = new SlotSet(preBound);
        SlotSet mentioned = new SlotSet(preBound);
        for (JoinOperand a : order) {
            if (merge != null && cur != null && cur == order.get(0).scan) {
                double fanout = costs.fanout(a.scan, certain);
                a.scan.setEstimate(fanout);
                cur = merge;
                rows *= fanout;
            } else if (a.scan != null && a.runtimeRows >= 0) {
                a.scan.setEstimate(cur == null ? a.runtimeRows : a.runtimeRows / Math.max(rows, 1e-9));
                cur = cur == null ? a.scan : patternJoin(joins, cur, a.scan, rows, certain, mentioned);
                rows = a.runtimeRows;
            } else if (a.scan != null) {
                double fanout = costs.fanout(a.scan, certain);
                a.scan.setEstimate(fanout);
                cur = cur == null ? a.scan : patternJoin(joins, cur, a.scan, rows, certain, mentioned);
                rows *= fanout;
            } else if (cur == null) {
                cur = a.op;
                rows = a.op.estimate();
            } else if (a.op instanceof PathOp path && path.anchored(certain)) {
                cur = new CorrelatedJoin(cur, a.op);
                rows *= path.estimate(certain);
            } else {
                SlotSet keys = new SlotSet(certain);
                keys.retainAll(a.assured);
                Operator perRow = a.expr == null ? null : correlated(a.expr, a.op, a.assured, certain, mentioned, rows);
                if (perRow != null) {
                    cur = new CorrelatedJoin(cur, perRow);
                    rows *= Math.max(perRow.estimate(), 0);
                } else {
                    SlotSet shared = new SlotSet(mentioned);
                    shared.retainAll(a.mentioned);
                    int[] on = toArray(keys);
                    cur = new HashJoin(cur, a.op, on, toArray(shared), false, null,
                            joins == null ? null : KeyDrives.of(cur, on, estimator));
                    rows = keys.isEmpty() ? rows * a.op.estimate() : Math.max(rows, a.op.estimate());
                }
            }
            cur.setEstimate(rows);
            certain.addAll(a.assured);
            mentioned.addAll(a.mentioned);
            if (merge != null && cur == order.get(0).scan) {
                continue;
            }
            for (var it = filters.iterator(); it.hasNext();) {
                GroupFilter f = it.next();
                if (certain.containsAll(f.slots())) {
                    it.remove();
                    cur = new FilterOp(cur, f.filter());
                    rows *= JoinCostModel.FILTER_SELECTIVITY;
                    cur.setEstimate(rows);
                }
            }
        }
        for (GroupFilter f : filters) {
            cur = new FilterOp(cur, f.filter());
            rows *= JoinCostModel.FILTER_SELECTIVITY;
            cur.setEstimate(rows);
        }
        // a group evaluated once per query (not per row of an outer join) may split its lookups over chunks
        return preBound.isEmpty() ? ParallelJoin.over(cur, ordering.parallel()) : cur;
    }

    private static Operator patternJoin(JoinChoice joins, Operator left, PatternScan scan, double rows, SlotSet certain,
            SlotSet mentioned) {
        return joins == null ? new PipelineJoin(left, scan) : joins.join(left, scan, rows, certain, mentioned);
    }

    /**
     * The operand {@code expr} (a UNION, BIND, OPTIONAL or filtered group after other operands, or
     * an OPTIONAL's right side; {@code once} is it compiled on its own, {@code assured} the slots it
     * always binds) compiled to run once per row of the operands before it, with their bindings as
     * input, or null when it should be evaluated once and hash-joined. Per row only when the left
     * rows ({@code certain} slots always bound, {@code mentioned} perhaps) always bind a variable the
     * operand always binds, when {@link Injection} allows it (the operand's solutions given those
     * bindings are exactly its solutions compatible with them), and when the lookups that costs
     * (rows so far times the operand's patterns) are cheaper than building the operand's hash
     * table; both yield the same rows. A UNION of two large properties after a pattern that binds a
     * few subjects then costs a few lookups instead of reading both properties. {@code rows} is the
     * estimate so far.
     */
    private Operator correlated(TupleExpr expr, Operator once, SlotSet assured, SlotSet certain, SlotSet mentioned,
            double rows) throws Unsupported {
        if (!certain.intersects(assured) || once.estimate() < 0 || rows < 0) {
            return null;
        }
        int patterns = Injection.patterns(expr);
        if (patterns == 0 || JoinCostModel.hashCheaper(rows, patterns, once.estimate())) {
            return null;
        }
        Set<String> injected = new HashSet<>();
        for (String n : Injection.variables(expr)) {
            int slot = vars.find(n);
            if (slot >= 0 && mentioned.contains(slot)) {
                injected.add(n);
            }
        }
        if (!Injection.safe(expr, injected)) {
            return null;
        }
        Set<Integer> saved = outerBound;
        outerBound = new SlotSet(certain);
        try {
            return compile(expr);
        } finally {
            outerBound = saved;
        }
    }

    RowFilter condition(ValueExpr expr, QueryModelNode owner) throws Unsupported {
        if (containsTupleExpr(expr)) {
            Set<String> bound = owner instanceof Filter f ? Scopes.assured(f.getArg()) : new HashSet<>();
            if (owner instanceof LeftJoin lj) {
                bound.addAll(Scopes.assured(lj.getLeftArg()));
                bound.addAll(Scopes.assured(lj.getRightArg()));
            }
            return algebra.existsCondition(expr, owner, slots(bound));
        }
        Set<String> names = conditionVars(expr);
        int[] slots = new int[names.size()];
        String[] nameArray = names.toArray(new String[0]);
        for (int i = 0; i < nameArray.length; i++) {
            slots[i] = vars.slot(nameArray[i]);
        }
        IdCondition ids = IdCondition.compile(expr, vars, source);
        return new Condition(ids, expr, values, slots, nameArray);
    }

    static Set<String> conditionVars(ValueExpr expr) {
        Set<String> names = new LinkedHashSet<>();
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(Var v) {
                if (!v.hasValue()) {
                    names.add(v.getName());
                }
            }
        });
        return names;
    }

    private static boolean containsTupleExpr(ValueExpr expr) {
        return contains(expr, node -> node instanceof TupleExpr);
    }

    /** Whether a node of {@code expr} (itself included) is one {@code what} accepts. */
    static boolean contains(ValueExpr expr, Predicate<QueryModelNode> what) {
        boolean[] found = { false };
        expr.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            protected void meetNode(QueryModelNode node) {
                if (what.test(node)) {
                    found[0] = true;
                } else {
                    node.visitChildren(this);
                }
            }
        });
        return found[0];
    }

    private static boolean containsPattern(TupleExpr e) {
        boolean[] found = { false };
        e.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(StatementPattern sp) {
                found[0] = true;
            }
        });
        return found[0];
    }

    SlotSet slots(Set<String> names) {
        SlotSet out = new SlotSet();
        for (String n : names) {
            int s = vars.find(n);
            if (s >= 0) {
                out.add(s);
            }
        }
        return out;
    }

    static int[] toArray(Set<Integer> s) {
        return s.stream().mapToInt(Integer::intValue).sorted().toArray();
    }
}
