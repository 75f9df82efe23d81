package dev.basalt.store.lexicon;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.regex.Pattern;

/**
 * Inline {@code xsd:double} and {@code xsd:float}, and their canonical lexical forms.
 *
 * <p>Canonical form (our definition, fixed by the format version and independent of the JDK's
 * {@code Double.toString}, which changed in JDK 19): "INF", "-INF", "NaN", "0.0E0", "-0.0E0", or
 * {@code -?d.dddEx} whose digits are the <em>shortest-nearest</em> decimal of the value: the
 * smallest n such that the exact binary value rounded half-even to n significant digits reads
 * back as the same double (float), with no trailing zeros except the single "0" of "1.0E0".
 * RDF4J's {@code XMLDatatypeUtil.normalizeDouble} leaves such forms unchanged and produces them
 * from short inputs ("0.1" → "1.0E-1"). Any other spelling ("1.5e0", "1.50E0", "15E-1", "+INF",
 * JDK 17's "4.9E-324" for the smallest double, canonically "5.0E-324") is a different RDF term
 * and goes to the dictionary.
 *
 * <p>Payload: a 3-bit class (0 -INF, 1 negative, 2 -0, 3 +0, 4 positive, 5 +INF, 6 NaN) over a
 * {@link DecimalFloat} body of the canonical digits ({@link DecimalFloat#DOUBLE} or
 * {@link DecimalFloat#FLOAT}); negative bodies are complemented. Doubles whose canonical form
 * needs more than {@link TermIds#DOUBLE_DIGITS} digits are not inlined (never rounded); every
 * float fits. Canonical decimals of distinct values lie in disjoint rounding intervals, so digit
 * order is value order, and the id order is {@code Double.compare}'s total order: -0 sorts just
 * below +0 (XSD calls them equal, but they are distinct terms) and NaN above +INF.
 *
 * <p>Stateless; any thread may call it.
 */
final class FloatingCodec {
    private static final Pattern SHAPE = Pattern.compile("-?[1-9]\\.(0|[0-9]*[1-9])E(0|-?[1-9][0-9]{0,2})");
    private static final int MAX_LABEL_LENGTH = 24;
    private static final long NEG_INF = 0, NEGATIVE = 1, NEG_ZERO = 2, POS_ZERO = 3, POSITIVE = 4,
            POS_INF = 5, NAN = 6;

    private FloatingCodec() {
    }

    static long encodeDouble(String label) {
        return encode(label, TermIds.KIND_DOUBLE, DecimalFloat.DOUBLE, false);
    }

    static long encodeFloat(String label) {
        return encode(label, TermIds.KIND_FLOAT, DecimalFloat.FLOAT, true);
    }

    static String label(long id) {
        DecimalFloat layout = layout(id);
        int classShift = layout.bodyBits();
        long payload = TermIds.payload(id);
        long cls = payload >>> classShift;
        long body = payload & ((1L << classShift) - 1);
        if (cls == POSITIVE) {
            return scientific(layout.magnitude(body), false);
        } else if (cls == NEGATIVE) {
            return scientific(layout.magnitude(layout.negate(body)), true);
        } else if (body != 0 || cls > NAN) {
            throw new IllegalArgumentException("not an inline float or double: " + TermIds.describe(id));
        }
        return cls == NEG_INF ? "-INF" : cls == NEG_ZERO ? "-0.0E0" : cls == POS_ZERO ? "0.0E0"
                : cls == POS_INF ? "INF" : "NaN";
    }

    /** Value of a double id, or a float id widened exactly. */
    static double value(long id) {
        String label = label(id);
        switch (label) {
            case "INF":
                return Double.POSITIVE_INFINITY;
            case "-INF":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                return TermIds.kindCode(id) == TermIds.KIND_FLOAT ? Float.parseFloat(label) : Double.parseDouble(label);
        }
    }

