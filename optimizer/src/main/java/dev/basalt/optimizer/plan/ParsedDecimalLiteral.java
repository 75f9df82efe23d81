package dev.basalt.optimizer.plan;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.base.AbstractLiteral;
import org.eclipse.rdf4j.model.base.CoreDatatype;

/**
 * An xsd:decimal or xsd:integer literal that keeps its exact value beside its label, so that an
 * aggregate adding it again and again ({@code SUM}, {@code AVG} over a derived value kept per term
 * id, see {@link AggregateArg}) does not parse the label on every row. It is the literal it wraps in
 * every other respect: the same label, datatype, equality and hash (a literal's term identity), and
 * every value other than {@link #decimalValue} read from the wrapped literal.
 * Thread rules: immutable, so shared caches hand it to any thread.
 */
final class ParsedDecimalLiteral extends AbstractLiteral {
    private static final long serialVersionUID = 1L;

    /** Unscaled values past this many digits are not kept as a {@code long} ({@link #compact}). */
    private static final int COMPACT_DIGITS = 18;
    private final Literal literal;
    private final BigDecimal value;
    /** The value's unscaled digits when it has at most {@value #COMPACT_DIGITS} of them and a scale of 0 or more. */
    private final long unscaled;
    private final boolean compact;

    private ParsedDecimalLiteral(Literal literal, BigDecimal value) {
        this.literal = literal;
        this.value = value;
        this.compact = value.scale() >= 0 && value.precision() <= COMPACT_DIGITS;
        this.unscaled = compact ? value.unscaledValue().longValue() : 0;
    }

    /**
     * Whether the value is {@link #unscaled()} × 10^-{@link #scale()} with the unscaled value in a
     * {@code long} far from overflow (at most {@value #COMPACT_DIGITS} digits), so that a sum of
     * such values of one scale adds longs.
     */
    boolean compact() {
        return compact;
    }

    long unscaled() {
        return unscaled;
    }

    int scale() {
        return value.scale();
    }

    /**
     * {@code v} as this class if it is a well-formed xsd:decimal or xsd:integer literal, else
     * {@code v} itself (a literal of any other type, an ill-formed one, a non-literal, null).
     */
    static Value of(Value v) {
        if (!(v instanceof Literal l) || v instanceof ParsedDecimalLiteral) {
            return v;
        }
        CoreDatatype core = l.getCoreDatatype();
        if (core != CoreDatatype.XSD.DECIMAL && core != CoreDatatype.XSD.INTEGER) {
            return v;
        }
        try {
            return new ParsedDecimalLiteral(l, l.decimalValue());
        } catch (NumberFormatException illFormed) {
            return v;
        }
    }

    @Override
    public String getLabel() {
        return literal.getLabel();
    }

    @Override
    public Optional<String> getLanguage() {
        return literal.getLanguage();
    }

    @Override
    public IRI getDatatype() {
        return literal.getDatatype();
    }

    @Override
    public CoreDatatype getCoreDatatype() {
        return literal.getCoreDatatype();
    }

    @Override
    public BigDecimal decimalValue() {
        return value;
    }

    @Override
    public BigInteger integerValue() {
        return literal.integerValue();
    }

    @Override
    public double doubleValue() {
        return literal.doubleValue();
    }

    @Override
    public float floatValue() {
        return literal.floatValue();
    }

    @Override
    public long longValue() {
        return literal.longValue();
    }

    @Override
    public int intValue() {
        return literal.intValue();
    }
}
