package dev.basalt.optimizer.plan;

import java.util.function.Function;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;

import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.store.lexicon.TermIds;

/**
 * The argument of an aggregate on one row: a variable's id (no value needed to count or to tell
 * values apart: ids are terms), a constant, or an expression RDF4J evaluates on the row's values
 * (an error is "no value", as in RDF4J's GroupIterator).
 * Immutable; its RDF4J expression holds the evaluation it was made for, so a plan with one is never
 * kept for a query shape, and one thread of that evaluation calls it.
 */
final class AggregateArg {
    private final int slot;
    private final Value constant;
    private final Function<BindingSet, Value> expr;
    private final String[] names;
    private final int[] slots;

    private AggregateArg(int slot, Value constant, Function<BindingSet, Value> expr, String[] names, int[] slots) {
        this.slot = slot;
        this.constant = constant;
        this.expr = expr;
        this.names = names;
        this.slots = slots;
    }

    static AggregateArg variable(int slot) {
        return new AggregateArg(slot, null, null, new String[0], new int[] { slot });
    }

    static AggregateArg constant(Value value) {
        return new AggregateArg(-1, value, null, new String[0], new int[0]);
    }

    static AggregateArg expression(Function<BindingSet, Value> expr, String[] names, int[] slots) {
        return new AggregateArg(-1, null, expr, names, slots);
    }

    /** A plain variable: counting it needs no values. */
    boolean isVariable() {
        return slot >= 0;
    }

    /** The variable's slot, or -1 for a constant or an expression. */
    int slot() {
        return slot;
    }

    /** Slots whose values {@link #value} reads (to be loaded into the cache per batch). */
    int[] slots() {
        return slots;
    }

    /**
     * A key telling two arguments apart: the id for a variable, else the value; null for none (also
     * for a variable a BIND left unbound by an error, {@link ExecContext#UNBOUND_BY_ERROR}).
     */
    Object key(long[] row, ValueCache cache, ExecContext ctx) {
        if (slot >= 0) {
            long id = row[slot];
            return id == TermIds.NULL || id == ExecContext.UNBOUND_BY_ERROR ? null : id;
        }
        return value(row, cache, ctx);
    }

    Value value(long[] row, ValueCache cache, ExecContext ctx) {
        if (slot >= 0) {
            return cache.value(row[slot], ctx);
        }
        if (constant != null) {
            return constant;
        }
        return expr.apply(cache.bindings(row, names, slots, ctx));
    }
}
