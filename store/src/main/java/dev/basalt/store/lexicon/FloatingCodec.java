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
 * This matches what RDF4J's {@code XMLDatatypeUtil.normalizeDouble} gives for short inputs
 * ("0.1" → "1.0E-1"). Any other spelling ("1.5e0", "1.50E0", "15E-1", "+INF") is a different RDF
 * term and goes to the dictionary.
 *
 * <p>Double payload: 3-bit class (0 -INF, 1 negative, 2 -0, 3 +0, 4 positive, 5 +INF, 6 NaN)
 * over a {@link DecimalFloat#DOUBLE} body of the canonical digits. Doubles whose canonical form
 * needs more than {@link TermIds#DOUBLE_DIGITS} digits are not inlined (never rounded). Canonical
 * decimals of distinct doubles lie in disjoint rounding intervals, so the digit order is the
 * double order. Float payload: the IEEE bits made order-preserving (negatives complemented, the
 * sign bit of positives set); every float fits. Both orders are {@code Double.compare}'s total
 * order: -0 sorts just below +0 and NaN above +INF.
 */
final class FloatingCodec {
    private static final Pattern SHAPE = Pattern.compile("-?[1-9]\\.(0|[0-9]*[1-9])E(0|-?[1-9][0-9]{0,2})");
    private static final int CLASS_SHIFT = DecimalFloat.DOUBLE.bodyBits();
    private static final long NEG_INF = 0, NEGATIVE = 1, NEG_ZERO = 2, POS_ZERO = 3, POSITIVE = 4,
            POS_INF = 5, NAN = 6;

    private FloatingCodec() {
    }

    static long encodeDouble(String label) {
        long special = specialClass(label);
        if (special >= 0) {
            return TermIds.make(TermIds.KIND_DOUBLE, special << CLASS_SHIFT);
        }
        if (label.length() > 24 || !SHAPE.matcher(label).matches()) {
            return TermIds.NULL;
        }
        BigDecimal written = new BigDecimal(label);
        long body = DecimalFloat.DOUBLE.body(written.abs());
        if (body < 0) {
            return TermIds.NULL;
        }
        double d = Double.parseDouble(label);
        if (Double.isInfinite(d) || d == 0 || !label.equals(canonicalDouble(d))) {
            return TermIds.NULL;
        }
        long payload = d > 0 ? POSITIVE << CLASS_SHIFT | body
                : NEGATIVE << CLASS_SHIFT | DecimalFloat.DOUBLE.negate(body);
        return TermIds.make(TermIds.KIND_DOUBLE, payload);
    }

    static String doubleLabel(long id) {
        long payload = TermIds.payload(id);
        long cls = payload >>> CLASS_SHIFT;
        long body = payload & ((1L << CLASS_SHIFT) - 1);
        if (cls == POSITIVE) {
            return scientific(DecimalFloat.DOUBLE.magnitude(body), false);
        } else if (cls == NEGATIVE) {
            return scientific(DecimalFloat.DOUBLE.magnitude(DecimalFloat.DOUBLE.negate(body)), true);
        } else if (body != 0 || cls > NAN) {
            throw new IllegalArgumentException("not an inline double: " + TermIds.describe(id));
        }
        return cls == NEG_INF ? "-INF" : cls == NEG_ZERO ? "-0.0E0" : cls == POS_ZERO ? "0.0E0"
                : cls == POS_INF ? "INF" : "NaN";
    }

    static double doubleValue(long id) {
        String label = doubleLabel(id);
        switch (label) {
            case "INF":
                return Double.POSITIVE_INFINITY;
            case "-INF":
                return Double.NEGATIVE_INFINITY;
            case "NaN":
                return Double.NaN;
            default:
                return Double.parseDouble(label);
        }
    }

    static long encodeFloat(String label) {
        float f;
        if (specialClass(label) >= 0) {
            f = label.equals("INF") ? Float.POSITIVE_INFINITY : label.equals("-INF") ? Float.NEGATIVE_INFINITY
                    : label.equals("NaN") ? Float.NaN : label.startsWith("-") ? -0.0f : 0.0f;
        } else if (label.length() > 16 || !SHAPE.matcher(label).matches()) {
            return TermIds.NULL;
        } else {
            f = Float.parseFloat(label);
            if (Float.isInfinite(f) || f == 0 || !label.equals(canonicalFloat(f))) {
                return TermIds.NULL;
            }
        }
        int bits = Float.floatToIntBits(f);
        long sortable = (bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE) & 0xFFFF_FFFFL;
        return TermIds.make(TermIds.KIND_FLOAT, sortable);
    }

    static float floatValue(long id) {
        long payload = TermIds.payload(id);
        if (payload > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("not an inline float: " + TermIds.describe(id));
        }
        int sortable = (int) payload;
        return Float.intBitsToFloat(sortable < 0 ? sortable ^ Integer.MIN_VALUE : ~sortable);
    }

    static String floatLabel(long id) {
        return canonicalFloat(floatValue(id));
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
