package dev.basalt.optimizer.plan;

import java.math.BigDecimal;
import java.util.List;
import java.util.function.Function;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.base.CoreDatatype;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryBindingSet;

import dev.basalt.optimizer.access.DerivedValues;
import dev.basalt.optimizer.exec.Batch;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.store.lexicon.DerivedNumbers;
import dev.basalt.store.lexicon.TermIds;

/**
 * The argument of an aggregate on one row: a variable's id (no value needed to count or to tell
 * values apart: ids are terms), a constant, or an expression RDF4J evaluates on the row's values
 * (an error is "no value", as in RDF4J's GroupIterator).
 *
 * <p>A <em>derived</em> argument is an expression of one variable that depends on that variable's
 * term alone ({@link DerivedExpressions}, such as {@code xsd:decimal(str(?price))}): its value per
 * term id is kept in the store's shared cache for that expression ({@code QuadSource#derivedValues}),
 * so each stored term is read from the dictionary and computed once across queries, not once per
 * row; a value that {@link #pack}s into a number is kept only as that number, in the store's
 * table of numbers ({@link DerivedNumbers}), and rebuilt from it when a value is asked for. Query-local
 * ids, and sources without such a cache, take the ordinary path.
 *
 * <p>Immutable; its RDF4J expression holds the evaluation it was made for, so a plan with one is never
 * kept for a query shape, and one thread of that evaluation calls it.
 */
final class AggregateArg {
    private final int slot;
    private final Value constant;
    private final Function<BindingSet, Value> expr;
    private final String[] names;
    private final int[] slots;
    /** The shared cache's key for a derived argument, else null. */
    private final Object derivedKey;
    /** Marks an id whose derived value is an error, in the shared cache (which holds no nulls). */
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final Value ERROR = VF.createBNode("basalt-derived-error");

    private AggregateArg(int slot, Value constant, Function<BindingSet, Value> expr, String[] names, int[] slots,
            Object derivedKey) {
        this.slot = slot;
        this.constant = constant;
        this.expr = expr;
        this.names = names;
        this.slots = slots;
        this.derivedKey = derivedKey;
    }

