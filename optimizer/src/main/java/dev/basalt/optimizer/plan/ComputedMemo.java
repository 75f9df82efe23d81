package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;

/**
 * The results of one pure expression ({@link PureExpressions}) in one evaluation, per tuple of the ids its
 * variables hold in a row: an id names one term, so rows with the same operand ids have the same result, and
 * the expression is evaluated (its operands materialized, RDF4J's step called, its result given an id) once per
 * distinct tuple. A BSBM BI3 row's ratio {@code xsd:float(?monthCount) / ?monthBeforeCount} takes a few hundred
 * distinct pairs of counts over 136,626 rows at 100M. Bounded: past {@value #MAX_ENTRIES} tuples no more are
 * added and further tuples are evaluated every time. The results are ids of the evaluation (query-local ids
 * included), so a memo lives in the evaluation's context ({@code ExecContext.scratch}).
 *
 * <p>Not thread-safe: one per evaluation and thread.
 */
final class ComputedMemo {
    static final int MAX_ENTRIES = 1 << 16;
    private final int[] slots;
    private final HashMap<Tuple, Long> results = new HashMap<>();
    private final Tuple probe;

    /** @param slots the row slots of the expression's variables (-1: never bound) */
    ComputedMemo(int[] slots) {
        this.slots = slots.clone();
        this.probe = new Tuple(new long[slots.length]);
    }

    /** The result kept for the row's operand ids, or null if there is none. */
    Long get(long[] row) {
        probe.set(row, slots);
        return results.get(probe);
    }

    /** Keeps {@code result} for the row's operand ids, unless the memo is full. */
    void put(long[] row, long result) {
        if (results.size() < MAX_ENTRIES) {
            Tuple key = new Tuple(new long[slots.length]);
            key.set(row, slots);
            results.put(key, result);
        }
    }

    /** Sets column {@code column} of the rows whose operand ids the memo knows; the other rows are returned. */
    List<long[]> unknown(List<long[]> rows, int column) {
        List<long[]> todo = new ArrayList<>();
        for (long[] r : rows) {
            Long known = get(r);
            if (known != null) {
                r[column] = known;
            } else {
                todo.add(r);
            }
        }
        return todo;
    }

    int size() {
        return results.size();
    }

    /** Operand ids; {@link #probe} is refilled per lookup, the kept keys never change. */
    private static final class Tuple {
        private final long[] ids;
        private int hash;

        Tuple(long[] ids) {
            this.ids = ids;
        }

        void set(long[] row, int[] slots) {
            for (int i = 0; i < slots.length; i++) {
                ids[i] = slots[i] < 0 ? 0 : row[slots[i]];
            }
            hash = Arrays.hashCode(ids);
        }

        @Override
        public int hashCode() {
            return hash;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Tuple t && Arrays.equals(ids, t.ids);
        }
    }
}
