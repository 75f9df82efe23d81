package dev.basalt.sail.load;

import java.nio.charset.StandardCharsets;

/**
 * The byte-level lexical rules of {@link NTriplesBytes}: where an IRI, a blank node label and an
 * escaped literal label end and whether their bytes are what that parser takes (the subset of
 * N-Triples it accepts, see there), and the decoding of a label's escapes. Every method reads a
 * chunk's bytes {@code b} up to {@code end} and throws the shared, stackless {@link #UNSUPPORTED}
 * where the input is malformed or merely outside the subset, which leaves the chunk to Rio.
 *
 * <p>Stateless and thread-safe. The methods are static, taking the chunk's bytes and end as
 * arguments, so the parser's scan, which runs for every term of a load, calls them as directly as
 * its own private methods.
 */
final class NTriplesSyntax {
    /** ASCII bytes an IRI may not hold ({@link LoadValues}): controls, space, {@code < > " { } | ^ ` \}. */
    private static final boolean[] NOT_IN_IRI = new boolean[128];
    /** ASCII bytes after a scheme's first letter: letters, digits, {@code + - .}. */
    private static final boolean[] SCHEME = new boolean[128];
    /** ASCII bytes after a blank node label's first one that this parser takes: letters, digits, {@code _ -}. */
    private static final boolean[] LABEL = new boolean[128];

    static {
        for (int c = 0; c <= 0x20; c++) {
            NOT_IN_IRI[c] = true;
        }
        for (char c : "<>\"{}|^`\\".toCharArray()) {
            NOT_IN_IRI[c] = true;
        }
        NOT_IN_IRI[0x7F] = false;
        for (int c = 0; c < 128; c++) {
            boolean alnum = isLetter(c) || (c >= '0' && c <= '9');
            SCHEME[c] = alnum || c == '+' || c == '-' || c == '.';
            LABEL[c] = alnum || c == '_' || c == '-';
        }
    }

    /** Thrown where the chunk holds something left to Rio; carries nothing. */
    static final class Unsupported extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unsupported() {
            super(null, null, false, false);
        }
    }

    static final Unsupported UNSUPPORTED = new Unsupported();

    private NTriplesSyntax() {
    }

    /**
     * The position of the {@code >} closing the IRI that opens at {@code open}, checked as
     * {@link LoadValues} checks IRIs; an escape, a forbidden byte or bad UTF-8 is left to Rio.
     */
    static int iriEnd(byte[] b, int open, int end) {
        if (open >= end || b[open] != '<') {
            throw UNSUPPORTED;
        }
        int i = open + 1;
        while (true) {
            if (i >= end) {
                throw UNSUPPORTED;
            }
            int c = b[i] & 0xFF;
            if (c == '>') {
                break;
            }
            if (c < 0x80) {
                if (NOT_IN_IRI[c]) {
                    throw UNSUPPORTED;
                }
                i++;
            } else {
                i += utf8Sequence(b, i, end);
            }
        }
        // an absolute IRI: a letter, then scheme characters up to ':'
        int s = open + 1;
        if (s == i || !isLetter(b[s])) {
            throw UNSUPPORTED;
        }
        for (s++; s < i && b[s] != ':'; s++) {
            if (b[s] < 0 || !SCHEME[b[s]]) {
                throw UNSUPPORTED;
            }
        }
        if (s == i) {
            throw UNSUPPORTED;
        }
        return i;
    }

    /** The end of the blank node label that starts at {@code from} with {@code _:}. */
    static int blankNodeEnd(byte[] b, int from, int end) {
        if (from + 2 >= end || b[from + 1] != ':') {
            throw UNSUPPORTED;
        }
        int first = b[from + 2];
        if (first < 0 || !(LABEL[first] && first != '-')) {
            throw UNSUPPORTED;
        }
        int i = from + 3;
        while (i < end && b[i] >= 0 && LABEL[b[i]]) {
            i++;
        }
        // Rio ends a label at the first byte that cannot continue it; this parser takes only a space or tab there
        if (i >= end || (b[i] != ' ' && b[i] != '\t')) {
            throw UNSUPPORTED;
        }
        return i;
    }

    /**
     * The label {@code b[from, to)} with its escapes decoded as N-Triples defines them, built in
     * {@code text} (cleared first); {@code end} bounds the UTF-8 sequences read.
     */
    static String unescape(byte[] b, int from, int to, int end, StringBuilder text) {
        text.setLength(0);
        int i = from;
        while (i < to) {
            int c = b[i] & 0xFF;
            if (c != '\\') {
                int n = c < 0x80 ? 1 : utf8Sequence(b, i, end);
                text.append(new String(b, i, n, StandardCharsets.UTF_8));
                i += n;
                continue;
            }
            byte e = b[i + 1];
            switch (e) {
                case 't' -> text.append('\t');
                case 'b' -> text.append('\b');
                case 'n' -> text.append('\n');
                case 'r' -> text.append('\r');
                case 'f' -> text.append('\f');
                case '"' -> text.append('"');
                case '\'' -> text.append('\'');
                case '\\' -> text.append('\\');
                case 'u' -> {
                    text.append((char) hex(b, i + 2, 4, to));
                    i += 4;
                }
                case 'U' -> {
                    int cp = hex(b, i + 2, 8, to);
                    if (cp > Character.MAX_CODE_POINT) {
                        throw UNSUPPORTED;
                    }
                    text.appendCodePoint(cp);
                    i += 8;
                }
                default -> throw UNSUPPORTED;
            }
            i += 2;
        }
        return text.toString();
    }

    private static int hex(byte[] b, int from, int digits, int to) {
        if (from + digits > to) {
            throw UNSUPPORTED;
        }
        long v = 0;
        for (int i = from; i < from + digits; i++) {
            int d = Character.digit(b[i], 16);
            if (b[i] < 0 || d < 0) {
                throw UNSUPPORTED;
            }
            v = v << 4 | d;
        }
        if (v > Integer.MAX_VALUE) {
            throw UNSUPPORTED;
        }
        return (int) v;
    }

    /** Bytes of the well-formed UTF-8 sequence of 2 to 4 bytes at {@code i}; bad UTF-8 is left to Rio. */
    static int utf8Sequence(byte[] b, int i, int end) {
        int c = b[i] & 0xFF;
        int n;
        int low = 0x80;
        int high = 0xBF;
        if (c >= 0xC2 && c < 0xE0) {
            n = 2;
        } else if (c >= 0xE0 && c < 0xF0) {
            n = 3;
            if (c == 0xE0) {
                low = 0xA0; // not overlong
            } else if (c == 0xED) {
                high = 0x9F; // not a surrogate
            }
        } else if (c >= 0xF0 && c < 0xF5) {
            n = 4;
            if (c == 0xF0) {
                low = 0x90;
            } else if (c == 0xF4) {
                high = 0x8F; // at most U+10FFFF
            }
        } else {
            throw UNSUPPORTED;
        }
        if (i + n > end) {
            throw UNSUPPORTED;
        }
        int second = b[i + 1] & 0xFF;
        if (second < low || second > high) {
            throw UNSUPPORTED;
        }
        for (int k = 2; k < n; k++) {
            if ((b[i + k] & 0xC0) != 0x80) {
                throw UNSUPPORTED;
            }
        }
        return n;
    }

    static boolean isLetter(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    }
}
