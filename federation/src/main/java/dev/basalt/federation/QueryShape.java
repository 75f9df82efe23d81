package dev.basalt.federation;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;

/**
 * A query text with its constants taken out: the shape that queries sent with other parameter values
 * share (a benchmark's or an application's query forms), and the constants in text order. Constants are
 * absolute IRIs ({@code <http://…>}), numbers, and quoted strings without escapes (with their language
 * tag or datatype, which stay in the shape); the prologue (PREFIX), the numbers after LIMIT and OFFSET
 * and everything else stay in the shape. A text with BASE, a string with a backslash or anything this
 * scanner does not follow has no shape ({@link #of} returns null) and is simply parsed.
 *
 * <p>The shape is only a key: {@link PreparedQueries} checks, the first time a shape is reused, that
 * putting the new constants into the earlier parse gives exactly what parsing the new text gives.
 *
 * <p>Immutable and thread-safe.
 */
record QueryShape(String key, List<Value> constants) {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    /** The shape of {@code text}, or null when it has none. */
    static QueryShape of(String text) {
        StringBuilder key = new StringBuilder(text.length());
        List<Value> constants = new ArrayList<>();
        Map<String, String> prefixes = new HashMap<>();
        boolean body = false;
        String previousWord = "";
        int i = 0;
        int n = text.length();
        while (i < n) {
            char c = text.charAt(i);
            if (c == '#') { // a comment, to the end of the line
                while (i < n && text.charAt(i) != '\n') {
                    i++;
                }
                continue;
            }
            if (Character.isWhitespace(c)) {
                key.append(' ');
                while (i < n && Character.isWhitespace(text.charAt(i))) {
                    i++;
                }
                continue;
            }
            if (c == '<') {
                int end = iriEnd(text, i);
                if (end > 0) {
                    String iri = text.substring(i + 1, end);
                    if (!body || !iri.contains(":")) {
                        if (!body && previousWord.endsWith(":")) {
                            prefixes.put(previousWord, iri);
                        }
                        if (body) {
                            return null; // a relative IRI
                        }
                        key.append(text, i, end + 1);
                    } else {
                        key.append("<?>");
                        constants.add(VF.createIRI(iri));
                    }
                    i = end + 1;
                    previousWord = "";
                    continue;
                }
            }
            if (c == '"' || c == '\'') {
                if (i + 2 < n && text.charAt(i + 1) == c && text.charAt(i + 2) == c) {
                    return null; // long strings: parsed as they are
                }
                int end = i + 1;
                while (end < n && text.charAt(end) != c) {
                    if (text.charAt(end) == '\\' || text.charAt(end) == '\n') {
                        return null;
                    }
                    end++;
                }
                if (end >= n || !body) {
                    return null;
                }
                String label = text.substring(i + 1, end);
                i = end + 1;
                if (i < n && text.charAt(i) == '@') {
                    int tag = i + 1;
                    while (tag < n && (Character.isLetterOrDigit(text.charAt(tag)) || text.charAt(tag) == '-')) {
                        tag++;
                    }
                    String lang = text.substring(i + 1, tag);
                    key.append("\"?\"@").append(lang);
                    constants.add(VF.createLiteral(label, lang));
                    i = tag;
                } else if (i + 1 < n && text.charAt(i) == '^' && text.charAt(i + 1) == '^') {
                    int start = i + 2;
                    IRI datatype;
                    int end2;
                    if (start < n && text.charAt(start) == '<') {
                        end2 = iriEnd(text, start);
                        if (end2 < 0) {
                            return null;
                        }
                        datatype = VF.createIRI(text.substring(start + 1, end2));
                        end2++;
                    } else {
                        end2 = start;
                        while (end2 < n && (Character.isLetterOrDigit(text.charAt(end2)) || text.charAt(end2) == ':'
                                || text.charAt(end2) == '_' || text.charAt(end2) == '-')) {
                            end2++;
                        }
                        String pname = text.substring(start, end2);
                        int colon = pname.indexOf(':');
                        String namespace = colon < 0 ? null : prefixes.get(pname.substring(0, colon + 1));
                        if (namespace == null) {
                            return null;
                        }
                        datatype = VF.createIRI(namespace + pname.substring(colon + 1));
                    }
                    key.append("\"?\"^^").append(text, start, end2);
                    constants.add(VF.createLiteral(label, datatype));
                    i = end2;
                } else {
                    key.append("\"?\"");
                    constants.add(VF.createLiteral(label));
                }
                previousWord = "";
                continue;
            }
            if (Character.isDigit(c) && body && !previousWord.equals("limit") && !previousWord.equals("offset")
                    && (i == 0 || !isNameChar(text.charAt(i - 1)))) {
                int end = i;
                boolean decimal = false;
                boolean exponent = false;
                while (end < n && (Character.isDigit(text.charAt(end)) || text.charAt(end) == '.'
                        && end + 1 < n && Character.isDigit(text.charAt(end + 1)))) {
                    decimal |= text.charAt(end) == '.';
                    end++;
                }
                if (end < n && (text.charAt(end) == 'e' || text.charAt(end) == 'E')) {
                    exponent = true;
                    end++;
                    if (end < n && (text.charAt(end) == '+' || text.charAt(end) == '-')) {
                        end++;
                    }
                    while (end < n && Character.isDigit(text.charAt(end))) {
                        end++;
                    }
                }
                if (end < n && isNameChar(text.charAt(end))) {
                    return null;
                }
                String number = text.substring(i, end);
                key.append('0');
                constants.add(VF.createLiteral(number, exponent ? XSD.DOUBLE : decimal ? XSD.DECIMAL : XSD.INTEGER));
                i = end;
                previousWord = "";
                continue;
            }
            if (isNameChar(c)) {
                int end = i;
                while (end < n && (isNameChar(text.charAt(end)) || text.charAt(end) == ':')) {
                    end++;
                }
                String word = text.substring(i, end);
                String lower = word.toLowerCase(Locale.ROOT);
                if (lower.equals("base")) {
                    return null;
                }
                if (lower.equals("select") || lower.equals("construct") || lower.equals("describe")
                        || lower.equals("ask")) {
                    body = true;
                }
                key.append(word);
                previousWord = lower;
                i = end;
                continue;
            }
            key.append(c);
            if (c != '?' && c != '$') {
                previousWord = c == ':' ? previousWord + ":" : "";
            }
            i++;
        }
        return body ? new QueryShape(key.toString(), List.copyOf(constants)) : null;
    }

    /** The index of the {@code >} closing an IRI that opens at {@code start}, or -1 (a less-than sign). */
    private static int iriEnd(String text, int start) {
        for (int i = start + 1; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '>') {
                return i;
            }
            if (c <= ' ' || c == '<' || c == '"' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`'
                    || c == '\\') {
                return -1;
            }
        }
        return -1;
    }

    private static boolean isNameChar(char c) {
        return Character.isLetterOrDigit(c) || c == '_' || c == '-';
    }
}
