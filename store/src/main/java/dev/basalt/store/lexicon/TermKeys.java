package dev.basalt.store.lexicon;

import java.util.Optional;
import java.util.function.LongFunction;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;

/**
 * The byte encoding of a dictionary term: its TERM2ID key (for terms whose key exceeds
 * {@link LargeTermKeys#THRESHOLD}, TERM2ID holds a hashed key instead) and what its ID2TERM value
 * restores ({@link TermValues}; tags 0x08 and 0x09 are taken there). Byte 0 is a tag; the rest
 * depends on it, and a field is length-prefixed only when another field follows it, so the
 * encoding is injective and {@code decode(encode(v)).equals(v)}:
 *
 * <pre>
 *  0x01 blank node      UTF-8 of the blank node id
 *  0x02 IRI             UTF-8 of the IRI
 *  0x03 xsd:string      UTF-8 of the label
 *  0x04 language tagged varint n, n bytes of the normalized tag, UTF-8 of the label
 *  0x05 known datatype  1-byte code from the frozen datatype table, UTF-8 of the label
 *  0x06 other datatype  varint n, n bytes UTF-8 of the datatype IRI, UTF-8 of the label
 *  0x07 triple term     subject, predicate, object ids, 8 bytes each, big-endian
 * </pre>
 *
 * UTF-8 here is {@link Utf8}'s lossless variant. Language tags are normalized by
 * {@link LanguageTags#normalize}, so "x"@EN and "x"@en have one key and decode as "x"@en. A
 * triple term is keyed by its component ids, which the caller resolves first (inner terms before
 * outer ones). Any term can be encoded; the lexicon stores only those that are not inline.
 *
 * <p>Stateless; any thread may call it.
 */
public final class TermKeys {
    public static final byte BLANK_NODE = 0x01;
    public static final byte IRI = 0x02;
    public static final byte STRING = 0x03;
    public static final byte LANG_STRING = 0x04;
    public static final byte KNOWN_DATATYPE = 0x05;
    public static final byte OTHER_DATATYPE = 0x06;
    public static final byte TRIPLE = 0x07;
    static final int TRIPLE_KEY_LENGTH = 25;

    private TermKeys() {
    }

    /** Key of an IRI, blank node or literal; a triple term needs {@link #encodeTriple}. */
    public static byte[] encode(Value value) {
        if (value instanceof IRI) {
            return tagged(IRI, value.stringValue());
        } else if (value instanceof BNode) {
            return tagged(BLANK_NODE, ((BNode) value).getID());
        } else if (value instanceof Literal) {
            return encodeLiteral((Literal) value);
        } else if (value instanceof Triple) {
            throw new IllegalArgumentException("a triple term is keyed by its component ids: " + value);
        }
        throw new IllegalArgumentException("not an RDF term: " + value);
    }

    /**
     * The key of an IRI ({@link #IRI}), blank node ({@link #BLANK_NODE}) or plain literal
     * ({@link #STRING}) whose text has the well-formed UTF-8 {@code utf8[from, to)}: what
     * {@link #encode} gives for the term, from bytes as a byte-level parser reads them.
     */
    public static byte[] encode(byte tag, byte[] utf8, int from, int to) {
        byte[] key = new byte[1 + to - from];
        key[0] = tag;
        System.arraycopy(utf8, from, key, 1, to - from);
        return key;
    }

    /** {@link #encode(byte, byte[], int, int)} of a literal tagged {@code language} (normalized here). */
    public static byte[] encodeLangString(String language, byte[] utf8, int from, int to) {
        return withField(LANG_STRING, LanguageTags.normalize(language), utf8, from, to);
    }

    /**
     * {@link #encode(byte, byte[], int, int)} of a literal of a datatype other than
     * {@code xsd:string} and {@code rdf:langString}.
     */
    public static byte[] encodeTyped(String datatype, byte[] utf8, int from, int to) {
        int code = KnownDatatypes.code(datatype);
        if (code == 0) {
            return withField(OTHER_DATATYPE, datatype, utf8, from, to);
        }
        byte[] key = new byte[2 + to - from];
        key[0] = KNOWN_DATATYPE;
        key[1] = (byte) code;
        System.arraycopy(utf8, from, key, 2, to - from);
        return key;
    }

    private static byte[] withField(byte tag, String field, byte[] utf8, int from, int to) {
        int n = Utf8.encodedLength(field);
        byte[] key = new byte[1 + varintLength(n) + n + to - from];
        key[0] = tag;
        int pos = writeVarint(key, 1, n);
        pos = Utf8.encode(field, key, pos);
        System.arraycopy(utf8, from, key, pos, to - from);
        return key;
    }

    public static byte[] encodeTriple(long subject, long predicate, long object) {
        byte[] key = new byte[TRIPLE_KEY_LENGTH];
        key[0] = TRIPLE;
        putLong(key, 1, subject);
        putLong(key, 9, predicate);
        putLong(key, 17, object);
        return key;
    }

    /**
     * The term a key stands for. {@code componentResolver} maps the component ids of a triple
     * term to values and is not called for other kinds.
     */
    /** A typed literal; one of xsd:decimal or a type derived from it compares by its exact value ({@link ExactNumericLiteral}). */
    private static Literal typedLiteral(String label, IRI datatype, ValueFactory vf) {
        Literal exact = ExactNumericLiteral.of(label, datatype);
        return exact != null ? exact : vf.createLiteral(label, datatype);
    }

