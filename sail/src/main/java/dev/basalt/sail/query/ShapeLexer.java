package dev.basalt.sail.query;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.basalt.sail.query.QueryShape.Kind;
import dev.basalt.sail.query.QueryShape.Slot;

/**
 * Reads one query into its shape. It runs on every query a shape has been seen for, so it allocates only what
 * it returns: a token is a range of the query's text, copied once into the key; the context rules compare a
 * code of the previous two tokens; slots and prefix declarations are offsets into the text. Every token is taken
 * in at one place ({@link #run}), so the JIT compiles the key's appends and the keyword match once rather than
 * inlined into each token method. A new lexer per query, used by the thread that reads the query.
 */
final class ShapeLexer {
    /**
     * What the context rules need to know of a key token: whether it is one of the keywords they name
     * (compared ignoring case) or {@code ^^}.
     */
    private static final int OTHER = 0, BASE = 1, PREFIX = 2, FROM = 3, NAMED = 4, USING = 5, WITH = 6, LIMIT = 7,
            OFFSET = 8, CARETS = 9;
    /** The keywords the context rules name, each at its code minus one. */
    private static final String[] KEYWORDS = { "BASE", "PREFIX", "FROM", "NAMED", "USING", "WITH", "LIMIT", "OFFSET" };

    private final String q;
    private final int n;
    private final StringBuilder key;
    private final List<Slot> slots = new ArrayList<>();
    private int[] prefixes = new int[16];
    private int prefixCount;
    /** A base IRI is in effect: IRIs are resolved against it, so they all stay in the key. */
    private boolean relativeBase;
    /** The codes of the previous two tokens (a slot is {@link #OTHER}). */
    private int previous = OTHER;
    private int beforePrevious = OTHER;
    /** The previous token's range of the query if it was a key token; empty after a slot. */
    private int previousStart;
    private int previousEnd;
    private int pos;
    /** The token the last lexing step read: {@code q[tokenStart, tokenEnd)}, a slot of {@code tokenKind} or a key token (null). */
    private Kind tokenKind;
    private int tokenStart;
    private int tokenEnd;

    ShapeLexer(String query, String baseUri) {
        this.q = query;
        this.n = query.length();
        this.relativeBase = baseUri != null;
        this.key = new StringBuilder((baseUri == null ? 0 : baseUri.length()) + n + 64);
        if (baseUri != null) {
            key.append(baseUri);
        }
        key.append('\u0000');
    }

    /** The query's shape, or null if it cannot be split safely. */
    QueryShape run() {
        while (true) {
            skipSpaceAndComments();
            if (pos >= n) {
                return new QueryShape(q, key.toString(), List.copyOf(slots),
                        Arrays.copyOf(prefixes, 4 * prefixCount), prefixCount);
            }
            if (!next(q.charAt(pos))) {
                return null;
            }
            // one place takes every token in, so the JIT compiles the key's appends and the context rules once
            if (tokenKind == null) {
                keyToken(tokenStart, tokenEnd);
            } else {
                slot(tokenKind, tokenStart, tokenEnd);
            }
        }
    }

    /** Reads the token starting with {@code c} at {@link #pos} and moves past it; false if it cannot. */
    private boolean next(char c) {
        if (c == '<') {
            return iriOrLess();
        } else if (c == '"' || c == '\'') {
            return string(c);
        } else if (c == '?' || c == '$') {
            return token(null, pos, nameCharsEnd(pos + 1));
        } else if (isDigit(c) || c == '.' && pos + 1 < n && isDigit(q.charAt(pos + 1))) {
            return number();
        } else if (c == '@') {
            return token(null, pos, nameEnd(pos + 1));
        } else if (c == '_' && pos + 1 < n && q.charAt(pos + 1) == ':') {
            return token(null, pos, nameEnd(pos + 2));
        } else if (isLetter(c) || c == ':') {
            return wordOrName();
        } else if (c == '^' && pos + 1 < n && q.charAt(pos + 1) == '^') {
            return token(null, pos, pos + 2);
        }
        return token(null, pos, pos + 1);
    }

    /** The token read: a slot of {@code kind} or a key token (null), {@code q[start, end)}; the lexer goes on after {@code end}. */
    private boolean token(Kind kind, int start, int end) {
        return token(kind, start, end, end);
    }

    /** The same, the lexer going on at {@code resume} (after a string's closing quote). */
    private boolean token(Kind kind, int start, int end, int resume) {
        tokenKind = kind;
        tokenStart = start;
        tokenEnd = end;
        pos = resume;
        return true;
    }

