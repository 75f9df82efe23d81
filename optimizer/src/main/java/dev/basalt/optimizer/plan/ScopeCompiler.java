package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.query.algebra.Distinct;
import org.eclipse.rdf4j.query.algebra.MultiProjection;
import org.eclipse.rdf4j.query.algebra.Order;
import org.eclipse.rdf4j.query.algebra.OrderElem;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.ProjectionElem;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.Reduced;
import org.eclipse.rdf4j.query.algebra.Slice;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.Var;

import dev.basalt.optimizer.exec.DistinctOp;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.SliceOp;
import dev.basalt.optimizer.plan.PlanCompiler.Unsupported;

/**
 * Compiles the head of a variable scope (a plan root or a subquery): the solution modifiers RDF4J
 * stacks above the scope's pattern, in whichever order its optimizers left them: LIMIT/OFFSET
 * (Slice), DISTINCT or REDUCED, the projection (or a CONSTRUCT template's MultiProjection) and
 * ORDER BY, which RDF4J may move above the projection or DISTINCT. The subtree below them is
 * compiled by the caller's {@link ModifierCompiler.Subtrees}; sorts come from the
 * {@link ModifierCompiler}, a MultiProjection from the {@link AlgebraCompiler}. The result names
 * the output columns and their slots in the scope's {@link VarTable}.
 *
 * <p>ORDER BY in a subquery is not compiled ({@link Unsupported}): given incoming bindings, the plan
 * falls back to RDF4J on a copy of the subtree. Used by the one thread compiling a query.
 */
final class ScopeCompiler {
    private final VarTable vars;
    private final ModifierCompiler modifiers;
    private final AlgebraCompiler algebra;
    private final KnnPlanner knn;

    ScopeCompiler(VarTable vars, ModifierCompiler modifiers, AlgebraCompiler algebra, KnnPlanner knn) {
        this.vars = vars;
        this.modifiers = modifiers;
        this.algebra = algebra;
        this.knn = knn;
    }

    /** The plan of {@code root} with its modifiers, the subtree below them compiled by {@code subtrees}. */
    CompiledPlan compile(TupleExpr root, ModifierCompiler.Subtrees subtrees) throws Unsupported {
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
        Operator op = subtrees.compile(e);
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
            if (distinct == null) {
                op = knn.plan(e, order, keep, op);
            }
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
}
