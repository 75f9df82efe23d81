package dev.basalt.optimizer.plan;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryBindingSet;

import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.RowBinding;
import dev.basalt.store.lexicon.TermIds;

/**
 * One ExtensionElem as a {@link RowBinding}, in one of three forms. A copy of another variable
 * and a constant work on ids alone (the constant's id is looked up once per evaluation through
 * {@link ExecContext#idOf}). Any other expression is evaluated by RDF4J ({@link ValueFunctions}) on
 * the materialized values of its variables, a batch of rows at a time; its result becomes an id
 * through {@link ExecContext#idOf} (query-local when the store does not hold it); a pure expression
 * ({@link PureExpressions}) is evaluated once per distinct tuple of operand ids of an evaluation
 * ({@link ComputedMemo}). An error (also a
 * copy of an unbound variable) sets the target to {@link ExecContext#UNBOUND_BY_ERROR}, as RDF4J's
 * Extension keeps the name with no value.
 * The id and copy forms are thread-safe (a constant's id is cached per evaluation in a volatile
 * holder). The expression form holds RDF4J's evaluation step, made on first use under its lock; a plan kept
 * for a query shape holds one only for an expression whose value depends on its operands alone
 * (the RDF4J glue's {@code PureExpressions}), and concurrent evaluations of that plan share it.
 */
abstract class ExtensionBinding implements RowBinding {
    final int target;
    final String targetName;

    private ExtensionBinding(int target, String targetName) {
        this.target = target;
        this.targetName = targetName;
    }

    static ExtensionBinding copy(int target, String targetName, int source, String sourceName) {
        return new ExtensionBinding(target, targetName) {
            @Override
            public void apply(List<long[]> rows, ExecContext ctx) {
                for (long[] r : rows) {
                    r[target] = r[source] != TermIds.NULL ? r[source] : ExecContext.UNBOUND_BY_ERROR;
                }
            }

            @Override
            public String describe() {
                return "?" + sourceName + " AS ?" + targetName + " [ids]";
            }
        };
    }

    static ExtensionBinding constant(int target, String targetName, Value value) {
        return new ExtensionBinding(target, targetName) {
            /** The id for the latest evaluation: one reference, so concurrent evaluations of a kept plan never mix ids. */
            private volatile IdFor cached;

            record IdFor(ExecContext ctx, long id) {
            }

            @Override
            public void apply(List<long[]> rows, ExecContext ctx) {
                IdFor held = cached;
                if (held == null || held.ctx != ctx) {
                    held = new IdFor(ctx, ctx.idOf(value));
                    cached = held;
                }
                long id = held.id;
                for (long[] r : rows) {
                    r[target] = id;
                }
            }

            @Override
            public String describe() {
                return value + " AS ?" + targetName + " [ids]";
            }
        };
    }

    static ExtensionBinding expression(int target, String targetName, ValueExpr expr, ValueFunctions functions,
            int[] slots, String[] names) {
        return new Computed(target, targetName, expr, functions, slots, names);
    }

    private static final class Computed extends ExtensionBinding {
        private final ValueExpr expr;
        private final ValueFunctions functions;
        private final int[] slots;
        private final String[] names;
        private final boolean pure;
        private volatile Function<BindingSet, Value> function;

        Computed(int target, String targetName, ValueExpr expr, ValueFunctions functions, int[] slots,
                String[] names) {
            super(target, targetName);
            this.expr = expr;
            this.pure = PureExpressions.test(expr);
            this.functions = functions;
            this.slots = slots;
            this.names = names;
        }

        @Override
        public void apply(List<long[]> rows, ExecContext ctx) {
            Function<BindingSet, Value> function = function();
            ComputedMemo memo = pure ? ctx.scratch(this, () -> new ComputedMemo(slots)) : null;
            List<long[]> todo = memo == null ? rows : memo.unknown(rows, target);
            if (todo.isEmpty()) {
                return;
            }
            Map<Long, Value> values = materialize(todo, ctx);
            for (long[] r : todo) {
                Long known = memo == null ? null : memo.get(r);
                if (known != null) {
                    r[target] = known;
                    continue;
                }
                QueryBindingSet bs = new QueryBindingSet(slots.length);
                for (int i = 0; i < slots.length; i++) {
                    Value v = values.get(r[slots[i]]);
                    if (v != null) {
                        bs.addBinding(names[i], v);
                    }
                }
                Value result = function.apply(bs);
                r[target] = result != null ? ctx.idOf(result) : ExecContext.UNBOUND_BY_ERROR;
                if (memo != null) {
                    memo.put(r, r[target]);
                }
            }
        }

        private Function<BindingSet, Value> function() {
            Function<BindingSet, Value> f = function;
            if (f == null) {
                synchronized (this) {
                    f = function;
                    if (f == null) {
                        f = functions.evaluator(expr);
                        function = f;
                    }
                }
            }
            return f;
        }

        private Map<Long, Value> materialize(List<long[]> rows, ExecContext ctx) {
            long[] wanted = new long[rows.size() * slots.length];
            int n = 0;
            for (long[] r : rows) {
                for (int s : slots) {
                    if (r[s] != TermIds.NULL) {
                        wanted[n++] = r[s];
                    }
                }
            }
            long[] distinct = Arrays.stream(wanted, 0, n).distinct().toArray();
            Value[] vs = ctx.resolve(distinct);
            Map<Long, Value> out = new HashMap<>(distinct.length * 2);
            for (int i = 0; i < distinct.length; i++) {
                if (vs[i] != null) {
                    out.put(distinct[i], vs[i]);
                }
            }
            return out;
        }

        @Override
        public String describe() {
            return "[values] " + ExprText.of(expr) + " AS ?" + targetName;
        }
    }
}
