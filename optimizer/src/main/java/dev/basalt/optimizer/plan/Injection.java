package dev.basalt.optimizer.plan;

import java.util.HashSet;
import java.util.Set;

import org.eclipse.rdf4j.query.algebra.AggregateOperator;
import org.eclipse.rdf4j.query.algebra.EmptySet;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.ExtensionElem;
import org.eclipse.rdf4j.query.algebra.Filter;
import org.eclipse.rdf4j.query.algebra.Join;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.SingletonSet;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.Union;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractQueryModelVisitor;

/**
 * When a join may hand its left rows to an operand as input instead of joining the operand's own
 * solutions. SPARQL evaluates a group such as {@code { ?x :a ?o } UNION { ?x :b ?o }} on its own
 * and joins the compatible solutions; Basalt's operators, opened on a row, treat the row's
 * bindings as constants. The two agree when binding a variable in advance only removes the
 * solutions that disagree with it, which holds in a statement pattern and a join or union of
 * such operands, but not where the variable's being unbound decides something:
 * <ul>
 * <li>a FILTER or BIND expression reading a variable its argument does not always bind (in the
 * group it is unbound and the expression fails or takes another branch, e.g. {@code bound(?v)});
 * <li>a BIND whose target the left side may bind (the group would bind it to its own value and the
 * join compare the two);
 * <li>an OPTIONAL whose right side (or condition) mentions a variable its left side does not
 * always bind (without the binding, an OPTIONAL that matches other values drops out of the join;
 * with it, the OPTIONAL finds nothing and keeps the row).
 * </ul>
 * Anything else (VALUES, MINUS, subqueries, paths, aggregates, EXISTS) is not injected into.
 * Stateless; any thread may call it.
 */
final class Injection {
    private Injection() {
    }

    /**
     * Whether evaluating {@code e} with any of {@code bound} already bound yields exactly the
     * solutions of {@code e} compatible with those bindings.
     */
    static boolean safe(TupleExpr e, Set<String> bound) {
        if (e instanceof StatementPattern || e instanceof SingletonSet || e instanceof EmptySet) {
            return true;
        }
        if (e instanceof Join j) {
            return safe(j.getLeftArg(), bound) && safe(j.getRightArg(), bound);
        }
        if (e instanceof Union u) {
            return safe(u.getLeftArg(), bound) && safe(u.getRightArg(), bound);
        }
        if (e instanceof Filter f) {
            return readsOnlyAssured(f.getCondition(), f.getArg(), bound) && safe(f.getArg(), bound);
        }
        if (e instanceof Extension x) {
            for (ExtensionElem elem : x.getElements()) {
                if (bound.contains(elem.getName()) || !readsOnlyAssured(elem.getExpr(), x.getArg(), bound)) {
                    return false;
                }
            }
            return safe(x.getArg(), bound);
        }
        if (e instanceof LeftJoin lj) {
            Set<String> right = variables(lj.getRightArg());
            if (lj.hasCondition()) {
                if (nested(lj.getCondition())) {
                    return false;
                }
                right.addAll(PlanCompiler.conditionVars(lj.getCondition()));
            }
            right.retainAll(bound);
            return Scopes.assured(lj.getLeftArg()).containsAll(right) && safe(lj.getLeftArg(), bound)
                    && safe(lj.getRightArg(), bound);
        }
        return false;
    }

    /** The expression holds no subquery or aggregate and reads of {@code bound} only what {@code arg} always binds. */
    private static boolean readsOnlyAssured(ValueExpr expr, TupleExpr arg, Set<String> bound) {
        if (nested(expr)) {
            return false;
        }
        Set<String> read = PlanCompiler.conditionVars(expr);
        read.retainAll(bound);
        return read.isEmpty() || Scopes.assured(arg).containsAll(read);
    }

    private static boolean nested(ValueExpr expr) {
        return PlanCompiler.contains(expr, node -> node instanceof TupleExpr || node instanceof AggregateOperator);
    }

    /** Every variable named in {@code e}: in its patterns, its expressions and as a BIND target. */
    static Set<String> variables(TupleExpr e) {
        Set<String> out = new HashSet<>();
        e.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(Var v) {
                if (!v.isConstant()) {
                    out.add(v.getName());
                }
            }

            @Override
            public void meet(ExtensionElem elem) {
                out.add(elem.getName());
                super.meet(elem);
            }
        });
        return out;
    }

    /** The statement patterns in {@code e}: the index lookups one evaluation per row costs at least. */
    static int patterns(TupleExpr e) {
        int[] n = { 0 };
        e.visit(new AbstractQueryModelVisitor<RuntimeException>() {
            @Override
            public void meet(StatementPattern sp) {
                n[0]++;
            }
        });
        return n[0];
    }
}