    private void skipSpaceAndComments() {
        while (pos < n) {
            char c = q.charAt(pos);
            if (c == '#') {
                while (pos < n && q.charAt(pos) != '\n' && q.charAt(pos) != '\r') {
                    pos++;
                }
            } else if (isSpace(c)) {
                pos++;
            } else {
                return;
            }
        }
    }

    private boolean iriOrLess() {
        for (int j = pos + 1; j < n; j++) {
            char c = q.charAt(j);
            if (c == '>') {
                return iri(pos, j + 1);
            }
            if (!isIriChar(c)) {
                break;
            }
        }
        return token(null, pos, pos + 1);
    }

    /** The IRI token {@code q[start, end)}, brackets included. */
    private boolean iri(int start, int end) {
        boolean declaration = previous == BASE || beforePrevious == PREFIX || previous == FROM
                || previous == NAMED || previous == USING || previous == WITH || previous == CARETS;
        if (beforePrevious == PREFIX && previousEnd > previousStart && q.charAt(previousEnd - 1) == ':') {
            declare(previousStart, previousEnd - 1, start + 1, end - 1);
        }
        boolean constant = !declaration && !relativeBase && isAbsolute(start + 1, end - 1);
        return token(constant && !followedByParenthesis(end) ? Kind.IRI : null, start, end);
    }

    private void declare(int nameStart, int nameEnd, int iriStart, int iriEnd) {
        if (4 * prefixCount == prefixes.length) {
            prefixes = Arrays.copyOf(prefixes, 2 * prefixes.length);
        }
        int p = 4 * prefixCount++;
        prefixes[p] = nameStart;
        prefixes[p + 1] = nameEnd;
        prefixes[p + 2] = iriStart;
        prefixes[p + 3] = iriEnd;
    }

    private boolean string(char quote) {
        boolean longForm = tripleQuote(quote, pos);
        int open = longForm ? 3 : 1;
        int j = pos + open;
        boolean escaped = false;
        while (true) {
            if (j >= n) {
                return false;
            }
            char c = q.charAt(j);
            if (c == '\\') {
                escaped = true;
                j += 2;
                continue;
            }
            if (!longForm && (c == '\n' || c == '\r')) {
                return false;
            }
            if (c == quote && (!longForm || tripleQuote(quote, j))) {
                break;
            }
            j++;
        }
        if (escaped || longForm) {
            return token(null, pos, j + open);
        }
        return token(Kind.STRING, pos + 1, j, j + 1);
    }

    private boolean tripleQuote(char quote, int at) {
        return at + 2 < n && q.charAt(at) == quote && q.charAt(at + 1) == quote && q.charAt(at + 2) == quote;
    }

    private boolean number() {
        int start = pos;
        int j = digitsEnd(pos);
        Kind kind = Kind.INTEGER;
        if (j + 1 < n && q.charAt(j) == '.' && isDigit(q.charAt(j + 1))) {
            kind = Kind.DECIMAL;
            j = digitsEnd(j + 1);
        }
        if (j < n && (q.charAt(j) == 'e' || q.charAt(j) == 'E')) {
            int k = j + 1;
            if (k < n && (q.charAt(k) == '+' || q.charAt(k) == '-')) {
                k++;
            }
            if (k < n && isDigit(q.charAt(k))) {
                kind = Kind.DOUBLE;
                j = digitsEnd(k);
            }
        }
        if (j < n && (isLetter(q.charAt(j)) || q.charAt(j) == '_' || q.charAt(j) == ':')) {
            return false; // not a number token boundary this lexer understands
        }
        char before = start > 0 ? q.charAt(start - 1) : ' ';
        boolean inKey = previous == LIMIT || previous == OFFSET || before == '+' || before == '-';
        return token(inKey ? null : kind, start, j);
    }

    private int digitsEnd(int from) {
        int j = from;
        while (j < n && isDigit(q.charAt(j))) {
            j++;
        }
        return j;
    }

    private int nameCharsEnd(int from) {
        int j = from;
        while (j < n && isNameChar(q.charAt(j))) {
            j++;
        }
        return j;
    }

    /** The end of a name starting at {@code from}: name characters, '-' and '.', not ending in '.'. */
    private int nameEnd(int from) {
        int j = from;
        while (j < n && (isNameChar(q.charAt(j)) || q.charAt(j) == '-' || q.charAt(j) == '.')) {
            j++;
        }
        while (j > from && q.charAt(j - 1) == '.') {
            j--;
        }
        return j;
    }

