package dev.basalt.replication.log;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;

import dev.basalt.replication.log.ChangeSet.NamespaceChange;

/**
 * The bytes of a replication log entry (docs/FORMAT.md, "Replication log entry"): a version byte, a
 * table of the distinct terms the change set names (each written once, by its lexical value), the
 * namespace changes, then the removed and the added statements as term-table positions. Term values
 * rather than journal term ids, so every replica interns them in its own dictionary and no replica
 * depends on another's id assignment.
 *
 * <p>Stateless; any thread may encode and decode.
 */
public final class ChangeSetCodec {
    /** The version this code writes; {@link #decode} refuses any other. */
    public static final byte VERSION = 1;

    static final byte IRI_TERM = 1;
    static final byte BNODE_TERM = 2;
    static final byte STRING_LITERAL = 3;
    static final byte LANG_LITERAL = 4;
    static final byte TYPED_LITERAL = 5;
    static final byte TRIPLE_TERM = 6;

    static final byte NS_SET = 1;
    static final byte NS_REMOVE = 2;
    static final byte NS_CLEAR = 3;

    private ChangeSetCodec() {
    }

    public static byte[] encode(ChangeSet changes) {
        Writer w = new Writer();
        w.out.write(VERSION);
        TermTable terms = new TermTable();
        for (Statement st : changes.removed()) {
            terms.addStatement(st);
        }
        for (Statement st : changes.added()) {
            terms.addStatement(st);
        }
        w.varint(terms.order.size());
        for (Value v : terms.order) {
            writeTerm(w, v, terms);
        }
        w.varint(changes.namespaces().size());
        for (NamespaceChange ns : changes.namespaces()) {
            switch (ns.kind()) {
                case SET -> {
                    w.out.write(NS_SET);
                    w.string(ns.prefix());
                    w.string(ns.name());
                }
                case REMOVE -> {
                    w.out.write(NS_REMOVE);
                    w.string(ns.prefix());
                }
                case CLEAR -> w.out.write(NS_CLEAR);
            }
        }
        writeStatements(w, changes.removed(), terms);
        writeStatements(w, changes.added(), terms);
        return w.out.toByteArray();
    }

    /**
     * Reads an entry written by {@link #encode}, creating its terms with {@code vf}.
     *
     * @throws IllegalArgumentException naming the byte offset for an unknown version, an unknown
     *                                  tag, a dangling term reference or truncated bytes
     */
    public static ChangeSet decode(byte[] bytes, ValueFactory vf) {
        Reader r = new Reader(bytes);
        int version = r.u8();
        if (version != VERSION) {
            throw new IllegalArgumentException("replication log entry has format version " + version
                    + "; this build reads version " + VERSION + " (upgrade this node to the leader's version)");
        }
        int termCount = r.count();
        List<Value> terms = new ArrayList<>(termCount);
        for (int i = 0; i < termCount; i++) {
            terms.add(readTerm(r, vf, terms));
        }
        ChangeSet changes = new ChangeSet();
        int nsCount = r.count();
        for (int i = 0; i < nsCount; i++) {
            int at = r.pos;
            switch (r.u8()) {
                case NS_SET -> changes.namespace(
                        new NamespaceChange(NamespaceChange.Kind.SET, r.string(), r.string()));
                case NS_REMOVE -> changes.namespace(new NamespaceChange(NamespaceChange.Kind.REMOVE, r.string(), null));
                case NS_CLEAR -> changes.namespace(new NamespaceChange(NamespaceChange.Kind.CLEAR, null, null));
                default -> throw r.error(at, "unknown namespace operation " + bytes[at]);
            }
        }
        int removed = r.count();
        for (int i = 0; i < removed; i++) {
            changes.remove(readStatement(r, vf, terms));
        }
        int added = r.count();
        for (int i = 0; i < added; i++) {
            changes.add(readStatement(r, vf, terms));
        }
        if (r.pos != bytes.length) {
            throw r.error(r.pos, (bytes.length - r.pos) + " bytes after the last statement");
        }
        return changes;
    }

    private static void writeStatements(Writer w, Iterable<Statement> statements, TermTable terms) {
        int n = 0;
        for (Statement ignored : statements) {
            n++;
        }
        w.varint(n);
        for (Statement st : statements) {
            w.varint(terms.index(st.getSubject()));
            w.varint(terms.index(st.getPredicate()));
            w.varint(terms.index(st.getObject()));
            w.varint(st.getContext() == null ? 0 : terms.index(st.getContext()) + 1);
        }
    }

