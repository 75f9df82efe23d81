package dev.basalt.sail.load;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.XSD;

import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.LargeTermKeys;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.lexicon.TermKeys;

import static dev.basalt.sail.load.NTriplesSyntax.UNSUPPORTED;
import static dev.basalt.sail.load.NTriplesSyntax.blankNodeEnd;
import static dev.basalt.sail.load.NTriplesSyntax.iriEnd;
import static dev.basalt.sail.load.NTriplesSyntax.isLetter;
import static dev.basalt.sail.load.NTriplesSyntax.unescape;
import static dev.basalt.sail.load.NTriplesSyntax.utf8Sequence;

/**
 * Parses a chunk of N-Triples or N-Quads lines from its UTF-8 bytes straight into a
 * {@link TermBatch}: each distinct term of the chunk (distinct by its spelling) gets its inline id
 * or dictionary key without an RDF4J value or, for IRIs, blank nodes and literals without escapes,
 * a Java string. The keys equal what {@link TermKeys#encode} and {@link InlineValues#encode} give
 * for the values Rio and {@link LoadValues} would have made; literals of datatypes that may be
 * inline (numbers, dates, booleans) and literals with escapes go through those very methods.
 *
 * <p>What it accepts is a subset of what Rio's N-Triples/N-Quads parser with {@link LoadValues}
 * accepts: the W3C grammar with IRIs as {@link LoadValues} checks them, ASCII blank node labels
 * without dots, language tags that Rio accepts unchanged ({@link LanguageTagCheck}), well-formed
 * UTF-8, no RDF-star. On anything else (a malformed line, an unusual but valid one, a byte order
 * mark) {@link #parse} returns null and the caller parses the chunk with Rio, which then reports
 * the error with its line or parses what this parser left to it. So every chunk gets exactly the
 * statements and errors Rio would give it.
 *
 * <p>The lexical rules (where a token ends, which bytes it may hold, escapes) are
 * {@link NTriplesSyntax}'s; this class holds the line grammar, the chunk's term table and the
 * encodings.
 *
 * <p>Thread rules: one instance per chunk parse, on one parser thread.
 */
final class NTriplesBytes {
    private static final String XSD_STRING = XSD.STRING.stringValue();
    private static final String RDF_LANG_STRING = RDF.LANGSTRING.stringValue();
    /** Eight bytes of a spelling read as one long, for {@link #hash}. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final boolean quads;
    private final Resource target;
    private final LoadValues values;
    private final byte[] blankPrefix;

    private byte[] b;
    private int end;
    private int pos;

    /** The terms: spelling {@code b[start, stop)}, hash of it, and their encodings. */
    private int[] start = new int[1024];
    private int[] stop = new int[1024];
    private int[] hashes = new int[1024];
    private long[] inline = new long[1024];
    private byte[][] keys = new byte[1024][];
    private byte[][] largePrefixes = new byte[1024][];
    private int terms;
    /** Open addressing over the terms by spelling: term index + 1, 0 for empty. */
    private int[] table = new int[4096];
    private int[] refs = new int[4 * 1024];
    private int size;
    private int targetRef = -1;
    /** The last datatype seen, as bytes and as a string, so a run of one datatype decodes it once. */
    private byte[] lastDatatypeBytes = new byte[0];
    private String lastDatatype = "";
    private final StringBuilder text = new StringBuilder();

    /**
     * @param quads  the chunk is N-Quads (a fourth term names the graph)
     * @param target the context of every statement, or null for the one the input gives
     * @param values the file's value factory: its blank node prefix, and the factory of the
     *               literals that go through {@link InlineValues#encode}
     */
    NTriplesBytes(boolean quads, Resource target, LoadValues values) {
        this.quads = quads;
        this.target = target;
        this.values = values;
        this.blankPrefix = values.blankNodePrefix().getBytes(StandardCharsets.UTF_8);
    }

    /** The statements of {@code bytes[0, length)}, whole lines; null if Rio must parse the chunk. */
    TermBatch parse(byte[] bytes, int length) {
        b = bytes;
        end = length;
        pos = 0;
        // sized for lines of about 192 bytes, so a chunk's references rarely grow (and its array
        // stays under the size the collector allocates as humongous, for chunks of a few MiB)
        refs = new int[Math.max(refs.length, 4 * (length / 192 + 16))];
        if (length >= 3 && (b[0] & 0xFF) == 0xEF && (b[1] & 0xFF) == 0xBB && (b[2] & 0xFF) == 0xBF) {
            return null; // a byte order mark: Rio skips it
        }
        try {
            if (target != null) {
                targetRef = addTerm(-1, -1, 0);
                keys[targetRef] = TermKeys.encode(target);
                largeKey(targetRef);
            }
            while (pos < end) {
                line();
            }
        } catch (NTriplesSyntax.Unsupported e) {
            return null;
        }
        Value[] termValues = new Value[terms];
        if (target != null) {
            termValues[targetRef] = target;
        }
        return new TermBatch(Arrays.asList(termValues), inline, keys, largePrefixes, refs, size, Map.of());
    }

