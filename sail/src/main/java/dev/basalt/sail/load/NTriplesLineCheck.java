package dev.basalt.sail.load;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Says what is wrong with one line of N-Triples or N-Quads, read from its UTF-8 bytes by the W3C
 * grammars: the first place the line departs from them (as a 1-based character column) and what
 * was expected there, for example {@code expected '.' at the end of the statement, found the end
 * of the line} at column 41. It checks what a reader needs to mend the line: the terms' order and
 * delimiters, escapes, language tags, absolute IRIs and well-formed UTF-8; it is not the judge of
 * what is accepted (Rio is: {@link MalformedChunk} asks this class only about lines Rio refused).
 * It never runs on input that loads: only once a parser failed.
 *
 * <p>Thread rules: one instance per line, on one thread; {@link #problem} is thread-safe.
 */
final class NTriplesLineCheck {
    private static final String IRI_FORBIDDEN = "<>\"{}|^`\\";

    /** A fault of a line: its 1-based character column and what is wrong there. */
    record Problem(int column, String text) {
    }

    /** Thrown at the first fault. */
    private static final class Fault extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Problem problem;

        Fault(Problem problem) {
            super(null, null, false, false);
            this.problem = problem;
        }
    }

    private final byte[] b;
    private final int from;
    private final int end;
    private final boolean quads;
    private final boolean endOfInput;
    private int pos;

    private NTriplesLineCheck(byte[] b, int from, int end, boolean quads, boolean endOfInput) {
        this.b = b;
        this.from = from;
        this.end = end;
        this.quads = quads;
        this.endOfInput = endOfInput;
        this.pos = from;
    }

    /**
     * What is wrong with the line {@code b[from, to)} (its terminator excluded), or null if the
     * grammar takes it.
     *
     * @param quads      the line is N-Quads (a graph name may follow the object)
     * @param endOfInput the input ends right after this line, without a line terminator
     */
    static Problem problem(byte[] b, int from, int to, boolean quads, boolean endOfInput) {
        NTriplesLineCheck check = new NTriplesLineCheck(b, from, to, quads, endOfInput);
        try {
            check.line();
            return null;
        } catch (Fault f) {
            return f.problem;
        }
    }

    private void line() {
        skipSpaces();
        if (pos == end || b[pos] == '#') {
            return; // blank or comment
        }
        term("subject", false, "a subject (an IRI in <...> or a blank node _:label)");
        skipSpaces();
        if (pos == end || b[pos] != '<') {
            throw expected("a predicate (an IRI in <...>)");
        }
        iri("predicate");
        skipSpaces();
        term("object", true, "an object (an IRI in <...>, a blank node _:label or a literal in \"...\")");
        skipSpaces();
        if (quads && pos < end && b[pos] != '.') {
            term("graph name", false,
                    "a graph name (an IRI in <...> or a blank node _:label) or '.' at the end of the statement");
            skipSpaces();
        }
        if (pos == end || b[pos] != '.') {
            throw expected("'.' at the end of the statement");
        }
        pos++;
        skipSpaces();
        if (pos < end && b[pos] != '#') {
            throw expected("the end of the line after the statement's '.' (one statement per line)");
        }
    }

    /** The term at {@code pos}: an IRI, a blank node or (if {@code literal}) a literal; else a fault expecting {@code what}. */
    private void term(String role, boolean literal, String what) {
        byte c = pos < end ? b[pos] : 0;
        if (c == '<') {
            iri(role);
        } else if (c == '_') {
            blankNode();
        } else if (c == '"' && literal) {
            literal();
        } else {
            throw expected(what);
        }
    }

    private void skipSpaces() {
        while (pos < end && (b[pos] == ' ' || b[pos] == '\t')) {
            pos++;
        }
    }

    private void iri(String role) {
        int open = pos;
        pos++;
        boolean escaped = false;
        while (true) {
            if (pos == end) {
                throw fault(open, "unterminated IRI: expected '>' to close the " + role + " IRI that starts here, found "
                        + endOfLine());
            }
            int c = b[pos] & 0xFF;
            if (c == '>') {
                break;
            }
            if (c == '\\') {
                escaped = true;
                escape(false);
            } else if (c <= 0x20 || IRI_FORBIDDEN.indexOf(c) >= 0) {
                if (!closes(pos)) {
                    throw fault(open, "unterminated IRI: expected '>' to close the " + role
                            + " IRI that starts here, found " + describe(pos) + " at column " + column(pos));
                }
                throw fault(pos, describe(pos) + " is not allowed in an IRI (write it as a \\u escape or %-encode it)");
            } else if (c >= 0x80) {
                pos += utf8Length(pos);
            } else {
                pos++;
            }
        }
        if (!escaped && !absolute(open + 1, pos)) {
            throw fault(open, "relative IRI " + new String(b, open, pos + 1 - open, UTF_8)
                    + ": expected an absolute IRI, with a scheme such as http:");
        }
        pos++;
    }

    /** True if a {@code >} follows {@code i} on the line. */
    private boolean closes(int i) {
        for (int k = i; k < end; k++) {
            if (b[k] == '>') {
                return true;
            }
        }
        return false;
    }

    private boolean absolute(int s, int close) {
        if (s == close || !isLetter(b[s])) {
            return false;
        }
        for (int i = s + 1; i < close; i++) {
            int c = b[i];
            if (c == ':') {
                return true;
            }
            if (!(isLetter(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
                return false;
            }
        }
        return false;
    }

    private void blankNode() {
        int open = pos;
        if (pos + 1 >= end || b[pos + 1] != ':') {
            throw fault(open, "expected '_:' and a label for a blank node, found " + describe(open)
                    + (pos + 1 < end ? " followed by " + describe(pos + 1) : ""));
        }
        pos += 2;
        if (pos == end || !labelStart(pos)) {
            throw expected("a blank node label after '_:' (a letter, digit or '_')");
        }
        pos += b[pos] < 0 ? utf8Length(pos) : 1;
        while (pos < end && (labelPart(pos) || b[pos] == '.')) {
            pos += b[pos] < 0 ? utf8Length(pos) : 1;
        }
        while (b[pos - 1] == '.') {
            pos--; // a label does not end with '.': it is the statement's
        }
    }

    private boolean labelStart(int i) {
        int c = b[i];
        return c < 0 || isLetter(c) || (c >= '0' && c <= '9') || c == '_';
    }

    private boolean labelPart(int i) {
        return labelStart(i) || b[i] == '-';
    }

    private void literal() {
        int open = pos;
        pos++;
        while (true) {
            if (pos == end) {
                throw fault(open, "unterminated literal: expected '\"' to close the literal that starts here, found "
                        + endOfLine());
            }
            int c = b[pos] & 0xFF;
            if (c == '"') {
                break;
            }
            if (c == '\\') {
                if (pos + 1 == end) {
                    throw fault(open, "unterminated literal: expected '\"' to close the literal that starts here, found "
                            + "a '\\' and " + endOfLine());
                }
                escape(true);
            } else if (c >= 0x80) {
                pos += utf8Length(pos);
            } else {
                pos++;
            }
        }
        pos++;
        if (pos < end && b[pos] == '@') {
            languageTag();
        } else if (pos < end && b[pos] == '^') {
            if (pos + 1 == end || b[pos + 1] != '^') {
                throw expected("'^^' and a datatype IRI after the literal");
            }
            pos += 2;
            if (pos == end || b[pos] != '<') {
                throw expected("a datatype IRI in <...> after '^^'");
            }
            iri("datatype");
        }
    }

    private void languageTag() {
        int at = pos;
        int i = pos + 1;
        boolean ok = i < end && isLetter(b[i]);
        while (i < end && isLetter(b[i])) {
            i++;
        }
        while (ok && i < end && b[i] == '-') {
            int part = ++i;
            while (i < end && (isLetter(b[i]) || (b[i] >= '0' && b[i] <= '9'))) {
                i++;
            }
            ok = i > part;
        }
        ok &= i == end || b[i] == ' ' || b[i] == '\t' || b[i] == '.' || b[i] == '<' || b[i] == '#'
                || (b[i] == '_' && quads);
        if (!ok) {
            int stop = at + 1;
            while (stop < end && b[stop] != ' ' && b[stop] != '\t' && !(b[stop] == '.' && stop + 1 == end)) {
                stop++;
            }
            throw fault(at, "bad language tag '" + new String(b, at, stop - at, UTF_8)
                    + "': expected '@', letters, then optionally '-' and letters or digits (such as @en or @en-GB)");
        }
        pos = i;
    }

    /** The escape at {@code pos} ({@code \} then one of the allowed letters); moves past it. */
    private void escape(boolean inLiteral) {
        int at = pos;
        if (pos + 1 == end) {
            throw fault(at, "bad escape: a '\\' at the end of the line");
        }
        int e = b[pos + 1];
        if (e == 'u' || e == 'U') {
            int digits = e == 'u' ? 4 : 8;
            for (int k = 0; k < digits; k++) {
                int i = pos + 2 + k;
                if (i >= end || Character.digit(b[i], 16) < 0 || b[i] < 0) {
                    throw fault(at, "bad escape: expected \\" + (char) e + " and " + digits + " hexadecimal digits, found '"
                            + new String(b, at, Math.min(end, pos + 2 + digits) - at, UTF_8)
                            + "'");
                }
            }
            pos += 2 + digits;
            return;
        }
        if (inLiteral && "tbnrf\"'\\".indexOf(e) >= 0) {
            pos += 2;
            return;
        }
        String escapeText = e >= 0x21 && e < 0x7F ? "\\" + (char) e : "'\\' followed by " + describe(pos + 1);
        throw fault(at, "bad escape " + escapeText + (inLiteral
                ? " in a literal: expected one of \\t \\b \\n \\r \\f \\\" \\' \\\\ \\uXXXX \\UXXXXXXXX"
                : " in an IRI: expected \\uXXXX or \\UXXXXXXXX"));
    }

    /** The length of the well-formed UTF-8 sequence at {@code i}; a fault if it is not one. */
    private int utf8Length(int i) {
        int n = Utf8.sequenceLength(b, i, end);
        if (n < 0) {
            throw fault(i, "invalid UTF-8 byte sequence " + hex(i, Math.min(end, i + 4))
                    + ": the input must be UTF-8 (was it saved in another encoding?)");
        }
        return n;
    }

    private String hex(int from, int to) {
        StringBuilder s = new StringBuilder();
        for (int i = from; i < to && (i == from || (b[i] & 0xC0) == 0x80); i++) {
            s.append(s.length() == 0 ? "" : " ").append(String.format("0x%02X", b[i] & 0xFF));
        }
        return s.toString();
    }

    private Fault expected(String what) {
        return fault(pos, "expected " + what + ", found " + (pos == end ? endOfLine() : describe(pos)));
    }

    private Fault fault(int at, String message) {
        return new Fault(new Problem(column(at), message));
    }

    private String endOfLine() {
        return endOfInput ? "the end of the input (the last line is cut off)" : "the end of the line";
    }

    /** The character at {@code i}, as an error names it. */
    private String describe(int i) {
        int c = b[i] & 0xFF;
        if (c >= 0x80) {
            int n = Utf8.sequenceLength(b, i, end);
            if (n < 0) {
                return "the invalid UTF-8 byte sequence " + hex(i, Math.min(end, i + 4));
            }
            String s = new String(b, i, n, UTF_8);
            return "'" + s + "' (U+" + String.format("%04X", s.codePointAt(0)) + ")";
        }
        if (c == ' ') {
            return "a space";
        }
        if (c < 0x20 || c == 0x7F) {
            return "the control character U+" + String.format("%04X", c);
        }
        return "'" + (char) c + "'";
    }

    /** The 1-based column of byte {@code i}, counted in characters. */
    private int column(int i) {
        int col = 1;
        for (int k = from; k < i && k < end; k++) {
            if ((b[k] & 0xC0) != 0x80) {
                col++;
            }
        }
        return col;
    }

    private static boolean isLetter(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
