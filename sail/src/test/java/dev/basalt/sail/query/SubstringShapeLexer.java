package dev.basalt.sail.query;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference for {@link QueryShape}'s lexer: the same shape rules written the plain way, a substring per token
 * and the context rules as string comparisons. {@link QueryShapeLexerTest} checks that {@link QueryShape#of} gives the
 * same key, slots and namespaces as this one on every query it is given. Test code, single-threaded.
 */
final class SubstringShapeLexer {
    enum Kind {
        IRI, PREFIXED_NAME, STRING, INTEGER, DECIMAL, DOUBLE
    }

    /**
     * A constant of the query: {@code text} is the IRI without brackets, the prefixed name, the
     * string's characters without quotes, or the number; {@code start..end} is the part of the query
     * a sentinel replaces (for a string, the characters inside the quotes).
     */
    record Slot(Kind kind, String text, int start, int end) {
    }

    private final String key;
    private final List<Slot> slots;
    private final Map<String, String> prefixes;

    private SubstringShapeLexer(String key, List<Slot> slots, Map<String, String> prefixes) {
        this.key = key;
        this.slots = slots;
        this.prefixes = prefixes;
    }

    String key() {
        return key;
    }

    List<Slot> slots() {
        return slots;
    }

    /** The namespace the query's prologue declares for {@code prefix}, or null. */
    String namespace(String prefix) {
        return prefixes.get(prefix);
    }

    /** The shape of {@code query} read with {@code baseUri}, or null if it cannot be split safely. */
    static SubstringShapeLexer of(String query, String baseUri) {
        if (query.contains("\\u") || query.contains("\\U")) {
            return null;
        }
        return new Lexer(query, baseUri).run();
    }

    private static final class Lexer {
        private final String q;
        private final int n;
        private final StringBuilder key = new StringBuilder();
        private final List<Slot> slots = new ArrayList<>();
        private final Map<String, String> prefixes = new HashMap<>();
        /** A base IRI is in effect: IRIs are resolved against it, so they all stay in the key. */
        private boolean relativeBase;
        /** The previous two key tokens as written (compared ignoring case), for the context rules. */
        private String previous = "";
        private String beforePrevious = "";
        private String previousAsWritten = "";
        private int pos;

        Lexer(String query, String baseUri) {
            this.q = query;
            this.n = query.length();
            this.relativeBase = baseUri != null;
            key.append(baseUri == null ? "" : baseUri).append('\u0000');
        }

        SubstringShapeLexer run() {
            while (true) {
                skipSpaceAndComments();
                if (pos >= n) {
                    return new SubstringShapeLexer(key.toString(), List.copyOf(slots), Map.copyOf(prefixes));
                }
                char c = q.charAt(pos);
                boolean ok;
                if (c == '<') {
                    ok = iriOrLess();
                } else if (c == '"' || c == '\'') {
                    ok = string(c);
                } else if (c == '?' || c == '$') {
                    ok = variable();
                } else if (isDigit(c) || c == '.' && pos + 1 < n && isDigit(q.charAt(pos + 1))) {
                    ok = number();
                } else if (c == '@') {
                    ok = keyWord(pos + 1);
                } else if (c == '_' && pos + 1 < n && q.charAt(pos + 1) == ':') {
                    ok = keyWord(pos + 2);
                } else if (Character.isLetter(c) || c == ':') {
                    ok = wordOrName();
                } else if (c == '^' && q.startsWith("^^", pos)) {
                    keyToken("^^");
                    pos += 2;
                    ok = true;
                } else {
                    keyToken(String.valueOf(c));
                    pos++;
                    ok = true;
                }
                if (!ok) {
                    return null;
                }
            }
        }

        private void skipSpaceAndComments() {
            while (pos < n) {
                char c = q.charAt(pos);
                if (c == '#') {
                    while (pos < n && q.charAt(pos) != '\n' && q.charAt(pos) != '\r') {
                        pos++;
                    }
                } else if (Character.isWhitespace(c)) {
                    pos++;
                } else {
                    return;
                }
            }
        }

        private boolean iriOrLess() {
            int j = pos + 1;
            while (j < n) {
                char c = q.charAt(j);
                if (c == '>') {
                    String iri = q.substring(pos + 1, j);
                    int start = pos;
                    pos = j + 1;
                    iri(iri, start);
                    return true;
                }
                if (c <= ' ' || "<\"{}|^`\\".indexOf(c) >= 0) {
                    break;
                }
                j++;
            }
            keyToken("<");
            pos++;
            return true;
        }

        private void iri(String iri, int start) {
            boolean declaration = previous.equalsIgnoreCase("BASE") || beforePrevious.equalsIgnoreCase("PREFIX")
                    || previous.equalsIgnoreCase("FROM") || previous.equalsIgnoreCase("NAMED")
                    || previous.equalsIgnoreCase("USING") || previous.equalsIgnoreCase("WITH") || previous.equals("^^");
            if (beforePrevious.equalsIgnoreCase("PREFIX") && previous.endsWith(":")) {
                prefixes.put(previousAsWritten.substring(0, previousAsWritten.length() - 1), iri);
            }
            if (!declaration && !relativeBase && isAbsolute(iri) && !followedByParenthesis()) {
                slot(Kind.IRI, iri, start, pos);
            } else {
                keyToken("<" + iri + ">");
            }
        }

        private boolean string(char quote) {
            boolean longForm = q.startsWith(String.valueOf(quote).repeat(3), pos);
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
                if (c == quote && (!longForm || q.startsWith(String.valueOf(quote).repeat(3), j))) {
                    break;
                }
                j++;
            }
            int contentStart = pos + open;
            String text = q.substring(contentStart, j);
            String token = q.substring(pos, j + open);
            pos = j + open;
            if (escaped || longForm) {
                keyToken(token);
            } else {
                slot(Kind.STRING, text, contentStart, j);
            }
            return true;
        }

        private boolean variable() {
            int j = pos + 1;
            while (j < n && isNameChar(q.charAt(j))) {
                j++;
            }
            keyToken(q.substring(pos, j));
            pos = j;
            return true;
        }

        private boolean number() {
            int start = pos;
            int j = pos;
            while (j < n && isDigit(q.charAt(j))) {
                j++;
            }
            Kind kind = Kind.INTEGER;
            if (j + 1 < n && q.charAt(j) == '.' && isDigit(q.charAt(j + 1))) {
                kind = Kind.DECIMAL;
                j++;
                while (j < n && isDigit(q.charAt(j))) {
                    j++;
                }
            }
            if (j < n && (q.charAt(j) == 'e' || q.charAt(j) == 'E')) {
                int k = j + 1;
                if (k < n && (q.charAt(k) == '+' || q.charAt(k) == '-')) {
                    k++;
                }
                if (k < n && isDigit(q.charAt(k))) {
                    kind = Kind.DOUBLE;
                    j = k;
                    while (j < n && isDigit(q.charAt(j))) {
                        j++;
                    }
                }
            }
            if (j < n && (Character.isLetter(q.charAt(j)) || q.charAt(j) == '_' || q.charAt(j) == ':')) {
                return false; // not a number token boundary this lexer understands
            }
            String text = q.substring(start, j);
            pos = j;
            char before = start > 0 ? q.charAt(start - 1) : ' ';
            if (previous.equalsIgnoreCase("LIMIT") || previous.equalsIgnoreCase("OFFSET") || before == '+'
                    || before == '-') {
                keyToken(text);
            } else {
                slot(kind, text, start, j);
            }
            return true;
        }

        /** A language tag or blank node label, whose name starts at {@code from}: part of the key. */
        private boolean keyWord(int from) {
            int end = nameEnd(from);
            keyToken(q.substring(pos, end));
            pos = end;
            return true;
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
                String prefix = q.substring(start, j);
                j++;
                int localStart = j;
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
                String name = q.substring(start, j);
                pos = j;
                boolean declared = prefixes.containsKey(prefix);
                if (plain && declared && j > localStart && !previous.equals("^^")
                        && !previous.equalsIgnoreCase("PREFIX") && !followedByParenthesis()) {
                    slot(Kind.PREFIXED_NAME, name, start, j);
                } else {
                    keyToken(name);
                }
                return true;
            }
            String word = q.substring(start, j);
            pos = j;
            if (word.equalsIgnoreCase("SERVICE")) {
                return false;
            }
            keyToken(word);
            return true;
        }

        private boolean followedByParenthesis() {
            int j = pos;
            while (j < n && Character.isWhitespace(q.charAt(j))) {
                j++;
            }
            return j < n && q.charAt(j) == '(';
        }

        private void keyToken(String token) {
            key.append(token).append('\u0000');
            beforePrevious = previous;
            previous = token; // no upper-cased copy per token: the rules compare ignoring case
            previousAsWritten = token;
            if (previous.equalsIgnoreCase("BASE")) {
                // BASE belongs to the prologue, so no IRI of the body was read before it
                relativeBase = true;
            }
        }

        private void slot(Kind kind, String text, int start, int end) {
            key.append('\u0001').append(kind.ordinal()).append('\u0000');
            slots.add(new Slot(kind, text, start, end));
            beforePrevious = previous;
            previous = "\u0001";
            previousAsWritten = text;
        }

        private static boolean isAbsolute(String iri) {
            int colon = iri.indexOf(':');
            if (colon <= 0 || !Character.isLetter(iri.charAt(0))) {
                return false;
            }
            for (int i = 1; i < colon; i++) {
                char c = iri.charAt(i);
                if (!Character.isLetterOrDigit(c) && c != '+' && c != '-' && c != '.') {
                    return false;
                }
            }
            return true;
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private static boolean isNameChar(char c) {
            return Character.isLetterOrDigit(c) || c == '_' || c == '\u00B7';
        }
    }
}
