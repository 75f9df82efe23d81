package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.FilterOp;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.optimizer.plan.PlanCompiler.Unsupported;

/**
 * Flattens a tree of joins and filters of the algebra into one join group: its operands
 * ({@link JoinOperand}: each statement pattern's scan, and every other subtree compiled on its own)
 * and its filters ({@link GroupFilter}: a filter whose argument always binds the variables it reads
 * commutes with the joins around it, so it joins the group's filter list, {@link #pullable}). The
 * group's filters then shape its patterns: a pattern whose object a filter bounds by comparisons
 * with constants reads only the ids in those bounds ({@link ObjectRangePlanner}), one whose
 * variable a filter requires equal to another may look its matches up by that one
 * ({@link EqualLookupPlanner}), and a spatial filter adds an operand of the spatial index
 * ({@link SpatialOperands}). The {@link PlanCompiler} orders and joins the group; the
 * {@link CountJoinPlanner} aggregates a group of patterns per join key.
 *
 * <p>Not thread-safe: one query's compiler uses it in the compiling thread.
 */
final class GroupFlattener {
    /** A flattened group: its operands in the algebra's order, and its filters. */
    record Group(List<JoinOperand> atoms, List<GroupFilter> filters) {
    }

    private final PlanCompiler compiler;
    private final PatternCompiler scans;
    private final SpatialOperands spatial;
    private final VarTable vars;
    private final QuadSource source;

    GroupFlattener(PlanCompiler compiler, PatternCompiler scans, VarTable vars, QuadSource source) {
        this.compiler = compiler;
        this.scans = scans;
        this.vars = vars;
        this.source = source;
        this.spatial = new SpatialOperands(source, vars);
    }

    /** The operands and filters of the join group {@code e}, its patterns shaped by its filters. */
    Group flatten(TupleExpr e) throws Unsupported {
        List<JoinOperand> atoms = new ArrayList<>();
        List<GroupFilter> filters = new ArrayList<>();
        flatten(e, atoms, filters);
        ObjectRangePlanner.apply(atoms, filters, vars, source);
        EqualLookupPlanner.apply(atoms, filters, vars);
        return new Group(atoms, filters);
    }

    /**
     * Whether {@code e} is a tree of joins and pullable filters over statement patterns only: every
     * operand of its group is a pattern (before spatial operands), so nothing in it is compiled on
     * its own.
     */
    static boolean patternsOnly(TupleExpr e) {
        if (e instanceof StatementPattern) {
            return true;
        }
        if (e instanceof Join j) {
            return patternsOnly(j.getLeftArg()) && patternsOnly(j.getRightArg());
        }
        return e instanceof Filter f && pullable(f) && patternsOnly(f.getArg());
    }

    /** A filter that commutes with the joins around it: its argument always binds all its variables. */
    static boolean pullable(Filter f) {
        return Scopes.assured(f.getArg()).containsAll(PlanCompiler.conditionVars(f.getCondition()))
                && !PlanCompiler.contains(f.getCondition(), node -> node instanceof TupleExpr);
    }

    private void flatten(TupleExpr e, List<JoinOperand> atoms, List<GroupFilter> filters) throws Unsupported {
        if (e instanceof Join j) {
            flatten(j.getLeftArg(), atoms, filters);
            flatten(j.getRightArg(), atoms, filters);
        } else if (e instanceof Filter f && pullable(f)) {
            flatten(f.getArg(), atoms, filters);
            filters.add(new GroupFilter(compiler.condition(f.getCondition(), f),
                    compiler.slots(PlanCompiler.conditionVars(f.getCondition())), f.getCondition()));
            spatial.addOperands(f.getCondition(), atoms);
        } else if (e instanceof StatementPattern sp) {
            PatternScan scan = scans.scan(sp);
            SlotSet s = new SlotSet();
            for (int slot : scan.slots()) {
                if (slot >= 0) {
                    s.add(slot);
                }
            }
            atoms.add(new JoinOperand(scan, scan, s, s, null));
        } else {
            Operator op;
            if (e instanceof Filter f) {
                op = new FilterOp(compiler.compile(f.getArg()), compiler.condition(f.getCondition(), f));
                op.setEstimate(((FilterOp) op).children().get(0).estimate() * JoinCostModel.FILTER_SELECTIVITY);
            } else {
                op = compiler.compile(e);
            }
            atoms.add(new JoinOperand(null, op, compiler.slots(Scopes.assured(e)), compiler.slots(e.getBindingNames()),
                    e));
        }
    }
}
