package dev.basalt.workbench.render;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code <?xml-stylesheet?>} processing instruction a browser would apply to an XML document: the first one in
 * the prolog (before the root element) whose type is an XSLT type and that is not marked {@code alternate="yes"}.
 *
 * <p>{@link #scan} reads only the prolog, so a caller can decide after the first bytes of a response whether the
 * rest needs to be held: a response that is not XML-with-stylesheet streams on untouched. The prolog is read as
 * ISO-8859-1, which keeps every ASCII byte of UTF-8 and single-byte encodings as it is; a UTF-16 document is not
 * recognised (its prolog has no ASCII {@code <?}) and passes through unchanged. Stateless and thread-safe.
 *
 * @param href the stylesheet's address as written (entity references in it decoded)
 */
record StylesheetInstruction(String href) {
    /** What {@link #scan} found in the bytes given so far. */
    enum Outcome { NEED_MORE, NONE, FOUND }

    /** The scan's outcome and, when {@link Outcome#FOUND}, the instruction. */
    record Scan(Outcome outcome, StylesheetInstruction instruction) {
    }

    /** The types under which browsers run a stylesheet as XSLT. */
    static final Set<String> XSLT_TYPES = Set.of("text/xsl", "application/xslt+xml", "text/xml", "application/xml");

    private static final Pattern PSEUDO_ATTRIBUTE = Pattern.compile("([A-Za-z_][\\w.-]*)\\s*=\\s*(?:'([^']*)'|\"([^\"]*)\")");
    private static final String PI_START = "<?xml-stylesheet";

    /**
     * Scans the prolog in {@code bytes[0, length)}: {@link Outcome#FOUND} with the first applicable instruction,
     * {@link Outcome#NONE} when the root element starts without one (or the bytes are not an XML prolog), and
     * {@link Outcome#NEED_MORE} when the prolog continues past {@code length}.
     */
    static Scan scan(byte[] bytes, int length) {
        String text = new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
        int at = text.startsWith("\u00EF\u00BB\u00BF") ? 3 : 0;
        while (true) {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
            if (at >= text.length() || isCutMarkup(text.substring(at))) {
                return new Scan(Outcome.NEED_MORE, null);
            }
            if (text.charAt(at) != '<') {
                return new Scan(Outcome.NONE, null);
            }
            int end;
            if (text.startsWith("<?", at)) {
                end = text.indexOf("?>", at + 2);
                if (end < 0) {
                    return new Scan(Outcome.NEED_MORE, null);
                }
                StylesheetInstruction found = applicable(text.substring(at, end));
                if (found != null) {
                    return new Scan(Outcome.FOUND, found);
                }
                end += 2;
            } else if (text.startsWith("<!--", at)) {
                end = text.indexOf("-->", at + 4);
                if (end < 0) {
                    return new Scan(Outcome.NEED_MORE, null);
                }
                end += 3;
            } else if (text.startsWith("<!DOCTYPE", at)) {
                end = doctypeEnd(text, at);
                if (end < 0) {
                    return new Scan(Outcome.NEED_MORE, null);
                }
            } else {
                return new Scan(Outcome.NONE, null);
            }
            at = end;
        }
    }

    /** The instruction in {@code pi} (from {@code <?} up to, not including, {@code ?>}) if a browser would apply it. */
    private static StylesheetInstruction applicable(String pi) {
        if (!pi.startsWith(PI_START) || pi.length() == PI_START.length()
                || !Character.isWhitespace(pi.charAt(PI_START.length()))) {
            return null;
        }
        String href = null;
        String type = null;
        String alternate = null;
        Matcher m = PSEUDO_ATTRIBUTE.matcher(pi.substring(PI_START.length()));
        while (m.find()) {
            String value = decode(m.group(2) != null ? m.group(2) : m.group(3));
            switch (m.group(1)) {
                case "href" -> href = value;
                case "type" -> type = value.trim().toLowerCase(Locale.ROOT);
                case "alternate" -> alternate = value;
                default -> {
                    // title, media, charset: browsers apply the stylesheet whatever they say
                }
            }
        }
        if (href == null || href.isBlank() || type == null || !XSLT_TYPES.contains(type) || "yes".equals(alternate)) {
            return null;
        }
        return new StylesheetInstruction(href.trim());
    }

    /** Whether {@code rest} is the beginning of prolog markup cut off by the end of the bytes so far. */
    private static boolean isCutMarkup(String rest) {
        return "<?".startsWith(rest) || "<!--".startsWith(rest) || "<!DOCTYPE".startsWith(rest);
    }

    private static int doctypeEnd(String text, int at) {
        boolean inSubset = false;
        char quote = 0;
        for (int i = at + 9; i < text.length(); i++) {
            char c = text.charAt(i);
            if (quote != 0) {
                quote = c == quote ? 0 : quote;
            } else if (c == '"' || c == '\'') {
                quote = c;
            } else if (c == '[') {
                inSubset = true;
            } else if (c == ']') {
                inSubset = false;
            } else if (c == '>' && !inSubset) {
                return i + 1;
            }
        }
        return -1;
    }

    private static String decode(String value) {
        return value.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&apos;", "'")
                .replace("&amp;", "&");
    }
}
