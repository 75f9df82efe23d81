package dev.basalt.sail.load;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The kinds of malformed N-Triples/N-Quads line the loader must name, each with the bytes of one
 * such line and a piece of the message that says what was expected there; and inputs of good lines
 * with one bad line early (line 2 of 3) or late (past the loader's chunks and batches).
 */
enum MalformedLine {
    MISSING_DOT("<http://example.org/bad> <http://example.org/p> <http://example.org/o>",
            "expected '.' at the end of the statement, found the end of the line"),
    UNTERMINATED_LITERAL("<http://example.org/bad> <http://example.org/p> \"no closing quote .",
            "unterminated literal: expected '\"' to close the literal"),
    UNTERMINATED_IRI("<http://example.org/bad> <http://example.org/p> <http://example.org/o .",
            "unterminated IRI: expected '>' to close the object IRI"),
    BAD_ESCAPE("<http://example.org/bad> <http://example.org/p> \"a \\q b\" .", "bad escape \\q in a literal"),
    BAD_LANGUAGE_TAG("<http://example.org/bad> <http://example.org/p> \"chat\"@1fr .", "bad language tag '@1fr'"),
    INVALID_UTF8("<http://example.org/bad> <http://example.org/p> \"caf\u00FF\" .", "invalid UTF-8 byte sequence 0xFF"),
    CONTROL_CHARACTER("<http://example.org/bad> <http://example.org/p\u0001> <http://example.org/o> .",
            "the control character U+0001 is not allowed in an IRI"),
    CUT_BY_END_OF_FILE("<http://example.org/bad> <http://example.org/p> \"cut off",
            "found the end of the input (the last line is cut off)");

    /** The line of a late fault: past several 4 MiB chunks and 100,000-statement batches. */
    static final int LATE_LINE = 300_001;

    /** The line, as bytes: ISO-8859-1 of the text, so the character U+00FF is the single byte 0xFF, invalid in UTF-8. */
    private final byte[] line;
    final String expected;

    MalformedLine(String line, String expected) {
        this.line = line.getBytes(StandardCharsets.ISO_8859_1);
        this.expected = expected;
    }

    /** The 1-based line the fault is on in {@link #input}. */
    long lineNumber(boolean late) {
        return late ? LATE_LINE : this == CUT_BY_END_OF_FILE ? 3 : 2;
    }

    /**
     * Good lines with this kind's line at {@link #lineNumber}: early in three lines, late after
     * {@code LATE_LINE - 1} good lines; a line cut by the end of the file is the last one.
     * N-Quads lines name a graph.
     */
    byte[] input(boolean late, boolean quads) {
        long bad = lineNumber(late);
        ByteArrayOutputStream out = new ByteArrayOutputStream(late ? LATE_PREFIX_BYTES : 256);
        out.writeBytes(late ? latePrefix(quads) : goodLines(1, bad, quads));
        out.writeBytes(line);
        if (this != CUT_BY_END_OF_FILE) {
            out.write('\n');
            out.writeBytes(goodLines(bad + 1, bad + 2, quads));
        }
        return out.toByteArray();
    }

    private static final int LATE_PREFIX_BYTES = 20 << 20;
    private static final byte[][] LATE_PREFIXES = new byte[2][];

    /** Lines 1 to {@code LATE_LINE - 1}, made once per format. */
    private static synchronized byte[] latePrefix(boolean quads) {
        int i = quads ? 1 : 0;
        if (LATE_PREFIXES[i] == null) {
            LATE_PREFIXES[i] = goodLines(1, LATE_LINE, quads);
        }
        return LATE_PREFIXES[i];
    }

    /** Good lines {@code from} to {@code to - 1}. */
    private static byte[] goodLines(long from, long to, boolean quads) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (long n = from; n < to; n++) {
            out.writeBytes(good(n, quads));
        }
        return out.toByteArray();
    }

    /** A good statement line; few distinct terms, so a large input costs parsing and little else. */
    static byte[] good(long n, boolean quads) {
        String graph = quads ? " <http://example.org/g" + (n % 3) + ">" : "";
        return ("<http://example.org/s" + (n % 1000) + "> <http://example.org/p" + (n % 7) + "> \"v" + (n % 5000)
                + "\"" + graph + " .\n").getBytes(StandardCharsets.UTF_8);
    }

    /** True if {@code message} names {@code input} and this kind's line as its place, and says what was expected. */
    boolean named(String message, String input, boolean late) {
        return message.contains(input + ":" + lineNumber(late) + ": malformed N-") && message.contains(expected);
    }
}
