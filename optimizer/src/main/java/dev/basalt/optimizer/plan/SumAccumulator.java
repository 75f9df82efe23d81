package dev.basalt.optimizer.plan;

import java.math.BigDecimal;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.base.CoreDatatype;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.MathExpr.MathOp;
import org.eclipse.rdf4j.query.algebra.evaluation.ValueExprEvaluationException;
import org.eclipse.rdf4j.query.algebra.evaluation.util.MathUtil;

import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.plan.Aggregates.Kind;
import dev.basalt.optimizer.plan.Aggregates.Spec;
import dev.basalt.store.lexicon.DerivedNumbers;
import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.lexicon.TermKind;

/**
 * The accumulator of SUM and AVG ({@link Aggregates}) over one group, and the results of both from an
 * exact sum ({@link #exactResult}, shared with {@link JoinedAggregates}).
 *
 * <p>RDF4J checks DISTINCT before the type for AVG, after "is a literal" for SUM. A
 * variable's inline xsd:integer ids are added on the ids, in exact long arithmetic, without
 * materializing them ({@link #small}); xsd:integer and xsd:decimal literals are added into one
 * {@code BigDecimal} ({@link #big}), without a literal per row. Both partial sums join the literal
 * sum before any value of another type and at the end: additions of integers and decimals are
 * exact, value and scale alike, in any order, so the result is RDF4J's.
 *
 * <p>Thread rules: an accumulator belongs to one group of one evaluation and is called by its one
 * thread; the static methods are thread-safe.
 */
final class SumAccumulator extends Aggregates.Base {
    private static final Literal ZERO = Aggregates.VF.createLiteral("0", CoreDatatype.XSD.INTEGER);

    /** Scales summed in a {@code long} each ({@link #unscaledSums}); larger ones go to {@link #big} directly. */
    private static final int SCALES = 19;
    private Literal sum = ZERO;
    /** The sum of the inline xsd:integer values not yet added to {@link #sum}. */
    private long small;
    /** The sum of the xsd:integer and xsd:decimal literals not yet added to {@link #sum}. */
    private BigDecimal big;
    /** Whether {@link #big} holds a decimal (else only integers: its sum is an integer). */
    private boolean bigDecimal;
    /**
     * Per scale (0 to {@link #SCALES} - 1), the sum of the unscaled values of that scale not yet
     * added to {@link #big}: prices of one, two or no decimals each keep adding in a {@code long}.
     */
    private final long[] unscaledSums = new long[SCALES];
    /** Bit {@code s}: {@code unscaledSums[s]} holds values. */
    private int unscaledScales;
    /**
     * Whether {@link #sum} is an integer or a decimal, whose additions are exact: only then may
     * integers be added apart (a float or double sum rounds at each addition, in input order).
     */
    private boolean exact = true;
    private final int slot;
    private long count;
    private boolean error;

    /**
     * For a derived argument (not DISTINCT): the slot of its variable, whose ids' exact values the
     * store's table {@link #numbers} may hold; else -1.
     */
    private final int numberSlot;
    /** The store's table of the derived argument's exact values, once looked up; null: none. */
    private DerivedNumbers numbers;
    private boolean numbersLooked;

    SumAccumulator(Aggregates owner, Spec s) {
        super(owner, s);
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
            sum = plus(sum, Aggregates.VF.createLiteral(Long.toString(small), CoreDatatype.XSD.INTEGER));
            error = sum == null;
        }
        small = 0;
        if (big != null && sum != null) {
            sum = plus(sum, bigDecimal ? Aggregates.VF.createLiteral(big)
                    : Aggregates.VF.createLiteral(big.toBigIntegerExact().toString(), CoreDatatype.XSD.INTEGER));
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
            return ctx.idOf(MathUtil.compute(sum, Aggregates.VF.createLiteral(count), MathOp.DIVIDE));
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
            sum = plus(ZERO, decimal ? Aggregates.VF.createLiteral(total)
                    : Aggregates.VF.createLiteral(total.toBigIntegerExact().toString(), CoreDatatype.XSD.INTEGER));
            if (sum == null) {
                return TermIds.NULL;
            }
        }
        return sumResult(kind, sum, count, ctx);
    }
}
