package dev.basalt.optimizer.plan;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.base.CoreDatatype;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.MathExpr.MathOp;
import org.eclipse.rdf4j.query.algebra.evaluation.ValueExprEvaluationException;
import org.eclipse.rdf4j.query.algebra.evaluation.util.MathUtil;
import org.eclipse.rdf4j.query.algebra.evaluation.util.ValueComparator;

import dev.basalt.optimizer.exec.Aggregation;
import dev.basalt.optimizer.exec.Batch;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.store.lexicon.DerivedNumbers;
import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.lexicon.TermKind;

/**
 * The aggregates of a GROUP BY with RDF4J 5's semantics (its GroupIterator): COUNT counts rows
 * whose argument has a value (COUNT(*): rows binding anything); SUM and AVG add with RDF4J's
 * numeric type promotion ({@code MathUtil}), start from {@code 0} (xsd:integer), and are in error
 * (unbound) once a non-numeric value is seen; AVG of nothing is {@code 0}; MIN and MAX use RDF4J's
 * value comparator (strict in STRICT mode) and are unbound for no values; SAMPLE is a value of the
 * group (the first); GROUP_CONCAT joins string values with the separator (a space by default) into
 * a simple literal. DISTINCT variants see each distinct argument once (COUNT(DISTINCT *): distinct
 * rows). An argument in error counts as no value. Results become ids with {@link ExecContext#idOf}.
 * Immutable; per-evaluation values live in the context's scratch. Its RDF4J expressions, if any,
 * belong to one evaluation (such a plan is not kept) and are called by its one thread.
 */
final class Aggregates implements Aggregation {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final Literal ZERO = VF.createLiteral("0", CoreDatatype.XSD.INTEGER);

    enum Kind {
        COUNT, COUNT_ALL, SUM, AVG, MIN, MAX, SAMPLE, GROUP_CONCAT
    }

    /** One aggregate: its kind, argument (null for COUNT(*)), DISTINCT, separator, target slot. */
    record Spec(Kind kind, AggregateArg arg, boolean distinct, String separator, int target, String text) {
    }

    private final List<Spec> specs;
    private final boolean strict;
    private final int[] valueSlots;
    /** Arguments whose values come per id from the store's shared cache ({@link AggregateArg#isDerived}). */
    private final List<AggregateArg> derived;
    /**
     * Values of the evaluation's ids, kept in its context: query-local ids are an evaluation's own, and a plan
     * kept for a query shape is run by many evaluations, also at once.
     */
    private ValueCache cache(ExecContext ctx) {
        return ctx.scratch(this, ValueCache::new);
    }

    Aggregates(List<Spec> specs, boolean strict) {
        this.specs = List.copyOf(specs);
        this.strict = strict;
        Set<Integer> slots = new HashSet<>();
        List<AggregateArg> derivedArgs = new ArrayList<>();
        for (Spec s : specs) {
            boolean counts = s.kind() == Kind.COUNT || s.kind() == Kind.COUNT_ALL;
            if (s.arg() != null && s.arg().isDerived()) {
                derivedArgs.add(s.arg());
            } else if (s.arg() != null && (!counts || !s.arg().isVariable())) {
                for (int slot : s.arg().slots()) {
                    slots.add(slot);
                }
            }
        }
        this.valueSlots = slots.stream().mapToInt(Integer::intValue).filter(i -> i >= 0).toArray();
        this.derived = List.copyOf(derivedArgs);
    }

    @Override
    public Accumulator[] start() {
        Accumulator[] out = new Accumulator[specs.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = accumulator(specs.get(i));
        }
        return out;
    }

    @Override
    public int[] targetSlots() {
        return specs.stream().mapToInt(Spec::target).toArray();
    }

    @Override
    public void prepare(List<long[]> batch, ExecContext ctx) {
        cache(ctx).load(batch, valueSlots, ctx, true);
        for (AggregateArg a : derived) {
            a.prepare(batch, cache(ctx), ctx);
        }
    }

    /** Every aggregate but COUNT(DISTINCT *), which keeps its rows' arrays as keys. */
    @Override
    public boolean batchable() {
        return specs.stream().noneMatch(s -> s.kind() == Kind.COUNT_ALL && s.distinct());
    }

    @Override
    public void prepare(Batch batch, ExecContext ctx) {
        cache(ctx).load(batch, valueSlots, ctx, true);
        for (AggregateArg a : derived) {
            a.prepare(batch, cache(ctx), ctx);
        }
    }

