package dev.basalt.store.lexicon;

/**
 * The layout of a 64-bit term id: the one table of named constants for it. The byte-level
 * specification is docs/FORMAT.md section 4; a change here is a change of {@link #FORMAT_VERSION}.
 *
 * <pre>
 *  bits 63..60  kind nibble          bits 59..0  payload (60 bits)
 *  0x0  reserved ids                 0 = NULL, 1 = DEFAULT_GRAPH; bit 59 set = query-local
 *                                    term (a computed value, never stored); the rest reserved
 *  0x1  blank node   (dictionary)    counter 1 .. 2^59-1 (2^59 up: transaction-pending, never stored)
 *  0x2  IRI          (dictionary)    counter
 *  0x3  literal      (dictionary)    counter
 *  0x4  xsd:string   (inline)        7 bytes of UTF-8, zero padded, then 3-bit length
 *  0x5  rdf:langString (inline)      6-bit language code, 3 zero bits, 6 bytes, 3-bit length
 *  0x6  xsd:boolean  (inline)        0 = false, 1 = true
 *  0x7  integer family (inline)      56-bit value + 2^55, then 4-bit datatype code
 *  0x8  xsd:decimal  (inline)        2-bit sign class, 8-bit exponent, 15 decimal digits
 *  0x9  xsd:float    (inline)        3-bit class, 7-bit exponent, 9 decimal digits
 *  0xA  xsd:double   (inline)        3-bit class, 10-bit exponent, 14 decimal digits
 *  0xB  xsd:dateTime (inline)        53-bit instant in ms + 2^52, then 7-bit timezone code
 *  0xC  xsd:date     (inline)        53-bit start instant in quarter hours + 2^52, 7-bit zone
 *  0xD, 0xE  reserved for inline types of a later format version
 *  0xF  RDF-star triple term (dictionary)  counter
 * </pre>
 *
 * <p>Contract: every id of an inline kind decodes to exactly one RDF term and back, and within
 * one inline kind {@code Long.compareUnsigned} of two ids has the sign of the XSD value
 * comparison (exceptions where XSD is silent or calls values equal are listed in the doc). Kinds
 * are ordered as SPARQL's ORDER BY orders term classes: blank nodes, IRIs, literals.
 * Dictionary ids carry no order beyond allocation order.
 *
 * <p>Constants and pure functions; any thread may call it.
 */
public final class TermIds {
    /**
     * Version of the id layout, every inline encoding and the stored forms of dictionary values;
     * stored by the lexicon's owner. Version 3 added Zstandard dictionaries (ID2TERM form 0x0A).
     */
    public static final int FORMAT_VERSION = 3;
    /** Oldest version this Basalt reads: a version-2 store is a version-3 store without dictionaries. */
    public static final int OLDEST_READABLE_FORMAT_VERSION = 2;

    public static final int KIND_SHIFT = 60;
    public static final long PAYLOAD_MASK = (1L << KIND_SHIFT) - 1;

    public static final int KIND_RESERVED = 0x0;
    public static final int KIND_BLANK_NODE = 0x1;
    public static final int KIND_IRI = 0x2;
    public static final int KIND_LITERAL = 0x3;
    public static final int KIND_STRING = 0x4;
    public static final int KIND_LANG_STRING = 0x5;
    public static final int KIND_BOOLEAN = 0x6;
    public static final int KIND_INTEGER = 0x7;
    public static final int KIND_DECIMAL = 0x8;
    public static final int KIND_FLOAT = 0x9;
    public static final int KIND_DOUBLE = 0xA;
    public static final int KIND_DATE_TIME = 0xB;
    public static final int KIND_DATE = 0xC;
    public static final int KIND_TRIPLE = 0xF;

    /** No term; never stored as a term, used as "unbound" in rows and as a key sentinel. */
    public static final long NULL = 0L;
    /** Context id of the default graph; sorts before every real context. */
    public static final long DEFAULT_GRAPH = 1L;
    /**
     * First query-local id: ids from here to the end of kind 0x0 name values a query computed
     * (BIND, aggregates, VALUES) that the store does not hold. They live only in one evaluation's
     * rows, never in a file, and never equal the id of a stored term.
     */
    public static final long FIRST_LOCAL = 1L << (KIND_SHIFT - 1);
    /**
     * First transaction-pending counter: a dictionary kind's counters from here up are never
     * allocated in a file. An id of a dictionary kind with such a counter names a term that an open
     * transaction added but did not commit yet; it lives only in one query evaluation inside that
     * transaction and keeps the term's kind, so id-level type tests stay exact.
     */
    public static final long FIRST_PENDING_COUNTER = 1L << (KIND_SHIFT - 1);
    /** Largest counter a dictionary kind can allocate: the counters above are the pending ones. */
    public static final long MAX_COUNTER = FIRST_PENDING_COUNTER - 1;

