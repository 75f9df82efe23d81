package dev.basalt.store.lexicon;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.XSD;

/**
 * Literals whose value is held in the term id itself (see {@link TermIds} for the layout).
 *
 * <p>Contract: {@link #encode(Literal)} returns {@link TermIds#NULL} unless the literal can be
 * inlined <em>exactly</em>; then {@link #decode} returns a literal with the identical label and
 * datatype (language tags normalized by {@link LanguageTags#normalize}), so
 * {@code decode(encode(l)).equals(l)}. RDF literal identity is lexical, so only canonical
 * spellings are inlined ("1"^^xsd:integer is, "01" and "+1" are not); any literal not inlined
 * belongs in the dictionary. Within one inline kind, ids compare unsigned as values do; across
 * kinds the id order means nothing. Stateless and thread-safe.
 */
public final class InlineValues {
    private static final int STRING = -2;
    private static final int BOOLEAN = -3;
    private static final int DECIMAL = -4;
    private static final int FLOAT = -5;
    private static final int DOUBLE = -6;
    private static final int DATE_TIME = -7;
    private static final int DATE = -8;
    /** Inline datatype → integer-family code (0..12) or one of the negative markers above. */
    private static final Map<IRI, Integer> DATATYPES = new HashMap<>();

    static {
        DATATYPES.put(XSD.STRING, STRING);
        DATATYPES.put(XSD.BOOLEAN, BOOLEAN);
        DATATYPES.put(XSD.DECIMAL, DECIMAL);
        DATATYPES.put(XSD.FLOAT, FLOAT);
        DATATYPES.put(XSD.DOUBLE, DOUBLE);
        DATATYPES.put(XSD.DATETIME, DATE_TIME);
        DATATYPES.put(XSD.DATE, DATE);
        for (IRI dt : new IRI[] { XSD.INTEGER, XSD.LONG, XSD.INT, XSD.SHORT, XSD.BYTE,
                XSD.NON_NEGATIVE_INTEGER, XSD.POSITIVE_INTEGER, XSD.NON_POSITIVE_INTEGER,
                XSD.NEGATIVE_INTEGER, XSD.UNSIGNED_LONG, XSD.UNSIGNED_INT, XSD.UNSIGNED_SHORT,
                XSD.UNSIGNED_BYTE }) {
            DATATYPES.put(dt, IntegerCodec.datatypeCode(dt));
        }
    }

    private InlineValues() {
    }

    /** The inline id of a value, or {@link TermIds#NULL} if it is not a literal or not inlinable. */
    public static long encode(Value value) {
        return value instanceof Literal ? encode((Literal) value) : TermIds.NULL;
    }

    public static long encode(Literal literal) {
        String label = literal.getLabel();
        Optional<String> language = literal.getLanguage();
        if (language.isPresent()) {
            return StringCodec.encodeLangString(label, language.get());
        }
        Integer type = DATATYPES.get(literal.getDatatype());
        if (type == null) {
            return TermIds.NULL;
        }
        switch (type) {
            case STRING:
                return StringCodec.encodeString(label);
            case BOOLEAN:
                return label.equals("true") ? TermIds.make(TermIds.KIND_BOOLEAN, 1)
                        : label.equals("false") ? TermIds.make(TermIds.KIND_BOOLEAN, 0) : TermIds.NULL;
            case DECIMAL:
                return DecimalCodec.encode(label);
            case FLOAT:
                return FloatingCodec.encodeFloat(label);
            case DOUBLE:
                return FloatingCodec.encodeDouble(label);
            case DATE_TIME:
                return TemporalCodec.encodeDateTime(label);
            case DATE:
                return TemporalCodec.encodeDate(label);
            default:
                return IntegerCodec.encode(label, type);
        }
    }

    /**
     * {@link #encode(Literal)} of a plain ({@code xsd:string}) literal given by the well-formed
     * UTF-8 of its label, {@code utf8[from, to)} (a byte-level parser's input), without a string.
     */
    public static long encodeString(byte[] utf8, int from, int to) {
        return StringCodec.encodeString(utf8, from, to);
    }

    /** {@link #encodeString(byte[], int, int)} of a literal tagged {@code language}. */
    public static long encodeLangString(byte[] utf8, int from, int to, String language) {
        return StringCodec.encodeLangString(utf8, from, to, language);
    }

    /** True if literals of this datatype may have inline ids ({@link #encode(Literal)} looks at their label). */
    public static boolean mayInline(IRI datatype) {
        return DATATYPES.containsKey(datatype);
    }

    /** The literal an inline id stands for; fails on an id that is not inline. */
    public static Literal decode(long id, ValueFactory vf) {
        if (kind(id) == TermKind.LANG_STRING) {
            return vf.createLiteral(StringCodec.decodeLangText(id), StringCodec.decodeLanguage(id));
        }
        return vf.createLiteral(label(id), datatype(id));
    }

    public static boolean isInline(long id) {
        return TermIds.isInline(id);
    }

    public static TermKind kind(long id) {
        return TermIds.kind(id);
    }