    private boolean wordOrName() {
        int start = pos;
        int j = nameEnd(pos);
        if (j < n && q.charAt(j) == ':') {
            return prefixedName(start, j);
        }
        if (j - start == 7 && q.regionMatches(true, start, "SERVICE", 0, 7)) {
            return false;
        }
        return token(null, start, j);
    }

    /** The prefixed name starting at {@code start} whose colon is at {@code colon}. */
    private boolean prefixedName(int start, int colon) {
        int localStart = colon + 1;
        int j = localStart;
        boolean plain = true;
        while (j < n) {
            char c = q.charAt(j);
            if (c == '\\' || c == '%') {
                plain = false;
                j += c == '\\' ? 2 : 3;
            } else if (isNameChar(c) || c == '-' || c == '.' || c == ':') {
                j++;
            } else {
                break;
            }
        }
        j = Math.min(j, n);
        while (j > localStart && q.charAt(j - 1) == '.') {
            j--;
        }
        boolean constant = plain && j > localStart && previous != CARETS && previous != PREFIX
                && QueryShape.declaration(q, prefixes, prefixCount, start, colon) >= 0;
        return token(constant && !followedByParenthesis(j) ? Kind.PREFIXED_NAME : null, start, j);
    }

    private boolean followedByParenthesis(int from) {
        int j = from;
        while (j < n && isSpace(q.charAt(j))) {
            j++;
        }
        return j < n && q.charAt(j) == '(';
    }

    /** The key token {@code q[start, end)}. */
    private void keyToken(int start, int end) {
        key.append(q, start, end).append('\u0000');
        beforePrevious = previous;
        previous = code(start, end);
        previousStart = start;
        previousEnd = end;
        if (previous == BASE) {
            // BASE belongs to the prologue, so no IRI of the body was read before it
            relativeBase = true;
        }
    }

    /** The constant {@code q[start, end)} (see {@link Slot}). */
    private void slot(Kind kind, int start, int end) {
        key.append('\u0001').append(kind.ordinal()).append('\u0000');
        slots.add(new Slot(kind, start, end));
        beforePrevious = previous;
        previous = OTHER;
        previousStart = previousEnd = 0;
    }

    /** The context code of the key token {@code q[start, end)}: a keyword's (ignoring case), {@link #CARETS} or {@link #OTHER}. */
    private int code(int start, int end) {
        int length = end - start;
        if (length == 2) {
            return q.charAt(start) == '^' && q.charAt(start + 1) == '^' ? CARETS : OTHER;
        }
        if (length < 4 || length > 6 || !isLetter(q.charAt(start))) {
            return OTHER;
        }
        for (int k = 0; k < KEYWORDS.length; k++) {
            if (KEYWORDS[k].length() == length && q.regionMatches(true, start, KEYWORDS[k], 0, length)) {
                return k + 1;
            }
        }
        return OTHER;
    }

    /** Whether {@code q[from, to)} starts with a scheme: a letter, then letters, digits, '+', '-', '.', then ':'. */
    private boolean isAbsolute(int from, int to) {
        int colon = q.indexOf(':', from);
        if (colon < 0 || colon >= to || colon == from || !isLetter(q.charAt(from))) {
            return false;
        }
        for (int i = from + 1; i < colon; i++) {
            char c = q.charAt(i);
            if (!isLetter(c) && !Character.isDigit(c) && c != '+' && c != '-' && c != '.') {
                return false;
            }
        }
        return true;
    }

    private static boolean isIriChar(char c) {
        if (c <= ' ') {
            return false;
        }
        switch (c) {
        case '<', '"', '{', '}', '|', '^', '`', '\\':
            return false;
        default:
            return true;
        }
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isLetter(char c) {
        return c < 0x80 ? (c | 0x20) >= 'a' && (c | 0x20) <= 'z' : Character.isLetter(c);
    }

    private static boolean isNameChar(char c) {
        if (c < 0x80) {
            return (c | 0x20) >= 'a' && (c | 0x20) <= 'z' || c >= '0' && c <= '9' || c == '_';
        }
        return Character.isLetterOrDigit(c) || c == '\u00B7';
    }

    /** {@link Character#isWhitespace}, without its table lookup for ASCII. */
    private static boolean isSpace(char c) {
        if (c < 0x80) {
            return c == ' ' || c >= 0x09 && c <= 0x0D || c >= 0x1C && c <= 0x1F;
        }
        return Character.isWhitespace(c);
    }
}