    private void line() {
        skipSpaces();
        if (pos == end) {
            return;
        }
        byte c = b[pos];
        if (c == '\n' || c == '\r') {
            pos++;
            return;
        }
        if (c == '#') {
            skipComment();
            return;
        }
        if (4 * size + 4 > refs.length) {
            refs = Arrays.copyOf(refs, refs.length + refs.length / 2);
        }
        int at = 4 * size;
        refs[at] = resource();
        skipSpaces();
        refs[at + 1] = iri();
        skipSpaces();
        refs[at + 2] = object();
        skipSpaces();
        int graph = TermBatch.DEFAULT_GRAPH;
        if (quads && pos < end && b[pos] != '.') {
            if (target != null) {
                pos = b[pos] == '_' ? blankNodeEnd(b, pos, end) : iriEnd(b, pos, end) + 1; // checked, not kept
            } else {
                graph = resource();
            }
            skipSpaces();
        }
        refs[at + 3] = target != null ? targetRef : graph;
        if (pos == end || b[pos] != '.') {
            throw UNSUPPORTED;
        }
        pos++;
        skipSpaces();
        if (pos < end) {
            c = b[pos];
            if (c == '#') {
                skipComment();
            } else if (c != '\n' && c != '\r') {
                throw UNSUPPORTED;
            }
        }
        size++;
    }

    private void skipSpaces() {
        while (pos < end && (b[pos] == ' ' || b[pos] == '\t')) {
            pos++;
        }
    }

    private void skipComment() {
        while (pos < end && b[pos] != '\n' && b[pos] != '\r') {
            pos++;
        }
    }

    /** An IRI or a blank node. */
    private int resource() {
        if (pos < end && b[pos] == '_') {
            return blankNode();
        }
        return iri();
    }

    private int object() {
        if (pos < end && b[pos] == '"') {
            return literal();
        }
        return resource();
    }

    private int iri() {
        int from = pos;
        int close = iriEnd(b, pos, end);
        pos = close + 1;
        int t = find(from, pos);
        if (t < 0) {
            t = addTerm(from, pos, -t - 1);
            keys[t] = TermKeys.encode(TermKeys.IRI, b, from + 1, close);
            largeKey(t);
        }
        return t;
    }

    private int blankNode() {
        int from = pos;
        int i = blankNodeEnd(b, pos, end);
        pos = i;
        int t = find(from, i);
        if (t < 0) {
            t = addTerm(from, i, -t - 1);
            int labelLength = i - from - 2;
            byte[] key = new byte[1 + blankPrefix.length + labelLength];
            key[0] = TermKeys.BLANK_NODE;
            System.arraycopy(blankPrefix, 0, key, 1, blankPrefix.length);
            System.arraycopy(b, from + 2, key, 1 + blankPrefix.length, labelLength);
            keys[t] = key;
            largeKey(t);
        }
        return t;
    }

