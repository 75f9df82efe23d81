package dev.basalt.sail.query;

import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;

/**
 * A SPARQL query split into its shape and its constants: the tokens that decide how the query
 * parses (keywords, variables, punctuation, prologue, function names, LIMIT/OFFSET, datatypes and
 * language tags) form the {@link #key()}, and the plain constants in between (absolute IRIs,
 * prefixed names, strings without escapes, unsigned numbers) are {@link Slot}s. Two queries with
 * the same key parse to the same algebra up to those constants; {@link QueryFront} parses
 * the first of them and then only substitutes.
 *
 * <p>The lexer follows the SPARQL 1.1 grammar's terminals closely enough to find token
 * boundaries; anything it is unsure about stays in the key (a string with an escape, a relative
 * IRI, a prefixed name with an escape or an undeclared prefix, a signed number) and makes the key
 * more specific, never wrong. Queries it cannot split safely ({@code \\u} escapes, which the
 * parser expands before tokenizing, {@code SERVICE}, whose text RDF4J keeps, an unterminated
 * token) have no shape. Whether substitution reproduces the parser's algebra is checked per shape
 * by {@link QueryTemplate#make}, not assumed here.
 *
 * <p>Its lexer ({@link ShapeLexer}) reads a query into its shape on every query, so a shape holds offsets into
 * the query's text: a slot and a prefix declaration are read as strings only when a constant's
 * value is made ({@link #constants}, for a kept plan without a template of its own per query).
 *
 * <p>Thread rules: immutable once built, so the query front door shares a shape between concurrent connections;
 * a lexer is made per query and used only by the thread that reads that query.
 */
final class QueryShape {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    enum Kind {
        IRI, PREFIXED_NAME, STRING, INTEGER, DECIMAL, DOUBLE
    }

    /**
     * A constant of the query: {@code start..end} is the part of the query a sentinel replaces (an
     * IRI with its brackets, the characters inside a string's quotes, a prefixed name, a number);
     * its text ({@link QueryShape#text}) is the same range, for an IRI without the brackets.
     */
    record Slot(Kind kind, int start, int end) {
        int textStart() {
            return kind == Kind.IRI ? start + 1 : start;
        }

        int textEnd() {
            return kind == Kind.IRI ? end - 1 : end;
        }
    }

    private final String query;
    private final String key;
    private final List<Slot> slots;
    /** Per declared prefix, four offsets into the query: name start, name end, IRI start, IRI end. */
    private final int[] prefixes;
    private final int prefixCount;

    QueryShape(String query, String key, List<Slot> slots, int[] prefixes, int prefixCount) {
        this.query = query;
        this.key = key;
        this.slots = slots;
        this.prefixes = prefixes;
        this.prefixCount = prefixCount;
    }

    String key() {
        return key;
    }

    List<Slot> slots() {
        return slots;
    }

    /** A slot's text: the IRI without brackets, the prefixed name, the string's characters, the number. */
    String text(Slot slot) {
        return query.substring(slot.textStart(), slot.textEnd());
    }

    /** The IRI an {@link Kind#IRI} or {@link Kind#PREFIXED_NAME} slot stands for; null for an undeclared prefix. */
    String iri(Slot slot) {
        if (slot.kind() == Kind.IRI) {
            return text(slot);
        }
        int colon = query.indexOf(':', slot.start());
        int p = declaration(query, prefixes, prefixCount, slot.start(), colon);
        if (p < 0) {
            return null;
        }
        return new StringBuilder(prefixes[p + 3] - prefixes[p + 2] + slot.end() - colon)
                .append(query, prefixes[p + 2], prefixes[p + 3]).append(query, colon + 1, slot.end()).toString();
    }

    /**
     * Whether the IRI an {@link Kind#IRI} or {@link Kind#PREFIXED_NAME} slot stands for may start with
     * {@code start}: true when it does or when the slot's prefix is undeclared.
     */
    boolean iriMayStartWith(Slot slot, String start) {
        if (slot.kind() == Kind.IRI) {
            return query.startsWith(start, slot.textStart());
        }
        int colon = query.indexOf(':', slot.start());
        int p = declaration(query, prefixes, prefixCount, slot.start(), colon);
        if (p < 0) {
            return true;
        }
        int nsLength = prefixes[p + 3] - prefixes[p + 2];
        if (nsLength >= start.length()) {
            return query.startsWith(start, prefixes[p + 2]);
        }
        return query.regionMatches(prefixes[p + 2], start, 0, nsLength)
                && query.regionMatches(colon + 1, start, nsLength, start.length() - nsLength);
    }

    /** One query's constants by its template's sentinels. */
    interface Constants {
        /** The query's value for a sentinel of the template's tree, or null if the value is no sentinel. */
        Value valueOf(Value sentinel);
    }

    /**
     * This query's constants by the sentinels of a template's tree ({@code sites}: the slot of each sentinel value
     * object, by identity), each made when first asked for: what a kept plan reads per query.
     */
    Constants constants(Map<Value, Integer> sites) {
        Value[] values = new Value[slots.size()];
        return sentinel -> {
            Integer slot = sites.get(sentinel);
            if (slot == null) {
                return null;
            }
            Value v = values[slot];
            return v != null ? v : (values[slot] = value(slots.get(slot), sentinel));
        };
    }

    /** The query's value of {@code slot}, whose template sentinel (a value of the slot's type) is {@code sentinel}. */
    Value value(Slot slot, Value sentinel) {
        return switch (slot.kind()) {
            case IRI, PREFIXED_NAME -> VF.createIRI(iri(slot));
            case STRING -> {
                Literal l = (Literal) sentinel;
                yield l.getLanguage().isPresent() ? VF.createLiteral(text(slot), l.getLanguage().get())
                        : VF.createLiteral(text(slot), l.getDatatype());
            }
            case INTEGER, DECIMAL, DOUBLE -> VF.createLiteral(text(slot), ((Literal) sentinel).getDatatype());
        };
    }

    /** Whether one of the query's IRI constants may be in {@code namespace} ({@link #iriMayStartWith}). */
    boolean mayNameIriIn(String namespace) {
        for (int i = 0; i < slots.size(); i++) {
            Slot slot = slots.get(i);
            if ((slot.kind() == Kind.IRI || slot.kind() == Kind.PREFIXED_NAME) && iriMayStartWith(slot, namespace)) {
                return true;
            }
        }
        return false;
    }

    /** The offset into {@code prefixes} ({@code count} declarations of four offsets into {@code query}) of the last one
     * declaring the prefix {@code query[from, to)}, or -1. */
    static int declaration(String query, int[] prefixes, int count, int from, int to) {
        int length = to - from;
        for (int p = 4 * (count - 1); p >= 0; p -= 4) {
            if (prefixes[p + 1] - prefixes[p] == length && query.regionMatches(prefixes[p], query, from, length)) {
                return p;
            }
        }
        return -1;
    }

    /** The shape of {@code query} read with {@code baseUri}, or null if it cannot be split safely. */
    static QueryShape of(String query, String baseUri) {
        for (int i = query.indexOf('\\'); i >= 0 && i + 1 < query.length(); i = query.indexOf('\\', i + 1)) {
            char next = query.charAt(i + 1);
            if (next == 'u' || next == 'U') {
                return null;
            }
        }
        return new ShapeLexer(query, baseUri).run();
    }
}