    private static void writeTerm(Writer w, Value v, TermTable terms) {
        if (v instanceof IRI iri) {
            w.out.write(IRI_TERM);
            w.string(iri.stringValue());
        } else if (v instanceof BNode b) {
            w.out.write(BNODE_TERM);
            w.string(b.getID());
        } else if (v instanceof Literal l) {
            if (l.getLanguage().isPresent()) {
                w.out.write(LANG_LITERAL);
                w.string(l.getLabel());
                w.string(l.getLanguage().get());
            } else if (XSD.STRING.equals(l.getDatatype())) {
                w.out.write(STRING_LITERAL);
                w.string(l.getLabel());
            } else {
                w.out.write(TYPED_LITERAL);
                w.string(l.getLabel());
                w.varint(terms.index(l.getDatatype()));
            }
        } else if (v instanceof Triple t) {
            w.out.write(TRIPLE_TERM);
            w.varint(terms.index(t.getSubject()));
            w.varint(terms.index(t.getPredicate()));
            w.varint(terms.index(t.getObject()));
        } else {
            throw new IllegalArgumentException("cannot replicate a value of " + v.getClass().getName() + ": " + v);
        }
    }

    private static Value readTerm(Reader r, ValueFactory vf, List<Value> terms) {
        int at = r.pos;
        return switch (r.u8()) {
            case IRI_TERM -> vf.createIRI(r.string());
            case BNODE_TERM -> vf.createBNode(r.string());
            case STRING_LITERAL -> vf.createLiteral(r.string());
            case LANG_LITERAL -> vf.createLiteral(r.string(), r.string());
            case TYPED_LITERAL -> {
                String label = r.string();
                yield vf.createLiteral(label, (IRI) ref(r, terms, IRI.class));
            }
            case TRIPLE_TERM -> vf.createTriple((Resource) ref(r, terms, Resource.class),
                    (IRI) ref(r, terms, IRI.class), ref(r, terms, Value.class));
            default -> throw r.error(at, "unknown term tag " + r.bytes[at]);
        };
    }

    private static Statement readStatement(Reader r, ValueFactory vf, List<Value> terms) {
        Resource s = (Resource) ref(r, terms, Resource.class);
        IRI p = (IRI) ref(r, terms, IRI.class);
        Value o = ref(r, terms, Value.class);
        int at = r.pos;
        int c = r.count();
        if (c == 0) {
            return vf.createStatement(s, p, o);
        }
        if (c > terms.size() || !(terms.get(c - 1) instanceof Resource ctx)) {
            throw r.error(at, "context reference " + c + " is not a resource of the term table");
        }
        return vf.createStatement(s, p, o, ctx);
    }

    private static Value ref(Reader r, List<Value> terms, Class<? extends Value> kind) {
        int at = r.pos;
        int i = r.count();
        if (i >= terms.size() || !kind.isInstance(terms.get(i))) {
            throw r.error(at, "term reference " + i + " is not a " + kind.getSimpleName() + " of the "
                    + terms.size() + " terms read so far");
        }
        return terms.get(i);
    }

    /** Distinct terms in first-use order; a triple term's parts and a literal's datatype come before it. */
    private static final class TermTable {
        final List<Value> order = new ArrayList<>();
        final Map<Value, Integer> positions = new HashMap<>();

        void addStatement(Statement st) {
            add(st.getSubject());
            add(st.getPredicate());
            add(st.getObject());
            if (st.getContext() != null) {
                add(st.getContext());
            }
        }

        void add(Value v) {
            if (positions.containsKey(v)) {
                return;
            }
            if (v instanceof Triple t) {
                add(t.getSubject());
                add(t.getPredicate());
                add(t.getObject());
            } else if (v instanceof Literal l && l.getLanguage().isEmpty() && !XSD.STRING.equals(l.getDatatype())) {
                add(l.getDatatype());
            }
            positions.put(v, order.size());
            order.add(v);
        }

        int index(Value v) {
            return positions.get(v);
        }
    }

    private static final class Writer {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

        void varint(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }

        void string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varint(b.length);
            out.write(b, 0, b.length);
        }
    }

    private static final class Reader {
        final byte[] bytes;
        int pos;

        Reader(byte[] bytes) {
            this.bytes = bytes;
        }

        int u8() {
            if (pos >= bytes.length) {
                throw error(pos, "entry ends early");
            }
            return bytes[pos++] & 0xFF;
        }

        long varint() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                int b = u8();
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    return v;
                }
            }
            throw error(pos, "varint longer than 10 bytes");
        }

        int count() {
            int at = pos;
            long v = varint();
            if (v > Integer.MAX_VALUE) {
                throw error(at, "count " + v + " out of range");
            }
            return (int) v;
        }

        String string() {
            int at = pos;
            int n = count();
            if (n > bytes.length - pos) {
                throw error(at, "string of " + n + " bytes runs past the entry's end");
            }
            String s = new String(bytes, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return s;
        }

        IllegalArgumentException error(int at, String what) {
            return new IllegalArgumentException("replication log entry of " + bytes.length + " bytes, offset " + at
                    + ": " + what);
        }
    }
}
