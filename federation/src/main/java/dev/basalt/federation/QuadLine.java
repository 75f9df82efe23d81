package dev.basalt.federation;

/**
 * One N-Triples or N-Quads line cut into its terms as written ({@code <iri>}, {@code _:label} or a
 * literal with its language tag or datatype), and the line's canonical text: the terms separated by
 * single spaces and ending in {@code " ."}, which is how RDF4J's writers write it, so that a statement
 * read from one member's export and the same statement built from another answer compare equal.
 *
 * <p>Immutable value; {@link #parse} is stateless and thread-safe.
 */
record QuadLine(String subject, String predicate, String object, String graph) {

    /** The line's terms, or null for a blank or comment line. */
    static QuadLine parse(String line) {
        int i = skip(line, 0);
        if (i >= line.length() || line.charAt(i) == '#') {
            return null;
        }
        String[] terms = new String[4];
        int n = 0;
        while (i < line.length() && line.charAt(i) != '.' && n < 4) {
            int end = termEnd(line, i);
            terms[n++] = line.substring(i, end);
            i = skip(line, end);
        }
        if (n < 3) {
            throw new IllegalArgumentException("not an N-Quads statement: " + line);
        }
        return new QuadLine(terms[0], terms[1], terms[2], terms[3]);
    }

    private static int termEnd(String line, int i) {
        char c = line.charAt(i);
        if (c == '<') {
            int end = line.indexOf('>', i + 1);
            return end < 0 ? line.length() : end + 1;
        }
        if (c == '"') {
            int j = i + 1;
            while (j < line.length() && line.charAt(j) != '"') {
                j += line.charAt(j) == '\\' ? 2 : 1;
            }
            j++;
            if (j < line.length() && line.charAt(j) == '@') {
                while (j < line.length() && !Character.isWhitespace(line.charAt(j))) {
                    j++;
                }
            } else if (line.startsWith("^^<", j)) {
                int end = line.indexOf('>', j + 3);
                j = end < 0 ? line.length() : end + 1;
            }
            return Math.min(j, line.length());
        }
        int j = i;
        while (j < line.length() && !Character.isWhitespace(line.charAt(j))) {
            j++;
        }
        return j;
    }

    private static int skip(String line, int i) {
        while (i < line.length() && (line.charAt(i) == ' ' || line.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    /** The same statement in another graph ({@code <iri>}, or null for the default graph). */
    QuadLine inGraph(String graphTerm) {
        return new QuadLine(subject, predicate, object, graphTerm);
    }

    /** The canonical line, without a line break. */
    String text() {
        return subject + ' ' + predicate + ' ' + object + (graph == null ? "" : " " + graph) + " .";
    }

    boolean subjectIsIri() {
        return subject.startsWith("<");
    }

    boolean objectIsIri() {
        return object.startsWith("<");
    }

    boolean hasBlankNode() {
        return subject.startsWith("_:") || object.startsWith("_:") || graph != null && graph.startsWith("_:");
    }

    /** An IRI term's IRI, without the angle brackets (N-Triples escapes in IRIs are not expected from RDF4J's writers). */
    static String iri(String term) {
        return term.substring(1, term.length() - 1);
    }

    /** A 64-bit hash of the canonical line (FNV-1a over its chars, MurmurHash3's finalizer). */
    long hash() {
        String text = text();
        long h = 0xcbf29ce484222325L;
        for (int k = 0; k < text.length(); k++) {
            h ^= text.charAt(k);
            h *= 0x100000001b3L;
        }
        return SubjectHashPartition.fmix64(h);
    }
}
