package dev.basalt.store.lexicon;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.vocabulary.XSD;

/**
 * Inline {@code xsd:integer} and its twelve derived types. Payload: the value biased by
 * {@link TermIds#INTEGER_BIAS} in the upper 56 bits, the datatype code in the low
 * {@link TermIds#INTEGER_TYPE_BITS}. Ordering is value-major, so one id range covers a numeric
 * range across every integer datatype; equal values of different datatypes (distinct RDF terms)
 * sit next to each other, ordered by datatype code.
 *
 * <p>Only canonical lexical forms are inlined: optional '-', no '+', no leading zeros, no "-0".
 * A value outside [{@link TermIds#INTEGER_MIN}, {@link TermIds#INTEGER_MAX}] or outside its
 * datatype's value space (e.g. "300"^^xsd:byte, an ill-typed literal) goes to the dictionary.
 *
 * <p>Stateless (its tables are filled once, at class initialisation); any thread may call it.
 */
final class IntegerCodec {
    /** Datatypes in code order; the code of a datatype is its index. Frozen by the format version. */
    private static final IRI[] DATATYPES = {
        XSD.INTEGER, XSD.LONG, XSD.INT, XSD.SHORT, XSD.BYTE,
        XSD.NON_NEGATIVE_INTEGER, XSD.POSITIVE_INTEGER, XSD.NON_POSITIVE_INTEGER, XSD.NEGATIVE_INTEGER,
        XSD.UNSIGNED_LONG, XSD.UNSIGNED_INT, XSD.UNSIGNED_SHORT, XSD.UNSIGNED_BYTE,
    };
    private static final long[] MIN = {
        Long.MIN_VALUE, Long.MIN_VALUE, Integer.MIN_VALUE, Short.MIN_VALUE, Byte.MIN_VALUE,
        0, 1, Long.MIN_VALUE, Long.MIN_VALUE,
        0, 0, 0, 0,
    };
    private static final long[] MAX = {
        Long.MAX_VALUE, Long.MAX_VALUE, Integer.MAX_VALUE, Short.MAX_VALUE, Byte.MAX_VALUE,
        Long.MAX_VALUE, Long.MAX_VALUE, 0, -1,
        Long.MAX_VALUE, 0xFFFF_FFFFL, 0xFFFF, 0xFF,
    };
    /** 2^55 has 17 digits; a longer canonical form cannot fit. */
    private static final int MAX_DIGITS = 17;

    private IntegerCodec() {
    }

    /** Code of an integer-family datatype, or -1. */
    static int datatypeCode(IRI datatype) {
        for (int i = 0; i < DATATYPES.length; i++) {
            if (DATATYPES[i].equals(datatype)) {
                return i;
            }
        }
        return -1;
    }

    static IRI datatype(long id) {
        int code = (int) (id & ((1 << TermIds.INTEGER_TYPE_BITS) - 1));
        if (code >= DATATYPES.length) {
            throw new IllegalArgumentException("no integer datatype code " + code + " in " + TermIds.describe(id));
        }
        return DATATYPES[code];
    }

    static long encode(String label, int datatypeCode) {
        if (!isCanonical(label)) {
            return TermIds.NULL;
        }
        long value = Long.parseLong(label);
        if (value < TermIds.INTEGER_MIN || value > TermIds.INTEGER_MAX
                || value < MIN[datatypeCode] || value > MAX[datatypeCode]) {
            return TermIds.NULL;
        }
        return id(value, datatypeCode);
    }

    static long id(long value, int datatypeCode) {
        long payload = ((value + TermIds.INTEGER_BIAS) << TermIds.INTEGER_TYPE_BITS) | datatypeCode;
        return TermIds.make(TermIds.KIND_INTEGER, payload);
    }

    static long value(long id) {
        return (TermIds.payload(id) >>> TermIds.INTEGER_TYPE_BITS) - TermIds.INTEGER_BIAS;
    }

    /** Lexical form; checks the datatype code too, so a corrupt id fails here rather than later. */
    static String label(long id) {
        datatype(id);
        return Long.toString(value(id));
    }

    private static boolean isCanonical(String s) {
        int start = s.startsWith("-") ? 1 : 0;
        int digits = s.length() - start;
        if (digits < 1 || digits > MAX_DIGITS) {
            return false;
        }
        if (s.charAt(start) == '0' && (digits > 1 || start == 1)) {
            return false;
        }
        for (int i = start; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }
}