    @Override
    public String describe() {
        StringBuilder sb = new StringBuilder();
        for (Spec s : specs) {
            sb.append(sb.length() == 0 ? "" : ", ").append(s.text());
        }
        return sb.toString();
    }

    private Accumulator accumulator(Spec s) {
        return switch (s.kind()) {
            case COUNT -> new Count(s);
            case COUNT_ALL -> new CountAll(s);
            case SUM, AVG -> new Sum(s);
            case MIN, MAX -> new Extreme(s);
            case SAMPLE -> new Sample(s);
            case GROUP_CONCAT -> new Concat(s);
        };
    }

    private abstract class Base implements Accumulator {
        final Spec spec;
        final Set<Object> seen;

        Base(Spec spec) {
            this.spec = spec;
            this.seen = spec.distinct() ? new HashSet<>() : null;
        }

        /** True the first time a DISTINCT aggregate sees this key (always true without DISTINCT). */
        boolean fresh(Object key) {
            return seen == null || seen.add(key == null ? Void.class : key);
        }

        Value value(long[] row, ExecContext ctx) {
            return spec.arg().value(row, cache(ctx), ctx);
        }
    }

    private final class Count extends Base {
        long n;

        Count(Spec s) {
            super(s);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            Object key = spec.arg().key(row, cache(ctx), ctx);
            if (key != null && fresh(key)) {
                n++;
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(VF.createLiteral(Long.toString(n), CoreDatatype.XSD.INTEGER));
        }
    }

    private final class CountAll extends Base {
        long n;

        CountAll(Spec s) {
            super(s);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            boolean empty = true;
            for (long id : row) {
                empty &= id == TermIds.NULL;
            }
            if (!empty && fresh(new RowKey(row))) {
                n++;
            }
        }

        @Override
        public void addAll(Batch batch, long[] scratch, ExecContext ctx) {
            if (seen == null) {
                n += batch.nonEmptyRows();
            } else {
                super.addAll(batch, scratch, ctx);
            }
        }

        @Override
        public void addRun(Batch batch, int from, int to, long[] scratch, ExecContext ctx) {
            if (seen == null) {
                n += batch.nonEmptyRows(from, to);
            } else {
                super.addRun(batch, from, to, scratch, ctx);
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(VF.createLiteral(Long.toString(n), CoreDatatype.XSD.INTEGER));
        }
    }

    /**
     * SUM and AVG: RDF4J checks DISTINCT before the type for AVG, after "is a literal" for SUM. A
     * variable's inline xsd:integer ids are added on the ids, in exact long arithmetic, without
     * materializing them ({@link #small}); xsd:integer and xsd:decimal literals are added into one
     * {@code BigDecimal} ({@link #big}), without a literal per row. Both partial sums join the literal
     * sum before any value of another type and at the end: additions of integers and decimals are
     * exact, value and scale alike, in any order, so the result is RDF4J's.
     */
    private final class Sum extends Base {
        /** Scales summed in a {@code long} each ({@link #unscaledSums}); larger ones go to {@link #big} directly. */
        static final int SCALES = 19;
        Literal sum = ZERO;
        /** The sum of the inline xsd:integer values not yet added to {@link #sum}. */
        long small;
        /** The sum of the xsd:integer and xsd:decimal literals not yet added to {@link #sum}. */
        BigDecimal big;
        /** Whether {@link #big} holds a decimal (else only integers: its sum is an integer). */
        boolean bigDecimal;
        /**
         * Per scale (0 to {@link #SCALES} - 1), the sum of the unscaled values of that scale not yet
         * added to {@link #big}: prices of one, two or no decimals each keep adding in a {@code long}.
         */
        final long[] unscaledSums = new long[SCALES];
        /** Bit {@code s}: {@code unscaledSums[s]} holds values. */
        int unscaledScales;
        /**
         * Whether {@link #sum} is an integer or a decimal, whose additions are exact: only then may
         * integers be added apart (a float or double sum rounds at each addition, in input order).
         */
        boolean exact = true;
        final int slot;
        long count;
        boolean error;

        /**
         * For a derived argument (not DISTINCT): the slot of its variable, whose ids' exact values the
         * store's table {@link #numbers} may hold; else -1.
         */
        final int numberSlot;
        /** The store's table of the derived argument's exact values, once looked up; null: none. */
        DerivedNumbers numbers;
        boolean numbersLooked;