    /** Datatype of an inline id, without materializing the literal. */
    public static IRI datatype(long id) {
        switch (requireInline(id)) {
            case STRING:
                return XSD.STRING;
            case LANG_STRING:
                return RDF.LANGSTRING;
            case BOOLEAN:
                return XSD.BOOLEAN;
            case INTEGER:
                return IntegerCodec.datatype(id);
            case DECIMAL:
                return XSD.DECIMAL;
            case FLOAT:
                return XSD.FLOAT;
            case DOUBLE:
                return XSD.DOUBLE;
            case DATE_TIME:
                return XSD.DATETIME;
            case DATE:
                return XSD.DATE;
            default:
                throw notInline(id);
        }
    }

    /** Lexical form of an inline id (for a language-tagged string, its text). */
    public static String label(long id) {
        switch (requireInline(id)) {
            case STRING:
                return StringCodec.decodeString(id);
            case LANG_STRING:
                return StringCodec.decodeLangText(id);
            case BOOLEAN:
                return booleanValue(id) ? "true" : "false";
            case INTEGER:
                return IntegerCodec.label(id);
            case DECIMAL:
                return DecimalCodec.label(id);
            case FLOAT:
            case DOUBLE:
                return FloatingCodec.label(id);
            case DATE_TIME:
                return TemporalCodec.dateTimeLabel(id);
            case DATE:
                return TemporalCodec.dateLabel(id);
            default:
                throw notInline(id);
        }
    }

    /** Language tag (normalized) of an inline language-tagged string, else empty. */
    public static Optional<String> language(long id) {
        return kind(id) == TermKind.LANG_STRING ? Optional.of(StringCodec.decodeLanguage(id)) : Optional.empty();
    }

    public static boolean booleanValue(long id) {
        long payload = TermIds.payload(id);
        if (kind(id) != TermKind.BOOLEAN || payload > 1) {
            throw new IllegalArgumentException("not an inline boolean: " + TermIds.describe(id));
        }
        return payload == 1;
    }

    /** Value of an inline integer-family id. */
    public static long integerValue(long id) {
        if (kind(id) != TermKind.INTEGER) {
            throw new IllegalArgumentException("not an inline integer: " + TermIds.describe(id));
        }
        return IntegerCodec.value(id);
    }

    /** Exact value of an inline integer or decimal id. */
    public static BigDecimal decimalValue(long id) {
        switch (kind(id)) {
            case INTEGER:
                return BigDecimal.valueOf(IntegerCodec.value(id));
            case DECIMAL:
                return DecimalCodec.value(id);
            default:
                throw new IllegalArgumentException("not an inline integer or decimal: " + TermIds.describe(id));
        }
    }

    /** Value of an inline float or double id (a float widened exactly). */
    public static double doubleValue(long id) {
        switch (kind(id)) {
            case FLOAT:
            case DOUBLE:
                return FloatingCodec.value(id);
            default:
                throw new IllegalArgumentException("not an inline float or double: " + TermIds.describe(id));
        }
    }

    /** True if both ids are inline of one kind, so {@link #compare} orders them by value. */
    public static boolean comparable(long a, long b) {
        return TermIds.kindCode(a) == TermIds.kindCode(b) && isInline(a);
    }

    /**
     * Value order of two inline ids of one kind: the sign of the XSD comparison, with ties between
     * distinct terms of equal value (1 and 1^^xsd:int, -0.0 and 0.0, one instant at two offsets)
     * broken by id. This is simply unsigned id order; it exists to say so in one place.
     */
    public static int compare(long a, long b) {
        if (!comparable(a, b)) {
            throw new IllegalArgumentException("not inline ids of one kind: " + TermIds.describe(a)
                    + ", " + TermIds.describe(b));
        }
        return Long.compareUnsigned(a, b);
    }

    /** Smallest integer-family id whose value is {@code value}; see {@link #lastIntegerId}. */
    public static long firstIntegerId(long value) {
        requireIntegerRange(value);
        return IntegerCodec.id(value, 0);
    }

    /** Largest integer-family id whose value is {@code value}: [first, last] covers all datatypes. */
    public static long lastIntegerId(long value) {
        requireIntegerRange(value);
        return IntegerCodec.id(value, (1 << TermIds.INTEGER_TYPE_BITS) - 1);
    }

    /** Smallest dateTime id at a UTC instant in ms (unzoned values counted as UTC). */
    public static long firstDateTimeId(long epochMillis) {
        return TemporalCodec.firstIdAt(TermIds.KIND_DATE_TIME, epochMillis);
    }

    public static long lastDateTimeId(long epochMillis) {
        return TemporalCodec.lastIdAt(TermIds.KIND_DATE_TIME, epochMillis);
    }

    /** UTC instant in ms of an inline dateTime id (an unzoned value read as UTC). */
    public static long dateTimeInstant(long id) {
        if (kind(id) != TermKind.DATE_TIME) {
            throw new IllegalArgumentException("not an inline dateTime: " + TermIds.describe(id));
        }
        return TemporalCodec.instant(id);
    }

    private static void requireIntegerRange(long value) {
        if (value < TermIds.INTEGER_MIN || value > TermIds.INTEGER_MAX) {
            throw new IllegalArgumentException("integer " + value + " is outside the inline range");
        }
    }

    private static TermKind requireInline(long id) {
        TermKind kind = kind(id);
        if (!kind.isInline()) {
            throw notInline(id);
        }
        return kind;
    }

    private static IllegalArgumentException notInline(long id) {
        return new IllegalArgumentException("not an inline literal id: " + TermIds.describe(id));
    }
}
