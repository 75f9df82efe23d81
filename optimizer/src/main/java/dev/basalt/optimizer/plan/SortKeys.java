package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.algebra.evaluation.util.ValueComparator;

import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.RowOrder;

/**
 * The row order of an ORDER BY, equal to RDF4J's {@code OrderComparator} with a default
 * {@code ValueComparator}: the keys in turn (DESC reverses one key), each compared on ids where
 * {@link IdOrder} decides and on materialized values with RDF4J's comparator otherwise; an
 * expression key is evaluated once per row by RDF4J (an error is unbound) and kept in an appended
 * column as an id only this sort reads ({@link ExecContext#comparableIdOf}: no dictionary lookup), a pure one
 * once per distinct tuple of its operand ids ({@link ComputedMemo}). Rows equal on all keys are then ordered as
 * RDF4J makes the order total: more
 * bound variables first, then by the sorted names of the bound variables, then by their values in
 * name order. As in RDF4J, a comparison that raises an error counts as equal.
 * Its fields are fixed at construction and each evaluation's values live in its context's scratch;
 * computed keys hold RDF4J's evaluation step of one evaluation (such a plan is not kept), which its
 * one thread calls.
 */
final class SortKeys implements RowOrder {
    /** One ORDER BY key: a variable slot (-1: never bound) or an expression computed into a column. */
    record Key(int slot, Function<BindingSet, Value> expr, String[] names, int[] slots, boolean ascending,
            String text, boolean pure) {
    }

    /** The owner of an evaluation's memos of the pure computed keys ({@link ComputedMemo}), one per key. */
    private final Object memoOwner = new Object();

    private final List<Key> keys;
    private final int computed;
    private final int[] tieSlots;
    private final ValueComparator comparator = new ValueComparator();
    /**
     * Values of the evaluation's ids, kept in its context: query-local ids are an evaluation's own, and a plan
     * kept for a query shape is run by many evaluations, also at once.
     */
    private ValueCache cache(ExecContext ctx) {
        return ctx.scratch(this, ValueCache::new);
    }

    /** @param tieSlots slots of the variables the sorted rows may bind, ordered by variable name */
    SortKeys(List<Key> keys, int[] tieSlots) {
        this.keys = List.copyOf(keys);
        this.computed = (int) keys.stream().filter(k -> k.expr() != null).count();
        this.tieSlots = tieSlots.clone();
    }

    @Override
    public List<long[]> prepare(List<long[]> batch, ExecContext ctx) {
        return prepare(batch, ctx, true);
    }

    @Override
    public List<long[]> prepareForFewComparisons(List<long[]> batch, ExecContext ctx) {
        return prepare(batch, ctx, false);
    }

    private List<long[]> prepare(List<long[]> batch, ExecContext ctx, boolean materialize) {
        List<long[]> out = batch;
        if (computed > 0 && !batch.isEmpty()) {
            out = new ArrayList<>(batch.size());
            for (long[] r : batch) {
                out.add(Arrays.copyOf(r, r.length + computed));
            }
            int column = 0;
            for (Key k : keys) {
                if (k.expr() == null) {
                    continue;
                }
                int index = out.get(0).length - computed + column;
                ComputedMemo memo = k.pure() ? memo(ctx, column, k) : null;
                List<long[]> todo = memo == null ? out : memo.unknown(out, index);
                cache(ctx).load(todo, k.slots(), ctx);
                for (long[] r : todo) {
                    Long known = memo == null ? null : memo.get(r);
                    if (known != null) {
                        r[index] = known;
                        continue;
                    }
                    Value v = k.expr().apply(cache(ctx).bindings(r, k.names(), k.slots(), ctx));
                    r[index] = ctx.comparableIdOf(v);
                    if (memo != null) {
                        memo.put(r, r[index]);
                    }
                }
                column++;
            }
        }
        int[] columns = new int[keys.size()];
        if (materialize && !out.isEmpty()) {
            int width = out.get(0).length;
            int column = 0;
            for (int i = 0; i < keys.size(); i++) {
                Key k = keys.get(i);
                columns[i] = k.expr() != null ? width - computed + column++ : k.slot();
            }
            cache(ctx).load(out, Arrays.stream(columns).filter(c -> c >= 0).toArray(), ctx);
        }
        return out;
    }

    private ComputedMemo memo(ExecContext ctx, int column, Key k) {
        ComputedMemo[] memos = ctx.scratch(memoOwner, () -> new ComputedMemo[computed]);
        if (memos[column] == null) {
            memos[column] = new ComputedMemo(k.slots());
        }
        return memos[column];
    }

    @Override
    public long[] strip(long[] prepared) {
        return computed == 0 ? prepared : Arrays.copyOf(prepared, prepared.length - computed);
    }

    @Override
    public int compare(long[] a, long[] b, ExecContext ctx) {
        try {
            int column = 0;
            for (Key k : keys) {
                int c;
                if (k.expr() != null) {
                    int index = a.length - computed + column++;
                    c = compareIds(a[index], b[index], ctx);
                } else if (k.slot() >= 0) {
                    c = compareIds(a[k.slot()], b[k.slot()], ctx);
                } else {
                    c = 0;
                }
                if (c != 0) {
                    return k.ascending() ? c : -c;
                }
            }
            return tieBreak(a, b, ctx);
        } catch (QueryEvaluationException | IllegalArgumentException e) {
            return 0;
        }
    }

    private int tieBreak(long[] a, long[] b, ExecContext ctx) {
        int sizeA = 0;
        int sizeB = 0;
        int firstDifference = -1;
        for (int s : tieSlots) {
            boolean boundA = a[s] != 0;
            boolean boundB = b[s] != 0;
            sizeA += boundA ? 1 : 0;
            sizeB += boundB ? 1 : 0;
            if (firstDifference < 0 && boundA != boundB) {
                firstDifference = s;
            }
        }
        if (sizeA != sizeB) {
            return sizeA < sizeB ? 1 : -1;
        }
        if (firstDifference >= 0) {
            // the row binding the first name (in name order) the other lacks has the smaller name list
            return a[firstDifference] != 0 ? -1 : 1;
        }
        for (int s : tieSlots) {
            int c = compareIds(a[s], b[s], ctx);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private int compareIds(long x, long y, ExecContext ctx) {
        int c = IdOrder.compare(x, y);
        return c != IdOrder.UNKNOWN ? c : comparator.compare(cache(ctx).value(x, ctx), cache(ctx).value(y, ctx));
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Key k : keys) {
            sb.append(sb.length() == 0 ? "" : ", ").append(k.ascending() ? k.text() : "DESC(" + k.text() + ")");
        }
        return sb.toString();
    }
}
