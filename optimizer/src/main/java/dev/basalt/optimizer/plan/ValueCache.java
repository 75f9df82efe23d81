package dev.basalt.optimizer.plan;

import java.util.Arrays;
import java.util.List;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryBindingSet;

import dev.basalt.optimizer.exec.Batch;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.store.lexicon.TermIds;

/**
 * Materialized values of ids for operators that compare or compute on values: {@link #load}
 * resolves the ids of a batch of rows in one call; {@link #value} falls back to resolving one id.
 * Bounded: at most about {@value #MAX_ENTRIES} values, the least recently used of an id's set
 * making room for a new one ({@link IdValueLru}); a value evicted is read again when needed.
 * Not thread-safe: each evaluation (and each thread of it) has its own, in its context's scratch.
 */
final class ValueCache {
    private static final int MAX_ENTRIES = 200_000;
    private final IdValueLru values = new IdValueLru(MAX_ENTRIES);

    /** Resolves, in one call, the ids in the given slots of the rows that are not cached yet. */
    void load(List<long[]> rows, int[] slots, ExecContext ctx) {
        load(rows, slots, ctx, false);
    }

    /**
     * Like {@link #load(List, int[], ExecContext)}; with {@code skipInline}, inline literals are left
     * out (they decode without the dictionary, when and if their value is asked for: a SUM of inline
     * integers reads none).
     */
    void load(List<long[]> rows, int[] slots, ExecContext ctx, boolean skipInline) {
        if (slots.length == 0 || rows.isEmpty()) {
            return;
        }
        long[] wanted = new long[rows.size() * slots.length];
        int n = 0;
        for (long[] r : rows) {
            for (int s : slots) {
                long id = s < 0 ? TermIds.NULL : r[s];
                if (ExecContext.isBound(id) && !(skipInline && TermIds.isInline(id)) && !values.contains(id)) {
                    wanted[n++] = id;
                }
            }
        }
        resolve(wanted, n, ctx);
    }

    /** Like {@link #load(List, int[], ExecContext, boolean)}, for the rows of a batch. */
    void load(Batch batch, int[] slots, ExecContext ctx, boolean skipInline) {
        if (slots.length == 0 || batch.size() == 0) {
            return;
        }
        long[] wanted = new long[batch.size() * slots.length];
        int n = 0;
        for (int s : slots) {
            if (s < 0) {
                continue;
            }
            for (int i = 0; i < batch.size(); i++) {
                long id = batch.id(i, s);
                if (ExecContext.isBound(id) && !(skipInline && TermIds.isInline(id)) && !values.contains(id)) {
                    wanted[n++] = id;
                }
            }
        }
        resolve(wanted, n, ctx);
    }

    /** Resolves, in one call, those of the first {@code n} ids that are bound and not cached yet. */
    void loadIds(long[] ids, int n, ExecContext ctx) {
        int m = 0;
        long[] wanted = new long[n];
        for (int i = 0; i < n; i++) {
            if (ExecContext.isBound(ids[i]) && !values.contains(ids[i])) {
                wanted[m++] = ids[i];
            }
        }
        resolve(wanted, m, ctx);
    }

    private void resolve(long[] wanted, int n, ExecContext ctx) {
        if (n == 0) {
            return;
        }
        long[] distinct = Arrays.stream(wanted, 0, n).distinct().toArray();
        Value[] vs = ctx.resolve(distinct);
        for (int i = 0; i < distinct.length; i++) {
            if (vs[i] != null) {
                values.put(distinct[i], vs[i]);
            }
        }
    }

    /** The value of an id, null for unbound. */
    Value value(long id, ExecContext ctx) {
        if (id == TermIds.NULL) {
            return null;
        }
        Value v = values.get(id);
        if (v == null) {
            v = ctx.resolve(id);
            if (v != null) {
                values.put(id, v);
            }
        }
        return v;
    }

    /** A binding set of the row's values for the given names and slots (unbound slots left out). */
    QueryBindingSet bindings(long[] row, String[] names, int[] slots, ExecContext ctx) {
        QueryBindingSet bs = new QueryBindingSet(slots.length);
        for (int i = 0; i < slots.length; i++) {
            Value v = slots[i] < 0 ? null : value(row[slots[i]], ctx);
            if (v != null) {
                bs.addBinding(names[i], v);
            }
        }
        return bs;
    }
}