    static String canonicalDouble(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d) || d == 0) {
            return Double.isNaN(d) ? "NaN" : d == Double.POSITIVE_INFINITY ? "INF"
                    : d == Double.NEGATIVE_INFINITY ? "-INF" : 1 / d < 0 ? "-0.0E0" : "0.0E0";
        }
        BigDecimal exact = new BigDecimal(Math.abs(d));
        for (int n = 1; n < 17; n++) {
            BigDecimal c = exact.round(new MathContext(n, RoundingMode.HALF_EVEN));
            if (Double.parseDouble(c.toString()) == Math.abs(d)) {
                return scientific(c, d < 0);
            }
        }
        return scientific(exact.round(new MathContext(17, RoundingMode.HALF_EVEN)), d < 0);
    }

    static String canonicalFloat(float f) {
        if (Float.isNaN(f) || Float.isInfinite(f) || f == 0) {
            return canonicalDouble(f);
        }
        BigDecimal exact = new BigDecimal(Math.abs(f));
        for (int n = 1; n < 9; n++) {
            BigDecimal c = exact.round(new MathContext(n, RoundingMode.HALF_EVEN));
            if (Float.parseFloat(c.toString()) == Math.abs(f)) {
                return scientific(c, f < 0);
            }
        }
        return scientific(exact.round(new MathContext(9, RoundingMode.HALF_EVEN)), f < 0);
    }

    private static long encode(String label, int kindCode, DecimalFloat layout, boolean isFloat) {
        int classShift = layout.bodyBits();
        long special = specialClass(label);
        if (special >= 0) {
            return TermIds.make(kindCode, special << classShift);
        }
        if (label.length() > MAX_LABEL_LENGTH || !SHAPE.matcher(label).matches()) {
            return TermIds.NULL;
        }
        long body = layout.body(new BigDecimal(label).abs());
        if (body < 0) {
            return TermIds.NULL;
        }
        // The shape excludes zero digits; a value that still reads as zero or infinity has
        // underflowed or overflowed and is spelled canonically otherwise.
        String canonical;
        if (isFloat) {
            float f = Float.parseFloat(label);
            canonical = Float.isInfinite(f) || f == 0 ? null : canonicalFloat(f);
        } else {
            double d = Double.parseDouble(label);
            canonical = Double.isInfinite(d) || d == 0 ? null : canonicalDouble(d);
        }
        if (!label.equals(canonical)) {
            return TermIds.NULL;
        }
        long payload = label.startsWith("-") ? NEGATIVE << classShift | layout.negate(body)
                : POSITIVE << classShift | body;
        return TermIds.make(kindCode, payload);
    }

    private static DecimalFloat layout(long id) {
        switch (TermIds.kindCode(id)) {
            case TermIds.KIND_DOUBLE:
                return DecimalFloat.DOUBLE;
            case TermIds.KIND_FLOAT:
                return DecimalFloat.FLOAT;
            default:
                throw new IllegalArgumentException("not an inline float or double: " + TermIds.describe(id));
        }
    }

    /** "-?d.dddEx" of a positive magnitude, trailing zeros dropped but at least one fraction digit. */
    private static String scientific(BigDecimal magnitude, boolean negative) {
        BigDecimal m = magnitude.stripTrailingZeros();
        String digits = m.unscaledValue().toString();
        long exponent = (long) m.precision() - m.scale() - 1;
        StringBuilder sb = new StringBuilder(digits.length() + 8);
        if (negative) {
            sb.append('-');
        }
        sb.append(digits.charAt(0)).append('.');
        sb.append(digits.length() > 1 ? digits.substring(1) : "0");
        return sb.append('E').append(exponent).toString();
    }

    /** Class of a special lexical form shared by float and double, or -1. */
    private static long specialClass(String label) {
        switch (label) {
            case "-INF":
                return NEG_INF;
            case "-0.0E0":
                return NEG_ZERO;
            case "0.0E0":
                return POS_ZERO;
            case "INF":
                return POS_INF;
            case "NaN":
                return NAN;
            default:
                return -1;
        }
    }
}
