package dev.basalt.sail.load;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.base.AbstractValueFactory;

/**
 * The value factory of the parallel N-Triples/N-Quads parsers, doing two things Rio's own factory
 * does not.
 *
 * <p><b>Blank nodes scoped to a file.</b> {@code _:b1} of one file and of another (or of an earlier
 * load of the same file) are different nodes, while every chunk of one file, parsed by separate
 * parsers with {@code PRESERVE_BNODE_IDS}, maps {@code _:b1} to the same node. The node id is a
 * prefix unique to the load and the file, then the label.
 *
 * <p><b>IRIs checked by the N-Triples grammar.</b> The parsers run with Rio's
 * {@code VERIFY_URI_SYNTAX} off (its full RFC 3987 parse of every IRI took about half of the
 * parsing time) and this factory checks what the N-Triples and N-Quads grammars require of an
 * IRIREF: an absolute IRI (a scheme: a letter, then letters, digits, {@code + - .}, then
 * {@code :}) without spaces, control characters or {@code < > " { } | ^ ` \} (also when they came
 * from a {@code \\u} escape). A failing IRI throws, which the parser reports as a fatal error on
 * its line.
 *
 * <p>Thread-safe.
 */
final class LoadValues extends AbstractValueFactory {
    private final String prefix;

    LoadValues(String prefix) {
        this.prefix = prefix;
    }

    /** What precedes a label in the id of its blank node. */
    String blankNodePrefix() {
        return prefix;
    }

    @Override
    public BNode createBNode(String nodeID) {
        return super.createBNode(prefix + nodeID);
    }

    @Override
    public IRI createIRI(String iri) {
        String problem = problem(iri);
        if (problem != null) {
            throw new IllegalArgumentException("invalid IRI <" + iri + ">: " + problem);
        }
        return super.createIRI(iri);
    }

    /** Characters below 128 that an IRIREF may not hold: controls, space and {@code < > " { } | ^ ` \}. */
    private static final boolean[] FORBIDDEN = new boolean[128];
    /** Characters below 128 that may follow a scheme's first letter: letters, digits, {@code + - .}. */
    private static final boolean[] SCHEME = new boolean[128];

    static {
        for (int c = 0; c <= 0x20; c++) {
            FORBIDDEN[c] = true;
        }
        for (char c : "<>\"{}|^`\\".toCharArray()) {
            FORBIDDEN[c] = true;
        }
        for (int c = 0; c < 128; c++) {
            SCHEME[c] = isLetter((char) c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
        }
    }

    /** Why {@code iri} is not an absolute IRI by the N-Triples grammar, or null if it is one. */
    static String problem(String iri) {
        int n = iri.length();
        for (int i = 0; i < n; i++) {
            char c = iri.charAt(i);
            if (c < 128 && FORBIDDEN[c]) {
                return c <= 0x20 ? "contains a space or control character" : "contains the character '" + c + "'";
            }
        }
        if (n == 0 || !isLetter(iri.charAt(0))) {
            return "not absolute (no scheme such as http:)";
        }
        for (int i = 1; i < n; i++) {
            char c = iri.charAt(i);
            if (c == ':') {
                return null;
            }
            if (c >= 128 || !SCHEME[c]) {
                break;
            }
        }
        return "not absolute (no scheme such as http:)";
    }

    private static boolean isLetter(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