    public static Value decode(byte[] key, ValueFactory vf, LongFunction<Value> componentResolver) {
        if (key.length == 0) {
            throw new IllegalArgumentException("empty term key");
        }
        switch (key[0]) {
            case IRI:
                return vf.createIRI(Utf8.decode(key, 1, key.length));
            case BLANK_NODE:
                return vf.createBNode(Utf8.decode(key, 1, key.length));
            case STRING:
                return vf.createLiteral(Utf8.decode(key, 1, key.length));
            case KNOWN_DATATYPE:
                requireLength(key, 2);
                return typedLiteral(Utf8.decode(key, 2, key.length), vf.createIRI(KnownDatatypes.iri(key[1] & 0xFF)), vf);
            case LANG_STRING:
            case OTHER_DATATYPE: {
                int[] pos = { 1 };
                int n = readVarint(key, pos);
                requireLength(key, pos[0] + n);
                String field = Utf8.decode(key, pos[0], pos[0] + n);
                String label = Utf8.decode(key, pos[0] + n, key.length);
                return key[0] == LANG_STRING ? vf.createLiteral(label, field)
                        : typedLiteral(label, vf.createIRI(field), vf);
            }
            case TRIPLE: {
                long[] ids = tripleIds(key);
                return vf.createTriple((Resource) componentResolver.apply(ids[0]),
                        (IRI) componentResolver.apply(ids[1]), componentResolver.apply(ids[2]));
            }
            default:
                throw new IllegalArgumentException(String.format("unknown term key tag 0x%02x", key[0]));
        }
    }

    /** Subject, predicate and object ids of a triple term key. */
    public static long[] tripleIds(byte[] key) {
        if (key.length != TRIPLE_KEY_LENGTH || key[0] != TRIPLE) {
            throw new IllegalArgumentException("not a triple term key of " + key.length + " bytes");
        }
        return new long[] { getLong(key, 1), getLong(key, 9), getLong(key, 17) };
    }

    /** The dictionary kind of a key: which {@link TermIdAllocator} counter allocates its id. */
    public static TermKind kind(byte[] key) {
        switch (key.length == 0 ? 0 : key[0]) {
            case BLANK_NODE:
                return TermKind.BLANK_NODE;
            case IRI:
                return TermKind.IRI;
            case STRING:
            case LANG_STRING:
            case KNOWN_DATATYPE:
            case OTHER_DATATYPE:
                return TermKind.LITERAL;
            case TRIPLE:
                return TermKind.TRIPLE;
            default:
                throw new IllegalArgumentException("not a term key");
        }
    }

    private static byte[] encodeLiteral(Literal literal) {
        String label = literal.getLabel();
        Optional<String> language = literal.getLanguage();
        if (language.isPresent()) {
            return withField(LANG_STRING, LanguageTags.normalize(language.get()), label);
        }
        String datatype = literal.getDatatype().stringValue();
        if (datatype.equals(XSD.STRING.stringValue())) {
            return tagged(STRING, label);
        }
        int code = KnownDatatypes.code(datatype);
        if (code == 0) {
            return withField(OTHER_DATATYPE, datatype, label);
        }
        byte[] key = new byte[2 + Utf8.encodedLength(label)];
        key[0] = KNOWN_DATATYPE;
        key[1] = (byte) code;
        Utf8.encode(label, key, 2);
        return key;
    }

    private static byte[] tagged(byte tag, String text) {
        byte[] key = new byte[1 + Utf8.encodedLength(text)];
        key[0] = tag;
        Utf8.encode(text, key, 1);
        return key;
    }

    private static byte[] withField(byte tag, String field, String label) {
        int n = Utf8.encodedLength(field);
        byte[] key = new byte[1 + varintLength(n) + n + Utf8.encodedLength(label)];
        key[0] = tag;
        int pos = writeVarint(key, 1, n);
        pos = Utf8.encode(field, key, pos);
        Utf8.encode(label, key, pos);
        return key;
    }

    static int varintLength(int n) {
        int len = 1;
        while ((n >>>= 7) != 0) {
            len++;
        }
        return len;
    }

    static int writeVarint(byte[] out, int pos, int n) {
        while ((n & ~0x7F) != 0) {
            out[pos++] = (byte) (n & 0x7F | 0x80);
            n >>>= 7;
        }
        out[pos++] = (byte) n;
        return pos;
    }

    static int readVarint(byte[] in, int[] pos) {
        int n = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            requireLength(in, pos[0] + 1);
            int b = in[pos[0]++];
            n |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (n < 0) {
                    break;
                }
                return n;
            }
        }
        throw new IllegalArgumentException("malformed length in term key");
    }

    private static void requireLength(byte[] key, int length) {
        if (key.length < length) {
            throw new IllegalArgumentException("term key of " + key.length + " bytes is truncated");
        }
    }

    static void putLong(byte[] out, int pos, long v) {
        for (int i = 0; i < 8; i++) {
            out[pos + i] = (byte) (v >>> (56 - 8 * i));
        }
    }

    static long getLong(byte[] in, int pos) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (in[pos + i] & 0xFF);
        }
        return v;
    }
}
