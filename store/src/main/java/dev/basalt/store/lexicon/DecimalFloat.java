package dev.basalt.store.lexicon;

import java.math.BigDecimal;

/**
 * Order-preserving packing of a positive decimal magnitude with few significant digits:
 * {@code m = 0.d1d2..dn × 10^e} (d1 ≠ 0, n ≤ digits) becomes the body
 * {@code (e - minExponent) << significandBits | d1d2..dn00..0} with the digits left-aligned to a
 * fixed width. Normalized so, a larger exponent means a larger magnitude, and equal exponents
 * compare by digits, so bodies compare as magnitudes. A negative value uses the complement of the
 * body within its width, reversing the order. Shared by {@link DecimalCodec} and
 * {@link FloatingCodec} with different widths.
 *
 * <p>Immutable; its three layouts are shared by every thread.
 */
final class DecimalFloat {
    static final DecimalFloat DECIMAL = new DecimalFloat(TermIds.DECIMAL_EXPONENT_BITS,
            TermIds.DECIMAL_SIGNIFICAND_BITS, TermIds.DECIMAL_DIGITS, -128);
    static final DecimalFloat DOUBLE = new DecimalFloat(TermIds.DOUBLE_EXPONENT_BITS,
            TermIds.DOUBLE_SIGNIFICAND_BITS, TermIds.DOUBLE_DIGITS, -512);
    static final DecimalFloat FLOAT = new DecimalFloat(TermIds.FLOAT_EXPONENT_BITS,
            TermIds.FLOAT_SIGNIFICAND_BITS, TermIds.FLOAT_DIGITS, -64);

    private final int exponentBits;
    private final int significandBits;
    private final int digits;
    private final int minExponent;
    private final long bodyMask;
    private final long[] powers;

    private DecimalFloat(int exponentBits, int significandBits, int digits, int minExponent) {
        this.exponentBits = exponentBits;
        this.significandBits = significandBits;
        this.digits = digits;
        this.minExponent = minExponent;
        this.bodyMask = (1L << (exponentBits + significandBits)) - 1;
        this.powers = new long[digits + 1];
        powers[0] = 1;
        for (int i = 1; i <= digits; i++) {
            powers[i] = powers[i - 1] * 10;
        }
        if (powers[digits] > 1L << significandBits) {
            throw new IllegalStateException(digits + " digits do not fit " + significandBits + " bits");
        }
    }

    int bodyBits() {
        return exponentBits + significandBits;
    }

    /** Body of a positive magnitude, or -1 if it has too many digits or its exponent is out of range. */
    long body(BigDecimal magnitude) {
        if (magnitude.signum() <= 0) {
            throw new IllegalArgumentException("not a positive magnitude: " + magnitude);
        }
        BigDecimal m = magnitude.stripTrailingZeros();
        int n = m.precision();
        if (n > digits) {
            return -1;
        }
        long biased = (long) n - m.scale() - minExponent;
        if (biased < 0 || biased >= 1L << exponentBits) {
            return -1;
        }
        long significand = m.unscaledValue().longValueExact() * powers[digits - n];
        return (biased << significandBits) | significand;
    }

    BigDecimal magnitude(long body) {
        long significand = body & ((1L << significandBits) - 1);
        if (significand < powers[digits - 1] || significand >= powers[digits]) {
            throw new IllegalArgumentException("not a normalized significand: " + significand);
        }
        long exponent = (body >>> significandBits) + minExponent;
        return BigDecimal.valueOf(significand, (int) (digits - exponent)).stripTrailingZeros();
    }

    /** Complement within the body width: maps magnitude order to reversed order for negatives. */
    long negate(long body) {
        return ~body & bodyMask;
    }
}
