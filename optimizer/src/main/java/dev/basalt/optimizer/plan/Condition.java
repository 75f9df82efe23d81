package dev.basalt.optimizer.plan;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryBindingSet;
import org.eclipse.rdf4j.query.algebra.helpers.AbstractSimpleQueryModelVisitor;

import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.RowFilter;
import dev.basalt.store.lexicon.TermIds;

/**
 * A FILTER or OPTIONAL condition of a plan. Decided on ids where {@link IdCondition} can; else
 * the row's values of the condition's variables are materialized (a batch at a time, see
 * {@link #prefetch}) and RDF4J evaluates the expression, with its semantics and mode.
 *
 * <p>In a plan kept for a query shape, a constant of the condition may be a sentinel standing for each
 * evaluation's own constant ({@link ExecContext#parameterValues}): the evaluation then decides on ids with
 * the constants' ids of its own ({@link IdCondition#bind}) and on values with an expression holding its own
 * constants, both made once per evaluation and thread (in the context's scratch).
 *
 * <p>Thread-safe for the threads of one evaluation: the batch of values is each thread's own (in
 * its context's scratch), and RDF4J's compiled expression, whose thread-safety RDF4J does not
 * promise, is compiled and run under this condition's lock. Rows the ids decide take no lock.
 */
final class Condition implements RowFilter {
    private final IdCondition ids;
    private final ValueExpr expr;
    private final ValueConditions values;
    private final int[] slots;
    private final String[] names;
    /** The constants of the expression, which an evaluation of a kept plan may give values of its own. */
    private final Set<Value> constants;
    /** Scratch keys of an evaluation's own id condition and value test. */
    private final Object boundIds = new Object();
    private final Object boundValues = new Object();
    // guarded by this
    private Predicate<BindingSet> valueTest;

    Condition(IdCondition ids, ValueExpr expr, ValueConditions values, int[] slots, String[] names) {
        this.ids = ids;
        this.expr = expr;
        this.values = values;
        this.slots = slots;
        this.names = names;
        this.constants = constants(expr);
    }

    private static Set<Value> constants(ValueExpr expr) {
        Set<Value> found = new LinkedHashSet<>();
        expr.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(false) {
            @Override
            public void meet(ValueConstant node) {
                found.add(node.getValue());
            }

            @Override
            public void meet(Var node) {
                if (node.hasValue()) {
                    found.add(node.getValue());
                }
            }
        });
        return found;
    }

    /** The evaluation's own constant per sentinel if this condition holds one, else null. */
    private Map<Value, Value> parameters(ExecContext ctx) {
        Map<Value, Value> parameters = constants.isEmpty() ? null : ctx.parameterValues();
        if (parameters == null) {
            return null;
        }
        for (Value c : constants) {
            if (parameters.containsKey(c)) {
                return parameters;
            }
        }
        return null;
    }

    boolean onIds() {
        return ids != null;
    }

    @Override
    public boolean test(long[] row, ExecContext ctx) {
        Map<Value, Value> parameters = parameters(ctx);
        IdCondition own = idCondition(parameters, ctx);
        if (own != null && !hasErrorValue(row)) {
            int t = own.eval(row);
            if (t != IdCondition.UNKNOWN) {
                return t == IdCondition.TRUE;
            }
        }
        return testValues(row, parameters, ctx);
    }

    /** Like {@link #test} of each row, with the evaluation's constants and id condition looked up once. */
    @Override
    public void testAll(List<long[]> rows, boolean[] keep, ExecContext ctx) {
        Map<Value, Value> parameters = parameters(ctx);
        IdCondition own = idCondition(parameters, ctx);
        for (int i = 0; i < rows.size(); i++) {
            long[] row = rows.get(i);
            int t = own == null || hasErrorValue(row) ? IdCondition.UNKNOWN : own.eval(row);
            keep[i] = t == IdCondition.UNKNOWN ? testValues(row, parameters, ctx) : t == IdCondition.TRUE;
        }
    }

    /** The id condition of this evaluation (its own constants' ids where {@code parameters} maps them), or null. */
    private IdCondition idCondition(Map<Value, Value> parameters, ExecContext ctx) {
        return ids == null || parameters == null ? ids : ctx.scratch(boundIds, () -> ids.bind(parameters, ctx.source()));
    }

    /** The condition evaluated by RDF4J on the row's values. */
    private boolean testValues(long[] row, Map<Value, Value> parameters, ExecContext ctx) {
        Map<Long, Value> batchValues = batchValues(ctx);
        QueryBindingSet bs = new QueryBindingSet(slots.length);
        for (int i = 0; i < slots.length; i++) {
            long id = row[slots[i]];
            if (id != TermIds.NULL) {
                Value v = batchValues.get(id);
                if (v == null) {
                    v = ctx.resolve(id);
                }
                if (v != null) {
                    bs.addBinding(names[i], v);
                }
            }
        }
        synchronized (this) {
            if (parameters != null) {
                return ctx.scratch(boundValues, () -> values.compile(substituted(expr, parameters))).test(bs);
            }
            if (valueTest == null) {
                valueTest = values.compile(expr);
            }
            return valueTest.test(bs);
        }
    }

    /** A copy of {@code expr} with each constant that {@code parameters} maps replaced by its value. */
    private static ValueExpr substituted(ValueExpr expr, Map<Value, Value> parameters) {
        ValueExpr copy = expr.clone();
        if (copy instanceof ValueConstant c && parameters.containsKey(c.getValue())) {
            return new ValueConstant(parameters.get(c.getValue()));
        }
        if (copy instanceof Var v && v.hasValue() && parameters.containsKey(v.getValue())) {
            return new ValueConstant(parameters.get(v.getValue()));
        }
        copy.visit(new AbstractSimpleQueryModelVisitor<RuntimeException>(false) {
            @Override
            public void meet(ValueConstant node) {
                Value v = parameters.get(node.getValue());
                if (v != null) {
                    node.replaceWith(new ValueConstant(v));
                }
            }

            @Override
            public void meet(Var node) {
                Value v = node.hasValue() ? parameters.get(node.getValue()) : null;
                if (v != null) {
                    node.replaceWith(new ValueConstant(v));
                }
            }
        });
        return copy;
    }

    private Map<Long, Value> batchValues(ExecContext ctx) {
        return ctx.scratch(this, HashMap::new);
    }

    @Override
    public boolean threadSafe() {
        return true;
    }

    /** A variable left by a BIND error is unbound for conditions: RDF4J's value evaluation decides. */
    private boolean hasErrorValue(long[] row) {
        for (int s : slots) {
            if (row[s] == ExecContext.UNBOUND_BY_ERROR) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void prefetch(List<long[]> rows, ExecContext ctx) {
        if (ids != null) {
            return;
        }
        Map<Long, Value> batchValues = batchValues(ctx);
        batchValues.clear();
        long[] wanted = new long[rows.size() * slots.length];
        int n = 0;
        for (long[] r : rows) {
            for (int s : slots) {
                if (r[s] != TermIds.NULL) {
                    wanted[n++] = r[s];
                }
            }
        }
        long[] distinct = java.util.Arrays.stream(wanted, 0, n).distinct().toArray();
        Value[] vs = ctx.resolve(distinct);
        for (int i = 0; i < distinct.length; i++) {
            if (vs[i] != null) {
                batchValues.put(distinct[i], vs[i]);
            }
        }
    }

    @Override
    public String describe() {
        return ids != null ? ids.describe() + " [ids]" : "[values] " + ExprText.of(expr);
    }
}