    private int literal() {
        int from = pos;
        int i = pos + 1;
        boolean escaped = false;
        while (true) {
            if (i >= end) {
                throw UNSUPPORTED;
            }
            int c = b[i] & 0xFF;
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                escaped = true;
                i += 2;
            } else if (c == '\n' || c == '\r') {
                throw UNSUPPORTED;
            } else if (c < 0x80) {
                i++;
            } else {
                i += utf8Sequence(b, i, end);
            }
        }
        int labelEnd = i;
        i++;
        int tagFrom = -1;
        int tagEnd = -1;
        int datatypeEnd = -1;
        if (i < end && b[i] == '@') {
            tagFrom = i + 1;
            int j = tagFrom;
            if (j >= end || !isLetter(b[j])) {
                throw UNSUPPORTED;
            }
            while (j < end && (isLetter(b[j]) || (b[j] >= '0' && b[j] <= '9') || b[j] == '-')) {
                j++;
            }
            if (j >= end || (b[j] != ' ' && b[j] != '\t' && b[j] != '.')) {
                throw UNSUPPORTED;
            }
            tagEnd = j;
            i = j;
        } else if (i + 1 < end && b[i] == '^' && b[i + 1] == '^') {
            datatypeEnd = iriEnd(b, i + 2, end);
            i = datatypeEnd + 1;
        }
        pos = i;
        int t = find(from, i);
        if (t >= 0) {
            return t;
        }
        t = addTerm(from, i, -t - 1);
        newLiteral(t, from, labelEnd, tagFrom, tagEnd, datatypeEnd, escaped);
        return t;
    }

    /**
     * Encodes the new literal term {@code t} (label {@code b[from + 1, labelEnd)}). Apart from
     * {@link #literal()}, whose scan is hot for every literal, so that the JIT compiles the two
     * separately: this one inlines the inline-value encoders, and a deoptimization in them
     * recompiles only this method.
     */
    private void newLiteral(int t, int from, int labelEnd, int tagFrom, int tagEnd, int datatypeEnd, boolean escaped) {
        if (tagFrom >= 0) {
            String tag = new String(b, tagFrom, tagEnd - tagFrom, StandardCharsets.ISO_8859_1);
            if (!LanguageTagCheck.accepts(tag)) {
                throw UNSUPPORTED;
            }
            if (escaped) {
                encode(t, values.createLiteral(unescape(b, from + 1, labelEnd, end, text), tag));
            } else {
                inline[t] = InlineValues.encodeLangString(b, from + 1, labelEnd, tag);
                if (inline[t] == TermIds.NULL) {
                    keys[t] = TermKeys.encodeLangString(tag, b, from + 1, labelEnd);
                }
            }
        } else if (datatypeEnd >= 0) {
            String datatype = datatype(labelEnd + 4, datatypeEnd);
            if (datatype.equals(RDF_LANG_STRING)) {
                throw UNSUPPORTED;
            }
            IRI datatypeIri = values.createIRI(datatype);
            if (datatype.equals(XSD_STRING) && !escaped) {
                plain(t, from + 1, labelEnd);
            } else if (escaped || InlineValues.mayInline(datatypeIri)) {
                String label = escaped ? unescape(b, from + 1, labelEnd, end, text)
                        : new String(b, from + 1, labelEnd - from - 1, StandardCharsets.UTF_8);
                encode(t, values.createLiteral(label, datatypeIri));
            } else {
                keys[t] = TermKeys.encodeTyped(datatype, b, from + 1, labelEnd);
            }
        } else if (escaped) {
            encode(t, values.createLiteral(unescape(b, from + 1, labelEnd, end, text)));
        } else {
            plain(t, from + 1, labelEnd);
        }
        largeKey(t);
    }

    private void plain(int t, int from, int to) {
        inline[t] = InlineValues.encodeString(b, from, to);
        if (inline[t] == TermIds.NULL) {
            keys[t] = TermKeys.encode(TermKeys.STRING, b, from, to);
        }
    }

    /** Encodes a literal made as Rio would make it, by the methods the value path uses. */
    private void encode(int t, Literal literal) {
        inline[t] = InlineValues.encode(literal);
        if (inline[t] == TermIds.NULL) {
            keys[t] = TermKeys.encode(literal);
        }
    }

    private String datatype(int from, int to) {
        int n = to - from;
        if (n != lastDatatypeBytes.length || !Arrays.equals(b, from, to, lastDatatypeBytes, 0, n)) {
            lastDatatypeBytes = Arrays.copyOfRange(b, from, to);
            lastDatatype = new String(lastDatatypeBytes, StandardCharsets.UTF_8);
        }
        return lastDatatype;
    }

    private void largeKey(int t) {
        byte[] key = keys[t];
        largePrefixes[t] = key != null && LargeTermKeys.isLarge(key) ? LargeTermKeys.prefix(key) : null;
    }

    /** The term spelled {@code b[from, to)}, or {@code -(slot + 1)} for its free table slot. */
    private int find(int from, int to) {
        int h = hash(from, to);
        int mask = table.length - 1;
        for (int slot = h & mask;; slot = (slot + 1) & mask) {
            int entry = table[slot];
            if (entry == 0) {
                lastHash = h;
                return -(slot + 1);
            }
            int t = entry - 1;
            if (hashes[t] == h && Arrays.equals(b, start[t], stop[t], b, from, to)) {
                return t;
            }
        }
    }

    private int lastHash;

    /** A new term spelled {@code b[from, to)} in table slot {@code slot} (the one {@link #find} gave). */
    private int addTerm(int from, int to, int slot) {
        int t = terms++;
        if (t == start.length) {
            int n = 2 * t;
            start = Arrays.copyOf(start, n);
            stop = Arrays.copyOf(stop, n);
            hashes = Arrays.copyOf(hashes, n);
            inline = Arrays.copyOf(inline, n);
            keys = Arrays.copyOf(keys, n);
            largePrefixes = Arrays.copyOf(largePrefixes, n);
        }
        start[t] = from;
        stop[t] = to;
        inline[t] = TermIds.NULL;
        if (from < 0) {
            return t; // the target context: not in the table
        }
        hashes[t] = lastHash;
        table[slot] = t + 1;
        if (2 * terms > table.length) {
            rehash();
        }
        return t;
    }

    private void rehash() {
        table = new int[2 * table.length];
        int mask = table.length - 1;
        for (int t = 0; t < terms; t++) {
            if (start[t] < 0) {
                continue;
            }
            int slot = hashes[t] & mask;
            while (table[slot] != 0) {
                slot = (slot + 1) & mask;
            }
            table[slot] = t + 1;
        }
    }

    /**
     * A hash of the spelling {@code b[from, to)}, for this chunk's table only: eight bytes at a
     * time (a multiplication each, where a byte at a time made a chain of dependent steps per
     * byte), then a finalising mix so that every byte reaches the low bits the table uses.
     */
    private int hash(int from, int to) {
        long h = to - from;
        int i = from;
        for (; i + 8 <= to; i += 8) {
            h = (h ^ (long) LONGS.get(b, i)) * 0x9E3779B97F4A7C15L;
        }
        long tail = 0;
        for (int shift = 0; i < to; i++, shift += 8) {
            tail |= (b[i] & 0xFFL) << shift;
        }
        h = (h ^ tail) * 0x9E3779B97F4A7C15L;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return (int) (h ^ (h >>> 33));
    }


}
