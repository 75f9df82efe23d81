package dev.basalt.optimizer.plan;

import dev.basalt.store.lexicon.TermIds;

/**
 * Orders two term ids as RDF4J's {@code ValueComparator} orders their terms, where the ids alone
 * decide; otherwise {@link #UNKNOWN} and the caller compares values. Decided on ids: unbound (0)
 * before everything; term classes (blank node, IRI, literal, triple term: the kind order); within
 * one inline kind, the id order where the TermIds contract makes it the value order and the
 * values differ. Left to values: dictionary ids (no order), query-local ids, different literal
 * kinds (e.g. integer against decimal), equal values of different spellings or datatypes (the
 * comparator then orders by datatype), NaN and signed zeros, zoned against unzoned dates,
 * language strings with different tags (RDF4J orders by label first), and strings whose first
 * differing UTF-8 byte is 0xED or above (UTF-16 order, which {@code String.compareTo} uses,
 * differs from code point order for surrogates).
 * Stateless; any thread may call it.
 */
final class IdOrder {
    static final int UNKNOWN = Integer.MIN_VALUE;
    private static final int DOUBLE_CLASS_SHIFT = 57;
    private static final int FLOAT_CLASS_SHIFT = 37;
    private static final int NAN = 6;
    private static final int NEGATIVE_ZERO = 2;
    private static final int POSITIVE_ZERO = 3;
    private static final int ZONE_MASK = (1 << TermIds.ZONE_BITS) - 1;
    private static final int FIRST_UNSAFE_UTF8_BYTE = 0xED;

    private IdOrder() {
    }

    static int compare(long a, long b) {
        if (a == b) {
            return 0;
        }
        if (a == TermIds.NULL || b == TermIds.NULL) {
            return a == TermIds.NULL ? -1 : 1;
        }
        if (TermIds.isLocal(a) || TermIds.isLocal(b)) {
            return UNKNOWN;
        }
        int ca = termClass(a);
        int cb = termClass(b);
        if (ca != cb) {
            return Integer.compare(ca, cb);
        }
        int kind = TermIds.kindCode(a);
        if (kind != TermIds.kindCode(b)) {
            return UNKNOWN;
        }
        long pa = TermIds.payload(a);
        long pb = TermIds.payload(b);
        switch (kind) {
            case TermIds.KIND_BOOLEAN, TermIds.KIND_DECIMAL:
                return Long.compare(pa, pb);
            case TermIds.KIND_INTEGER:
                return decided(Long.compare(pa >>> TermIds.INTEGER_TYPE_BITS, pb >>> TermIds.INTEGER_TYPE_BITS));
            case TermIds.KIND_DOUBLE:
                return floating(pa, pb, DOUBLE_CLASS_SHIFT);
            case TermIds.KIND_FLOAT:
                return floating(pa, pb, FLOAT_CLASS_SHIFT);
            case TermIds.KIND_DATE_TIME, TermIds.KIND_DATE:
                return temporal(pa, pb);
            case TermIds.KIND_STRING:
                return text(pa, pb, TermIds.STRING_MAX_BYTES);
            case TermIds.KIND_LANG_STRING: {
                int shift = TermIds.KIND_SHIFT - TermIds.LANG_CODE_BITS;
                return pa >>> shift != pb >>> shift ? UNKNOWN
                        : text(pa, pb, TermIds.LANG_STRING_MAX_BYTES);
            }
            default:
                return UNKNOWN;
        }
    }

    /** 0 blank node, 1 IRI, 2 literal, 3 triple term: the order of SPARQL's ORDER BY and RDF4J. */
    private static int termClass(long id) {
        int kind = TermIds.kindCode(id);
        return switch (kind) {
            case TermIds.KIND_BLANK_NODE -> 0;
            case TermIds.KIND_IRI -> 1;
            case TermIds.KIND_TRIPLE -> 3;
            default -> 2;
        };
    }

    private static int decided(int c) {
        return c == 0 ? UNKNOWN : c;
    }

    private static int floating(long pa, long pb, int classShift) {
        int ka = (int) (pa >>> classShift) & 7;
        int kb = (int) (pb >>> classShift) & 7;
        if (ka == NAN || kb == NAN || isZero(ka) && isZero(kb)) {
            return UNKNOWN;
        }
        return Long.compare(pa, pb);
    }

    private static boolean isZero(int floatClass) {
        return floatClass == NEGATIVE_ZERO || floatClass == POSITIVE_ZERO;
    }

    private static int temporal(long pa, long pb) {
        boolean zonedA = (pa & ZONE_MASK) != TermIds.ZONE_NONE;
        boolean zonedB = (pb & ZONE_MASK) != TermIds.ZONE_NONE;
        if (zonedA != zonedB) {
            return UNKNOWN;
        }
        return decided(Long.compare(pa >>> TermIds.ZONE_BITS, pb >>> TermIds.ZONE_BITS));
    }

    /** Short strings: {@code maxBytes} bytes above the 3-bit length, byte 0 most significant. */
    private static int text(long pa, long pb, int maxBytes) {
        long mask = (1L << (8 * maxBytes)) - 1;
        long ba = (pa >>> TermIds.LENGTH_BITS) & mask;
        long bb = (pb >>> TermIds.LENGTH_BITS) & mask;
        if (ba == bb) {
            return Long.compare(pa & 7, pb & 7);
        }
        int shift = 63 - Long.numberOfLeadingZeros(ba ^ bb);
        shift -= shift % 8;
        int x = (int) (ba >>> shift) & 0xFF;
        int y = (int) (bb >>> shift) & 0xFF;
        if (x >= FIRST_UNSAFE_UTF8_BYTE || y >= FIRST_UNSAFE_UTF8_BYTE) {
            return UNKNOWN;
        }
        return Integer.compare(x, y);
    }
}