    private AggregateArg(int slot, Value constant, Function<BindingSet, Value> expr, String[] names, int[] slots) {
        this(slot, constant, expr, names, slots, null);
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

    /**
     * An expression of the one variable {@code name} (at {@code slot}) whose value depends on that
     * variable's term only; {@code key} names the expression for the store's shared cache.
     */
    static AggregateArg derived(Function<BindingSet, Value> expr, String name, int slot, Object key) {
        return new AggregateArg(-1, null, expr, new String[] { name }, new int[] { slot }, key);
    }

    /** Whether its values come from the store's shared cache per id (see {@link #prepare}). */
    boolean isDerived() {
        return derivedKey != null && slots[0] >= 0;
    }

    /**
     * For a derived argument: reads, in one call, the terms of the batch's ids whose derived value is
     * not cached yet (the others need no term).
     */
    void prepare(Batch batch, ValueCache cache, ExecContext ctx) {
        DerivedValues memo = memo(ctx);
        DerivedNumbers numbers = numbers(ctx);
        long[] missing = new long[batch.size()];
        int n = 0;
        for (int i = 0; i < batch.size(); i++) {
            long id = batch.id(i, slots[0]);
            if (memo == null || !cachable(id)
                    || (numbers == null || numbers.get(id) == DerivedNumbers.MISSING) && memo.get(id) == null) {
                missing[n++] = id;
            }
        }
        cache.loadIds(missing, n, ctx);
    }

    /** Like {@link #prepare(Batch, ValueCache, ExecContext)} for rows. */
    void prepare(List<long[]> rows, ValueCache cache, ExecContext ctx) {
        DerivedValues memo = memo(ctx);
        DerivedNumbers numbers = numbers(ctx);
        long[] missing = new long[rows.size()];
        int n = 0;
        for (long[] row : rows) {
            long id = row[slots[0]];
            if (memo == null || !cachable(id)
                    || (numbers == null || numbers.get(id) == DerivedNumbers.MISSING) && memo.get(id) == null) {
                missing[n++] = id;
            }
        }
        cache.loadIds(missing, n, ctx);
    }

    /** Whether {@code id} may be looked up in the store's shared tables (a stored term's id). */
    static boolean cachable(long id) {
        return ExecContext.isBound(id) && !TermIds.isLocal(id);
    }

    /** The evaluation's handle on the shared cache of this expression (null: none). */
    private Memo memo(ExecContext ctx) {
        return held(ctx).memo();
    }

    private Held held(ExecContext ctx) {
        return ctx.scratch(this, () -> {
            DerivedValues shared = ctx.source().derivedValues(derivedKey);
            return new Held(Memo.over(shared), shared == null ? null : shared.numbers());
        });
    }

    /** The evaluation's memo, or null where the source has no shared cache (held so that null is kept too). */
    private record Held(Memo memo, DerivedNumbers numbers) {
    }

    /**
     * The store's table of this derived argument's exact numbers ({@link #pack}), or null (not
     * derived, or the source keeps none). An accumulator may keep it for its evaluation.
     */
    DerivedNumbers numbers(ExecContext ctx) {
        return isDerived() ? held(ctx).numbers() : null;
    }

    /** {@code number}'s unscaled digits (see {@link #pack}). */
    static long unscaled(long number) {
        return number >> 6;
    }

    /** {@code number}'s scale, 0 to 31 (see {@link #pack}). */
    static int scale(long number) {
        return (int) number & 31;
    }

    /** Whether {@code number} is an xsd:decimal (else an xsd:integer, see {@link #pack}). */
    static boolean isDecimal(long number) {
        return (number & 32) != 0;
    }

    /**
     * A derived xsd:integer or xsd:decimal value as one {@code long}: its unscaled digits shifted left
     * by 6, bit 5 set for xsd:decimal, the scale in bits 0-4; {@link DerivedNumbers#MISSING} for any
     * other value or one whose digits or scale do not fit (|unscaled| >= 2^57, scale > 31).
     */
    static long pack(Value v) {
        if (!(v instanceof ParsedDecimalLiteral p) || !p.compact() || p.scale() > 31) {
            return DerivedNumbers.MISSING;
        }
        long u = p.unscaled();
        if (u <= -(1L << 57) || u >= 1L << 57) {
            return DerivedNumbers.MISSING;
        }
        boolean decimal = p.getCoreDatatype() == CoreDatatype.XSD.DECIMAL;
        return u << 6 | (decimal ? 32 : 0) | p.scale();
    }

    /**
     * Keeps {@code v}'s packed number for {@code id} in the store's table if it has one; whether the
     * table now holds a number that {@link #unpack}s to a literal equal to {@code v} (then {@code v}
     * itself need not be kept as a value).
     */
    private boolean keepNumber(long id, Value v, ExecContext ctx) {
        DerivedNumbers numbers = held(ctx).numbers();
        long packed = numbers == null ? DerivedNumbers.MISSING : pack(v);
        if (packed == DerivedNumbers.MISSING) {
            return false;
        }
        numbers.put(id, packed);
        return numbers.get(id) == packed && v.equals(unpack(packed));
    }

    /** The literal a packed number stands for ({@link #pack}): an xsd:decimal or xsd:integer. */
    static Value unpack(long number) {
        String label = BigDecimal.valueOf(unscaled(number), scale(number)).toPlainString();
        return ParsedDecimalLiteral.of(VF.createLiteral(label, isDecimal(number) ? XSD.DECIMAL : XSD.INTEGER));
    }

    /**
     * The evaluation's view of the shared cache: a small direct-mapped table of its own in front of
     * it, which {@link #prepare} fills with the ids of the batch it reads, so that the rows of that
     * batch then find their values in it instead of probing the shared concurrent cache a second
     * time. An id's entry may be overwritten by another id's at any time; a hit is always the value
     * held for that id. Belongs to one evaluation thread, like the {@link ExecContext#scratch} that
     * holds it.
     */
    private static final class Memo implements DerivedValues {
        /** Entries of the local table: a batch's ids, with room so that few of them share one. */
        private static final int LOCAL_ENTRIES = 4 * Batch.CAPACITY;
        private final DerivedValues shared;
        private final long[] ids = new long[LOCAL_ENTRIES];
        private final Value[] values = new Value[LOCAL_ENTRIES];

        private Memo(DerivedValues shared) {
            this.shared = shared;
        }

        static Memo over(DerivedValues shared) {
            return shared == null ? null : new Memo(shared);
        }

        private static int at(long id) {
            long h = id * 0x9E3779B97F4A7C15L;
            return (int) (h >>> 52) & (LOCAL_ENTRIES - 1);
        }

        @Override
        public Value get(long id) {
            int at = at(id);
            if (ids[at] == id && values[at] != null) {
                return values[at];
            }
            Value v = shared.get(id);
            if (v != null) {
                ids[at] = id;
                values[at] = v;
            }
            return v;
        }

        @Override
        public void put(long id, Value value) {
            shared.put(id, value);
            keepLocal(id, value);
        }

        /** Holds {@code value} for {@code id} in the local table only. */
        void keepLocal(long id, Value value) {
            int at = at(id);
            ids[at] = id;
            values[at] = value;
        }
    }

    /**
     * The derived value of {@code id}: from the shared value cache, else from the store's table of
     * numbers, else computed from its term and kept (a number in the table only, when it unpacks to
     * the same literal; any other value, or an error, in the value cache).
     */
    private Value derivedValue(long id, ValueCache cache, ExecContext ctx) {
        Memo memo = cachable(id) ? memo(ctx) : null;
        Value v = memo == null ? null : memo.get(id);
        if (v != null) {
            return v == ERROR ? null : v;
        }
        DerivedNumbers numbers = memo == null ? null : held(ctx).numbers();
        long n = numbers == null ? DerivedNumbers.MISSING : numbers.get(id);
        if (n != DerivedNumbers.MISSING) {
            v = unpack(n);
            memo.keepLocal(id, v);
            return v;
        }
        QueryBindingSet bs = new QueryBindingSet(1);
        Value term = cache.value(id, ctx);
        if (term != null) {
            bs.addBinding(names[0], term);
        }
        // a number is kept with its exact value, so that SUM and AVG do not parse its label per row
        v = ParsedDecimalLiteral.of(expr.apply(bs));
        if (memo != null) {
            if (v != null && keepNumber(id, v, ctx)) {
                memo.keepLocal(id, v);
            } else {
                memo.put(id, v == null ? ERROR : v);
            }
        }
        return v;
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
        if (isDerived()) {
            return derivedValue(row[slots[0]], cache, ctx);
        }
        return expr.apply(cache.bindings(row, names, slots, ctx));
    }
}