        Sum(Spec s) {
            super(s);
            slot = s.distinct() ? -1 : s.arg().slot();
            numberSlot = !s.distinct() && s.arg().isDerived() ? s.arg().slots()[0] : -1;
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            if (error) {
                return;
            }
            if (slot >= 0 && exact && addInline(row[slot])) {
                return;
            }
            if (numberSlot >= 0 && exact && addNumber(row[numberSlot], ctx)) {
                return;
            }
            Value v = value(row, ctx);
            boolean avg = spec.kind() == Kind.AVG;
            if (avg && !fresh(v)) {
                return;
            }
            if (v instanceof Literal l) {
                if (!avg && !fresh(v)) {
                    return;
                }
                CoreDatatype.XSD type = l.getCoreDatatype().asXSDDatatypeOrNull();
                if (exact && addExact(l, type)) {
                    count++;
                    return;
                }
                flush();
                if (error) {
                    return;
                }
                if (type != null && type.isNumericDatatype()) {
                    sum = plus(sum, l);
                    error = sum == null;
                    exact = !error && (sum.getCoreDatatype() == CoreDatatype.XSD.INTEGER
                            || sum.getCoreDatatype() == CoreDatatype.XSD.DECIMAL);
                } else {
                    error = true;
                }
                count++;
            } else if (v != null) {
                error = true;
            }
        }

        /** Adds an inline xsd:integer id to {@link #small}; false for any other id or on overflow. */
        private boolean addInline(long id) {
            if (!TermIds.isInline(id) || TermIds.kind(id) != TermKind.INTEGER
                    || !XSD.INTEGER.equals(InlineValues.datatype(id))) {
                return false;
            }
            try {
                small = Math.addExact(small, InlineValues.integerValue(id));
            } catch (ArithmeticException overflow) {
                return false;
            }
            count++;
            return true;
        }

        /**
         * Adds the derived value of {@code id} from the store's table of exact numbers, as
         * {@link #addExact} would add its literal; false when the table does not hold it.
         */
        private boolean addNumber(long id, ExecContext ctx) {
            if (!numbersLooked) {
                numbers = spec.arg().numbers(ctx);
                numbersLooked = true;
            }
            if (numbers == null || !AggregateArg.cachable(id)) {
                return false;
            }
            long n = numbers.get(id);
            if (n == DerivedNumbers.MISSING) {
                return false;
            }
            addUnscaled(AggregateArg.unscaled(n), AggregateArg.scale(n));
            bigDecimal |= AggregateArg.isDecimal(n);
            count++;
            return true;
        }

        /** Adds an xsd:integer or xsd:decimal literal to {@link #big}; false for any other or an ill-typed one. */
        private boolean addExact(Literal l, CoreDatatype.XSD type) {
            if (type != CoreDatatype.XSD.DECIMAL && type != CoreDatatype.XSD.INTEGER) {
                return false;
            }
            if (l instanceof ParsedDecimalLiteral p && p.compact()) {
                addUnscaled(p.unscaled(), p.scale());
                bigDecimal |= type == CoreDatatype.XSD.DECIMAL;
                return true;
            }
            BigDecimal d;
            try {
                d = l.decimalValue();
            } catch (NumberFormatException illTyped) {
                return false;
            }
            big = big == null ? d : big.add(d);
            bigDecimal |= type == CoreDatatype.XSD.DECIMAL;
            return true;
        }

        /**
         * Adds {@code unscaled} × 10^-{@code scale} to the long sum of its scale; on overflow first
         * moves the long sums into {@link #big}. Exact additions give the same value and scale in any
         * grouping, so the result is that of adding row by row.
         */
        private void addUnscaled(long unscaled, int scale) {
            if (scale >= SCALES) {
                BigDecimal d = BigDecimal.valueOf(unscaled, scale);
                big = big == null ? d : big.add(d);
                return;
            }
            long sum = unscaledSums[scale];
            long s = sum + unscaled;
            // no overflow: the operands' signs differ, or the result's sign is theirs
            if (((sum ^ s) & (unscaled ^ s)) < 0) {
                moveUnscaled();
                s = unscaled;
            }
            unscaledSums[scale] = s;
            unscaledScales |= 1 << scale;
        }