    /** Short strings: up to 7 UTF-8 bytes in bits 58..3, byte count in bits 2..0. */
    public static final int STRING_MAX_BYTES = 7;
    public static final int LENGTH_BITS = 3;
    /** Language-tagged short strings: language code in bits 59..54, bytes in 50..3. */
    public static final int LANG_STRING_MAX_BYTES = 6;
    public static final int LANG_CODE_BITS = 6;

    /** Integer family: payload = ((value + INTEGER_BIAS) << INTEGER_TYPE_BITS) | datatype code. */
    public static final int INTEGER_TYPE_BITS = 4;
    public static final long INTEGER_MIN = -(1L << 55);
    public static final long INTEGER_MAX = (1L << 55) - 1;
    public static final long INTEGER_BIAS = 1L << 55;

    /** Decimal: class (0 negative, 1 zero, 2 positive), exponent + 128, digits left aligned. */
    public static final int DECIMAL_EXPONENT_BITS = 8;
    public static final int DECIMAL_DIGITS = 15;
    public static final int DECIMAL_SIGNIFICAND_BITS = 50;

    /** Double and float: class 0 -INF, 1 negative, 2 -0, 3 +0, 4 positive, 5 +INF, 6 NaN. */
    public static final int DOUBLE_EXPONENT_BITS = 10;
    public static final int DOUBLE_DIGITS = 14;
    public static final int DOUBLE_SIGNIFICAND_BITS = 47;
    /** Every float's canonical form has at most 9 digits and a decimal exponent in [-44, 39]. */
    public static final int FLOAT_EXPONENT_BITS = 7;
    public static final int FLOAT_DIGITS = 9;
    public static final int FLOAT_SIGNIFICAND_BITS = 30;

    /** Timezone code: 0 = no timezone, else offset in quarter hours + 57 (so Z = 57). */
    public static final int ZONE_BITS = 7;
    public static final int ZONE_NONE = 0;
    public static final int ZONE_BIAS = 57;
    /** dateTime instants (ms) and date start instants (quarter hours) are biased by this. */
    public static final long TIME_BIAS = 1L << 52;
    public static final long TIME_LIMIT = 1L << 53;

    private TermIds() {
    }

    public static int kindCode(long id) {
        return (int) (id >>> KIND_SHIFT);
    }

    public static TermKind kind(long id) {
        return TermKind.ofCode(kindCode(id));
    }

    public static long payload(long id) {
        return id & PAYLOAD_MASK;
    }

    /** Builds an id from a kind nibble and a payload that must fit in 60 bits. */
    public static long make(int kindCode, long payload) {
        if (kindCode < 0 || kindCode > 0xF || (payload & ~PAYLOAD_MASK) != 0) {
            throw new IllegalArgumentException("no term id for kind " + kindCode + " payload " + payload);
        }
        return ((long) kindCode << KIND_SHIFT) | payload;
    }

    /** Smallest id of a kind: with {@link #lastId(int)} it bounds a key range over that kind. */
    public static long firstId(int kindCode) {
        return make(kindCode, 0);
    }

    public static long lastId(int kindCode) {
        return make(kindCode, PAYLOAD_MASK);
    }

    /** Whether the id names an IRI, a blank node or a triple term: what may stand in subject position. */
    public static boolean isResource(long id) {
        int kind = kindCode(id);
        return kind == KIND_IRI || kind == KIND_BLANK_NODE || kind == KIND_TRIPLE;
    }

    /** Whether the id names a query-local computed value (see {@link #FIRST_LOCAL}). */
    public static boolean isLocal(long id) {
        return id >= FIRST_LOCAL && id <= PAYLOAD_MASK;
    }

    /** Whether the id names a transaction-pending term (see {@link #FIRST_PENDING_COUNTER}). */
    public static boolean isPending(long id) {
        return kindCode(id) != KIND_RESERVED && !isInline(id) && payload(id) >= FIRST_PENDING_COUNTER;
    }

    public static boolean isInline(long id) {
        return kind(id).isInline();
    }

    public static String describe(long id) {
        return String.format("0x%016x (%s)", id, kind(id));
    }
}
