package dev.basalt.store.lexicon;

import java.math.BigDecimal;

/**
 * Inline {@code xsd:decimal}. Payload: a 2-bit class (0 negative, 1 zero, 2 positive) above a
 * {@link DecimalFloat#DECIMAL} body, so ids order as values. Inlined only when the lexical form
 * is canonical - optional '-', an integer part without leading zeros, '.', a fraction without
 * trailing zeros, at least one digit on each side ("1.0", "0.5", "-12.25"; not "1", "01.0",
 * "+1.0", "1.50", "-0.0"), which is also what RDF4J's {@code XMLDatatypeUtil.normalizeDecimal}
 * produces - and the value has at most {@link TermIds#DECIMAL_DIGITS} significant digits with a
 * decimal exponent in [-128, 127].
 *
 * <p>Stateless; any thread may call it.
 */
final class DecimalCodec {
    private static final int CLASS_SHIFT = DecimalFloat.DECIMAL.bodyBits();
    private static final long NEGATIVE = 0;
    private static final long ZERO = 1;
    private static final long POSITIVE = 2;
    /** Longer canonical forms have an exponent or digit count that cannot fit. */
    private static final int MAX_LABEL_LENGTH = 160;

    private DecimalCodec() {
    }

    static long encode(String label) {
        if (!isCanonical(label)) {
            return TermIds.NULL;
        }
        BigDecimal value = new BigDecimal(label);
        if (value.signum() == 0) {
            return TermIds.make(TermIds.KIND_DECIMAL, ZERO << CLASS_SHIFT);
        }
        long body = DecimalFloat.DECIMAL.body(value.abs());
        if (body < 0) {
            return TermIds.NULL;
        }
        long payload = value.signum() > 0 ? POSITIVE << CLASS_SHIFT | body
                : NEGATIVE << CLASS_SHIFT | DecimalFloat.DECIMAL.negate(body);
        return TermIds.make(TermIds.KIND_DECIMAL, payload);
    }

    static BigDecimal value(long id) {
        long payload = TermIds.payload(id);
        long cls = payload >>> CLASS_SHIFT;
        long body = payload & ((1L << CLASS_SHIFT) - 1);
        if (cls == ZERO && body == 0) {
            return BigDecimal.ZERO;
        } else if (cls == POSITIVE) {
            return DecimalFloat.DECIMAL.magnitude(body);
        } else if (cls == NEGATIVE) {
            return DecimalFloat.DECIMAL.magnitude(DecimalFloat.DECIMAL.negate(body)).negate();
        }
        throw new IllegalArgumentException("not an inline decimal: " + TermIds.describe(id));
    }

    static String label(long id) {
        BigDecimal v = value(id);
        if (v.signum() == 0) {
            return "0.0";
        }
        String plain = v.toPlainString();
        return v.scale() > 0 ? plain : plain + ".0";
    }

    private static boolean isCanonical(String s) {
        int n = s.length();
        if (n > MAX_LABEL_LENGTH) {
            return false;
        }
        int i = s.startsWith("-") ? 1 : 0;
        int intStart = i;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
        }
        int intDigits = i - intStart;
        if (intDigits == 0 || intDigits > 1 && s.charAt(intStart) == '0' || i == n || s.charAt(i) != '.') {
            return false;
        }
        int fracStart = ++i;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
        }
        int fracDigits = i - fracStart;
        if (i != n || fracDigits == 0) {
            return false;
        }
        if (s.charAt(n - 1) == '0' && fracDigits > 1) {
            return false;
        }
        boolean zero = intDigits == 1 && s.charAt(intStart) == '0' && fracDigits == 1 && s.charAt(fracStart) == '0';
        return !(zero && intStart == 1);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