        /** Adds {@link #unscaledSums} to {@link #big} and clears them. */
        private void moveUnscaled() {
            for (int scale = 0; unscaledScales != 0; scale++) {
                if ((unscaledScales & 1 << scale) != 0) {
                    BigDecimal d = BigDecimal.valueOf(unscaledSums[scale], scale);
                    big = big == null ? d : big.add(d);
                    unscaledSums[scale] = 0;
                    unscaledScales &= ~(1 << scale);
                }
            }
        }

        private void flush() {
            moveUnscaled();
            if (small != 0 && sum != null) {
                sum = plus(sum, VF.createLiteral(Long.toString(small), CoreDatatype.XSD.INTEGER));
                error = sum == null;
            }
            small = 0;
            if (big != null && sum != null) {
                sum = plus(sum, bigDecimal ? VF.createLiteral(big)
                        : VF.createLiteral(big.toBigIntegerExact().toString(), CoreDatatype.XSD.INTEGER));
                error = sum == null;
            }
            big = null;
        }

        @Override
        public long result(ExecContext ctx) {
            if (!error) {
                flush();
            }
            if (error) {
                return TermIds.NULL;
            }
            return sumResult(spec.kind(), sum, count, ctx);
        }
    }

    /**
     * The sum, or null if a numeric-typed literal is ill-typed (such as "x"^^xsd:int): an error
     * in an aggregate leaves it unbound (SPARQL 1.1 section 18.5.1), it does not fail the query.
     */
    private static Literal plus(Literal sum, Literal l) {
        try {
            return MathUtil.compute(sum, l, MathOp.PLUS);
        } catch (ValueExprEvaluationException e) {
            return null;
        }
    }

    /** The id of SUM ({@code kind} SUM) or AVG of {@code count} values adding up to {@code sum}. */
    private static long sumResult(Kind kind, Literal sum, long count, ExecContext ctx) {
        if (kind == Kind.SUM || count == 0) {
            return ctx.idOf(sum);
        }
        try {
            return ctx.idOf(MathUtil.compute(sum, VF.createLiteral(count), MathOp.DIVIDE));
        } catch (ValueExprEvaluationException e) {
            return TermIds.NULL;
        }
    }

    /**
     * The id of SUM or AVG ({@code kind}) of {@code count} xsd:integer and xsd:decimal values whose
     * exact sum is {@code total} (its scale the largest of theirs; {@code decimal}: some are
     * decimals), equal to the id the row-by-row accumulator gives for them.
     */
    static long exactResult(Kind kind, long count, BigDecimal total, boolean decimal, ExecContext ctx) {
        Literal sum = ZERO;
        if (count > 0) {
            sum = plus(ZERO, decimal ? VF.createLiteral(total)
                    : VF.createLiteral(total.toBigIntegerExact().toString(), CoreDatatype.XSD.INTEGER));
            if (sum == null) {
                return TermIds.NULL;
            }
        }
        return sumResult(kind, sum, count, ctx);
    }

    private final class Extreme extends Base {
        final ValueComparator comparator = new ValueComparator();
        Value best;

        Extreme(Spec s) {
            super(s);
            comparator.setStrict(strict);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            Value v = value(row, ctx);
            if (v != null && fresh(v)) {
                int c = best == null ? 0 : comparator.compare(v, best);
                if (best == null || (spec.kind() == Kind.MIN ? c < 0 : c > 0)) {
                    best = v;
                }
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(best);
        }
    }

    private final class Sample extends Base {
        Value sample;

        Sample(Spec s) {
            super(s);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            if (sample == null) {
                sample = value(row, ctx);
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(sample);
        }
    }

    private final class Concat extends Base {
        StringBuilder text;

        Concat(Spec s) {
            super(s);
        }

        @Override
        public void add(long[] row, ExecContext ctx) {
            Value v = value(row, ctx);
            if (v != null && fresh(v)) {
                if (text == null) {
                    text = new StringBuilder();
                } else {
                    text.append(spec.separator());
                }
                text.append(v.stringValue());
            }
        }

        @Override
        public long result(ExecContext ctx) {
            return ctx.idOf(VF.createLiteral(text == null ? "" : text.toString()));
        }
    }

    /** A whole row as a DISTINCT key (COUNT(DISTINCT *)). */
    private record RowKey(long[] ids) {
        @Override
        public boolean equals(Object o) {
            return o instanceof RowKey k && Arrays.equals(k.ids, ids);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(ids);
        }
    }
}
