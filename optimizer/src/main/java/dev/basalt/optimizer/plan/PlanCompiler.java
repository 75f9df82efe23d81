package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.RDF4J;
import org.eclipse.rdf4j.model.vocabulary.SESAME;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.ArbitraryLengthPath;
import org.eclipse.rdf4j.query.algebra.Distinct;
import org.eclipse.rdf4j.query.algebra.EmptySet;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.OrderElem;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.MultiProjection;
import org.eclipse.rdf4j.query.algebra.Order;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.ProjectionElem;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.Reduced;
import org.eclipse.rdf4j.query.algebra.SingletonSet;
import org.eclipse.rdf4j.query.algebra.Slice;
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
import dev.basalt.optimizer.exec.DistinctOp;
import dev.basalt.optimizer.exec.FilterOp;
import dev.basalt.optimizer.exec.HashJoin;
import dev.basalt.optimizer.exec.IntersectOp;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.ParallelJoin;
import dev.basalt.optimizer.exec.PathOp;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.optimizer.exec.PipelineJoin;
import dev.basalt.optimizer.exec.RowFilter;
import dev.basalt.optimizer.exec.SliceOp;
import dev.basalt.optimizer.exec.UnionOp;
import dev.basalt.store.lexicon.TermIds;

/**
 * Compiles an RDF4J algebra subtree into a Basalt plan over ids, or says which node it cannot
 * compile ({@link Unsupported}). Supported: statement patterns (default graph = all graphs, as
 * RDF4J without a dataset; {@code GRAPH} = named graphs; a dataset restricts both as RDF4J does,
 * see {@link DatasetGraphs}), joins, filters, OPTIONAL (LeftJoin), UNION, property paths
 * ({@link PathCompiler}), the empty group and set, GROUP BY with aggregates, and at the root
 * SELECT's projection (or a CONSTRUCT template's MultiProjection), ORDER BY, DISTINCT/REDUCED and
 * LIMIT/OFFSET (ORDER BY and GROUP BY: {@link ModifierCompiler}). BIND, VALUES, MINUS, subqueries
 * and EXISTS / NOT EXISTS conjuncts are compiled by {@link AlgebraCompiler}.
 *
 * <p><b>Join groups.</b> Nested joins are flattened into one group of operands; a filter whose
 * variables its argument always binds joins the group's filter list (it commutes with the inner
 * joins). Operands are ordered greedily: first the smallest (exact range count of a pattern with
 * its constants), then repeatedly the cheapest operand connected to a variable already bound
 * (pattern fan-out estimated by {@link CardinalityEstimator}), a disconnected one only when none is
 * connected. Patterns join by index lookups ({@link PipelineJoin}) or, in a group evaluated once
 * when that is cheaper, from a hash table of the pattern ({@link JoinChoice}); other operands (UNION,
 * OPTIONAL groups, filtered sub-groups) are evaluated on their own and hash-joined. Each filter is
 * placed right after the operand that binds the last of its variables.
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
    private final VarTable vars = new VarTable();
    private final DatasetGraphs datasetGraphs;
    private final OrderingPolicy ordering;
    private final ModifierCompiler modifiers;
    private final AlgebraCompiler algebra;
    private final ValueFunctions functions;
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
        this.modifiers = new ModifierCompiler(vars, values);
        this.algebra = new AlgebraCompiler(this, vars, source, values, functions);
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

    /** Compiles a subtree with this compiler's own variable scope (a plan root or a subquery). */
    CompiledPlan compileScoped(TupleExpr root) throws Unsupported {
        TupleExpr e = root;
        MultiProjection multi = null;
        Slice slice = null;
        TupleExpr distinct = null;
        Projection projection = null;
        if (e instanceof Slice s) {
            slice = s;
            e = s.getArg();
        }
        Order order = null;
        boolean orderOverDistinct = false;
        while (true) {
            if (distinct == null && projection == null && (e instanceof Distinct || e instanceof Reduced)) {
                distinct = e;
                e = ((org.eclipse.rdf4j.query.algebra.UnaryTupleOperator) e).getArg();
            } else if (projection == null && e instanceof Projection p) {
                projection = p;
                e = p.getArg();
            } else if (order == null && e instanceof Order o) {
                // RDF4J's optimizers may move ORDER BY above the projection or DISTINCT
                order = o;
                orderOverDistinct = distinct == null;
                e = o.getArg();
            } else {
                break;
            }
        }
        if (order != null && projection != null && !(root.getParentNode() instanceof QueryRoot)) {
            // a subquery: given incoming bindings the plan falls back to RDF4J on a copy of the subtree,
            // which then applies them inside the subquery (SubselectTest.testSES2154SubselectOptional)
            throw new Unsupported(root, "ORDER BY in a subquery");
        }
        if (projection == null && order == null && e instanceof MultiProjection m) {
            multi = m;
            e = m.getArg();
        }
        Operator op = compile(e);
        long keep = slice != null && slice.hasLimit() ? slice.getLimit() + (slice.hasOffset() ? slice.getOffset() : 0) : -1;
        // (RDF4J turns DISTINCT over ORDER BY into REDUCED; under a sort Basalt drops duplicates either way)
        boolean distinctFirst = distinct != null && order != null && !orderOverDistinct && keep >= 0
                && projection != null && sortsOnProjection(order, projection);
        if (distinctFirst) {
            // SELECT DISTINCT ... ORDER BY ... LIMIT with every sort key a projected variable: equal
            // projected rows sort together, so dropping duplicates first lets the sort keep only the
            // top LIMIT + OFFSET rows instead of sorting everything
            List<Integer> projected = new ArrayList<>();
            for (ProjectionElem pe : projection.getProjectionElemList().getElements()) {
                int slot = vars.find(pe.getName());
                if (slot >= 0) {
                    projected.add(slot);
                }
            }
            double est = op.estimate();
            op = new DistinctOp(op, projected.stream().mapToInt(Integer::intValue).toArray(), false);
            op.setEstimate(est);
            op = modifiers.sort(op, order, keep);
        } else if (order != null && !(orderOverDistinct && distinct != null)) {
            op = modifiers.sort(op, order, distinct == null ? keep : -1);
        }
        List<String> names = new ArrayList<>();
        List<Integer> slots = new ArrayList<>();
        if (multi != null) {
            op = algebra.multiProjection(multi, op, names, slots);
        } else if (projection != null) {
            for (ProjectionElem pe : projection.getProjectionElemList().getElements()) {
                int slot = vars.find(pe.getName());
                if (slot >= 0) {
                    names.add(pe.getProjectionAlias().orElse(pe.getName()));
                    slots.add(slot);
                }
            }
        } else {
            for (String n : e.getBindingNames()) {
                int slot = vars.find(n);
                if (slot >= 0) {
                    names.add(n);
                    slots.add(slot);
                }
            }
        }
        int[] out = slots.stream().mapToInt(Integer::intValue).toArray();
        if (distinct != null && !distinctFirst) {
            double est = op.estimate();
            // RDF4J turns DISTINCT above ORDER BY into REDUCED and lets its sort drop duplicates
            op = new DistinctOp(op, out, distinct instanceof Reduced && order == null);
            op.setEstimate(est);
            if (order != null && orderOverDistinct) {
                op = modifiers.sort(op, order, keep);
            }
        }
        if (slice != null) {
            double est = op.estimate();
            op = new SliceOp(op, slice.hasOffset() ? slice.getOffset() : 0, slice.hasLimit() ? slice.getLimit() : -1);
            op.setEstimate(slice.hasLimit() ? Math.min(est, slice.getLimit()) : est);
        }
        return new CompiledPlan(op, vars, names, out, projection != null || multi != null);
    }

    /** Every ORDER BY key is a variable the projection outputs under its own name. */
    private static boolean sortsOnProjection(Order order, Projection projection) {
        Set<String> plain = new HashSet<>();
        for (ProjectionElem pe : projection.getProjectionElemList().getElements()) {
            if (pe.getProjectionAlias().isEmpty() || pe.getProjectionAlias().get().equals(pe.getName())) {
                plain.add(pe.getName());
            }
        }
        for (OrderElem oe : order.getElements()) {
            if (!(oe.getExpr() instanceof Var v) || v.hasValue() || !plain.contains(v.getName())) {
                return false;
            }
        }
        return true;
    }

    Operator compile(TupleExpr e) throws Unsupported {
        if (e instanceof StatementPattern || e instanceof Join || e instanceof Filter) {
            return compileGroup(e, outerBound);
        }
        if (e instanceof LeftJoin lj) {
            return compileLeftJoin(lj);
        }
        if (ModifierCompiler.isAggregation(e)) {
            return modifiers.group(e, this::compile);
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
        return scan(sp);
    }

    private Operator compileLeftJoin(LeftJoin lj) throws Unsupported {
        Operator left = compile(lj.getLeftArg());
        RowFilter condition = lj.hasCondition() ? condition(lj.getCondition(), lj) : null;
        TupleExpr rightArg = lj.getRightArg();
        Operator op;
        if (correlatable(rightArg)) {
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

    /** A right side that may be evaluated per left row: patterns, joins and self-contained filters. */
    private boolean correlatable(TupleExpr e) {
        if (e instanceof StatementPattern) {
            return true;
        }
        if (e instanceof Join j) {
            return correlatable(j.getLeftArg()) && correlatable(j.getRightArg());
        }
        if (e instanceof Filter f) {
            return pullable(f) && correlatable(f.getArg());
        }
        return false;
    }

    /** One operand of a group: a pattern ({@code scan} set) or another operator. */
    static final class Atom {
        final PatternScan scan;
        final Operator op;
        final SlotSet assured;
        final SlotSet mentioned;
        /** The algebra of an operand other than a pattern, compiled again when it is correlated; else null. */
        final TupleExpr expr;
        /** Rows after this operand as the runtime optimizer estimated them, -1 if it did not order the group. */
        double runtimeRows = -1;

        Atom(PatternScan scan, Operator op, SlotSet assured, SlotSet mentioned, TupleExpr expr) {
            this.scan = scan;
            this.op = op;
            this.assured = assured;
            this.mentioned = mentioned;
            this.expr = expr;
        }
    }

    private static final class PendingFilter {
        final RowFilter filter;
        final SlotSet slots;

        PendingFilter(RowFilter filter, SlotSet slots) {
            this.filter = filter;
            this.slots = slots;
        }
    }

    Operator compileGroup(TupleExpr e, Set<Integer> preBound) throws Unsupported {
        List<Atom> atoms = new ArrayList<>();
        List<PendingFilter> filters = new ArrayList<>();
        flatten(e, atoms, filters);
        if (preBound.isEmpty()) {
            mergeIntersection(atoms);
        }
        List<Atom> order = order(atoms, preBound, filters);
        // a group evaluated once per query may hash a pattern (a table per evaluation, not per row)
        JoinChoice joins = preBound.isEmpty() ? new JoinChoice(estimator) : null;
        if (joins != null) {
            order = joins.order(order, rest -> staticOrder(rest, preBound, filters));
        }

        Operator cur = null;
        double rows = 1;
        SlotSet certain = new SlotSet(preBound);
        SlotSet mentioned = new SlotSet(preBound);
        for (Atom a : order) {
            if (a.scan != null && a.runtimeRows >= 0) {
                a.scan.setEstimate(cur == null ? a.runtimeRows : a.runtimeRows / Math.max(rows, 1e-9));
                cur = cur == null ? a.scan : patternJoin(joins, cur, a.scan, rows, certain, mentioned);
                rows = a.runtimeRows;
            } else if (a.scan != null) {
                double fanout = estimator.estimate(a.scan, certain);
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
                    cur = new HashJoin(cur, a.op, toArray(keys), toArray(shared), false, null);
                    rows = keys.isEmpty() ? rows * a.op.estimate() : Math.max(rows, a.op.estimate());
                }
            }
            cur.setEstimate(rows);
            certain.addAll(a.assured);
            mentioned.addAll(a.mentioned);
            for (var it = filters.iterator(); it.hasNext();) {
                PendingFilter f = it.next();
                if (certain.containsAll(f.slots)) {
                    it.remove();
                    cur = new FilterOp(cur, f.filter);
                    rows *= 0.5;
                    cur.setEstimate(rows);
                }
            }
        }
        for (PendingFilter f : filters) {
            cur = new FilterOp(cur, f.filter);
            rows *= 0.5;
            cur.setEstimate(rows);
        }
        // a group evaluated once per query (not per row of an outer join) may split its lookups over chunks
        return preBound.isEmpty() ? ParallelJoin.over(cur) : cur;
    }

    private static Operator patternJoin(JoinChoice joins, Operator left, PatternScan scan, double rows, SlotSet certain,
            SlotSet mentioned) {
        return joins == null ? new PipelineJoin(left, scan) : joins.join(left, scan, rows, certain, mentioned);
    }

    /** What one index lookup costs against one row read by a scan, in {@link #correlated}'s choice. */
    static final double LOOKUP_COST = 4;
    /** What one row of a hash join's build side costs (read and held) against one row read by a scan. */
    static final double BUILD_COST = 2;

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
        if (patterns == 0 || rows * LOOKUP_COST * patterns >= BUILD_COST * once.estimate() + rows) {
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

    private void flatten(TupleExpr e, List<Atom> atoms, List<PendingFilter> filters) throws Unsupported {
        if (e instanceof Join j) {
            flatten(j.getLeftArg(), atoms, filters);
            flatten(j.getRightArg(), atoms, filters);
        } else if (e instanceof Filter f && pullable(f)) {
            flatten(f.getArg(), atoms, filters);
            filters.add(new PendingFilter(condition(f.getCondition(), f), slots(conditionVars(f.getCondition()))));
        } else if (e instanceof StatementPattern sp) {
            PatternScan scan = scan(sp);
            SlotSet s = new SlotSet();
            for (int slot : scan.slots()) {
                if (slot >= 0) {
                    s.add(slot);
                }
            }
            atoms.add(new Atom(scan, scan, s, s, null));
        } else {
            Operator op;
            if (e instanceof Filter f) {
                op = new FilterOp(compile(f.getArg()), condition(f.getCondition(), f));
                op.setEstimate(((FilterOp) op).children().get(0).estimate() * 0.5);
            } else {
                op = compile(e);
            }
            atoms.add(new Atom(null, op, slots(Scopes.assured(e)), slots(e.getBindingNames()), e));
        }
    }

    /** A filter that commutes with the joins around it: its argument always binds all its variables. */
    private boolean pullable(Filter f) {
        return Scopes.assured(f.getArg()).containsAll(conditionVars(f.getCondition()))
                && !containsTupleExpr(f.getCondition());
    }

    private List<Atom> order(List<Atom> atoms, Set<Integer> preBound, List<PendingFilter> filters) {
        List<Atom> order = staticOrder(atoms, preBound, filters);
        if (!preBound.isEmpty() || order.size() > RuntimeJoinOrderer.MAX_PATTERNS
                || !order.stream().allMatch(a -> a.scan != null)
                || !ordering.runtimeFor(order.size(), () -> staticRows(order))) {
            return order;
        }
        return runtimeOrder(order);
    }

    /** The static plan's estimated intermediate rows (the sum over its steps), for {@link OrderingPolicy#runtimeFor}. */
    private double staticRows(List<Atom> order) {
        double rows = 1;
        double sum = 0;
        SlotSet bound = new SlotSet();
        for (Atom a : order) {
            rows = a.scan != null ? rows * estimator.estimate(a.scan, bound) : Math.max(rows, a.op.estimate());
            sum += rows;
            bound.addAll(a.assured);
        }
        return sum;
    }

    private List<Atom> runtimeOrder(List<Atom> atoms) {
        List<PatternScan> scans = new ArrayList<>();
        for (Atom a : atoms) {
            scans.add(a.scan);
        }
        RuntimeJoinOrderer.Result r = new RuntimeJoinOrderer(source, vars.size(), ordering.cutoff(),
                RuntimeJoinOrderer.BEAM).order(scans);
        List<Atom> out = new ArrayList<>();
        for (int i = 0; i < r.order().length; i++) {
            Atom a = atoms.get(r.order()[i]);
            a.runtimeRows = r.rows()[i];
            out.add(a);
        }
        return out;
    }

    /**
     * Greedy: the cheapest connected operand next, by its estimated rows per input row. A pattern
     * is discounted by {@link #CHECK_DISCOUNT} when it binds nothing new (a membership check, which
     * may fail) and once more for each filter it completes: the estimator gives such patterns a
     * fan-out of about 1, like a pattern that only adds a value to every row (a label for the
     * output), and without the discount a tie kept the written order. On BSBM Q3 at 10M that order
     * fetched 747 labels and filtered afterwards, 14 ms; checks and filters first leave one label
     * to fetch.
     */
    private List<Atom> staticOrder(List<Atom> atoms, Set<Integer> preBound, List<PendingFilter> filters) {
        List<Atom> remaining = new ArrayList<>(atoms);
        List<Atom> order = new ArrayList<>();
        SlotSet bound = new SlotSet(preBound);
        while (!remaining.isEmpty()) {
            boolean anyConnected = false;
            for (Atom a : remaining) {
                anyConnected |= connected(a, bound);
            }
            Atom best = null;
            double bestCost = 0;
            boolean first = order.isEmpty() && bound.isEmpty();
            for (Atom a : remaining) {
                if (anyConnected && !connected(a, bound)) {
                    continue;
                }
                double c = stepRows(a, bound, filters);
                if (first) {
                    c += c * nextStepRows(a, remaining, bound, filters);
                }
                // ties go to patterns (index lookups) and then to the written order
                if (best == null || c < bestCost || c == bestCost && a.scan != null && best.scan == null) {
                    best = a;
                    bestCost = c;
                }
            }
            remaining.remove(best);
            order.add(best);
            bound.addAll(best.assured);
        }
        return order;
    }

    /** Rows per input row that operand {@code a} yields after {@code bound}, checks and filters discounted. */
    private double stepRows(Atom a, SlotSet bound, List<PendingFilter> filters) {
        double c = a.scan != null ? estimator.estimate(a.scan, bound)
                : a.op instanceof PathOp path ? path.estimate(bound) : a.op.estimate();
        if (a.scan != null && !bound.isEmpty()) {
            c *= discount(a, bound, filters);
        }
        return c;
    }

    /**
     * The rows per row of {@code start} of the cheapest pattern connected to it, the greedy
     * choice's second step (1 when no pattern is connected; other operands' estimates are totals,
     * not rows per input row, and are left out). Only for a group's first operand without outer
     * bindings: a correlated group's first step is already a lookup per outer row. The first operand is chosen by the cost
     * of its first two steps, not by its own size alone: at BSBM with 200 products, Q10's
     * {@code ?vendor :country :US} (13 matches) was the smallest pattern and led to every offer of
     * every US vendor (1,322 rows) before the product's 20 offers were looked at; counting the
     * second step starts from the product.
     */
    private double nextStepRows(Atom start, List<Atom> remaining, SlotSet bound, List<PendingFilter> filters) {
        SlotSet after = new SlotSet(bound);
        after.addAll(start.assured);
        double next = -1;
        for (Atom b : remaining) {
            if (b != start && b.scan != null && connected(b, after)) {
                double c = stepRows(b, after, filters);
                next = next < 0 ? c : Math.min(next, c);
            }
        }
        return next < 0 ? 1 : next;
    }

    static final double CHECK_DISCOUNT = 0.5;

    /**
     * Replaces the patterns that share one variable and are otherwise constant (in S, P, O; any
     * graph), e.g. a type and two features of {@code ?product}, by one {@link IntersectOp}, if the
     * source can read each of them ordered by the variable and the intersection is where the
     * group would start anyway: no other operand is expected to yield fewer rows than the
     * smallest of them. The group's other patterns then probe per intersected value.
     */
    private void mergeIntersection(List<Atom> atoms) {
        Map<Long, List<Atom>> candidates = new LinkedHashMap<>();
        for (Atom a : atoms) {
            int position = intersectable(a);
            if (position >= 0) {
                candidates.computeIfAbsent(a.scan.slots()[position] * 4L + position, k -> new ArrayList<>()).add(a);
            }
        }
        for (Map.Entry<Long, List<Atom>> candidate : candidates.entrySet()) {
            List<Atom> group = candidate.getValue();
            if (group.size() < 2) {
                continue;
            }
            double smallest = Double.MAX_VALUE;
            for (Atom a : group) {
                smallest = Math.min(smallest, estimator.estimate(a.scan, Set.of()));
            }
            boolean leads = true;
            for (Atom a : atoms) {
                if (!group.contains(a)) {
                    double c = a.scan != null ? estimator.estimate(a.scan, Set.of()) : a.op.estimate();
                    leads &= c >= smallest;
                }
            }
            if (!leads) {
                continue;
            }
            int position = (int) (candidate.getKey() % 4);
            int slot = (int) (candidate.getKey() / 4);
            long[][] patterns = new long[group.size()][];
            StringBuilder label = new StringBuilder();
            for (int i = 0; i < group.size(); i++) {
                patterns[i] = group.get(i).scan.constants();
                label.append(i == 0 ? "[" : ", ").append(group.get(i).scan.label());
            }
            IntersectOp op = new IntersectOp(patterns, position, slot, label.append(']').toString());
            op.setEstimate(smallest * Math.pow(CHECK_DISCOUNT, group.size() - 1));
            atoms.removeAll(group);
            SlotSet merged = new SlotSet();
            merged.add(slot);
            atoms.add(0, new Atom(null, op, merged, merged, null));
            return;
        }
    }

    /** The position of a pattern's only variable if it may join an {@link IntersectOp}, else -1. */
    private int intersectable(Atom a) {
        if (a.scan == null || a.scan.contexts() != null || a.scan.namedGraphsOnly() || a.scan.matchesNothing()) {
            return -1;
        }
        int[] slots = a.scan.slots();
        long[] constants = a.scan.constants();
        if (slots[3] >= 0 || constants[3] != TermIds.NULL) {
            return -1;
        }
        int position = -1;
        for (int i = 0; i < 3; i++) {
            if (slots[i] >= 0 && constants[i] == TermIds.NULL) {
                if (position >= 0) {
                    return -1;
                }
                position = i;
            } else if (constants[i] == TermIds.NULL) {
                return -1;
            }
        }
        return position >= 0 && source.canOrder(constants, position) ? position : -1;
    }

    private static double discount(Atom a, SlotSet bound, List<PendingFilter> filters) {
        double d = bound.containsAll(a.mentioned) ? CHECK_DISCOUNT : 1;
        SlotSet after = null;
        for (PendingFilter f : filters) {
            if (!bound.containsAll(f.slots) && a.mentioned.intersects(f.slots)) {
                if (after == null) {
                    after = new SlotSet(bound);
                    after.addAll(a.assured);
                }
                if (after.containsAll(f.slots)) {
                    d *= CHECK_DISCOUNT;
                }
            }
        }
        return d;
    }

    private static boolean connected(Atom a, SlotSet bound) {
        return a.mentioned.intersects(bound);
    }

    private PatternScan scan(StatementPattern sp) throws Unsupported {
        if (sp.getScope() == StatementPattern.Scope.DEFAULT_CONTEXTS && sp.getContextVar() != null) {
            throw new Unsupported(sp, "default-graph pattern restricted to a dataset's graphs");
        }
        DatasetGraphs.Restriction restriction = datasetGraphs.restrict(sp);
        Var[] positions = { sp.getSubjectVar(), sp.getPredicateVar(), sp.getObjectVar(), sp.getContextVar() };
        long[] constants = new long[4];
        int[] slots = { -1, -1, -1, -1 };
        boolean nothing = false;
        boolean namedOnly = sp.getScope() == StatementPattern.Scope.NAMED_CONTEXTS;
        StringBuilder label = new StringBuilder();
        for (int i = 0; i < 4; i++) {
            Var v = positions[i];
            if (v == null) {
                continue;
            }
            if (i == 3) {
                label.append(" GRAPH ");
            } else if (i > 0) {
                label.append(' ');
            }
            if (v.hasValue()) {
                Value value = v.getValue();
                boolean nil = i == 3 && (RDF4J.NIL.equals(value) || SESAME.NIL.equals(value));
                // GRAPH rdf4j:nil (or sesame:nil) is RDF4J's name for the default graph
                long id = nil ? TermIds.DEFAULT_GRAPH : constantIds.computeIfAbsent(value, source::lookup);
                namedOnly &= !nil;
                constants[i] = id;
                nothing |= id == TermIds.NULL;
                if (!v.isConstant()) {
                    // a named variable given a value (query bindings, sameTerm rewriting) is still bound in results
                    slots[i] = vars.slot(v.getName());
                    label.append('?').append(v.getName()).append('=');
                }
                label.append(shortText(value));
            } else {
                slots[i] = vars.slot(v.getName());
                label.append('?').append(v.getName());
            }
        }
        if (restriction.contexts() != null) {
            label.append(" FROM ").append(restriction.contexts().length).append(" graph(s)");
        }
        return new PatternScan(constants, slots, namedOnly, nothing || restriction.nothing(),
                label.toString(), restriction.contexts());
    }

    private static String shortText(Value v) {
        if (v.isIRI()) {
            String s = v.stringValue();
            int cut = Math.max(s.lastIndexOf('#'), s.lastIndexOf('/'));
            return cut >= 0 && cut < s.length() - 1 ? ":" + s.substring(cut + 1) : "<" + s + ">";
        }
        return v.toString();
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

    private SlotSet slots(Set<String> names) {
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
