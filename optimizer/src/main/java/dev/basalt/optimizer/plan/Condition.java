package dev.basalt.optimizer.plan;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryBindingSet;

import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.RowFilter;
import dev.basalt.store.lexicon.TermIds;

/**
 * A FILTER or OPTIONAL condition of a plan. Decided on ids where {@link IdCondition} can; else
 * the row's values of the condition's variables are materialized (a batch at a time, see
 * {@link #prefetch}) and RDF4J evaluates the expression, with its semantics and mode.
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
    // guarded by this
    private Predicate<BindingSet> valueTest;

    Condition(IdCondition ids, ValueExpr expr, ValueConditions values, int[] slots, String[] names) {
        this.ids = ids;
        this.expr = expr;
        this.values = values;
        this.slots = slots;
        this.names = names;
    }

    boolean onIds() {
        return ids != null;
    }

    @Override
    public boolean test(long[] row, ExecContext ctx) {
        if (ids != null && !hasErrorValue(row)) {
            int t = ids.eval(row);
            if (t != IdCondition.UNKNOWN) {
                return t == IdCondition.TRUE;
            }
        }
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
            if (valueTest == null) {
                valueTest = values.compile(expr);
            }
            return valueTest.test(bs);
        }
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
