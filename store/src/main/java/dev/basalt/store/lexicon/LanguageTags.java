package dev.basalt.store.lexicon;

import java.util.Arrays;

/**
 * Language tags as the lexicon stores them, and the frozen table of tags that inline
 * language-tagged strings may carry.
 *
 * <p>Normal form: ASCII letters lower-cased, nothing else changed. RDF 1.1 Concepts (section 3.3)
 * defines language tags as case-insensitive and lets an implementation convert them to lower
 * case, and SPARQL's sameTerm("x"@EN, "x"@en) must hold. RDF4J 5.0.3's {@code SimpleLiteral}
 * keeps the spelling it was given but its {@code equals} ignores case, so a literal read back as
 * "x"@en equals the "x"@EN that was stored; what changes is only what {@code LANG()} returns.
 *
 * <p>The table below is part of format version {@link TermIds#FORMAT_VERSION}: codes 1..63 index
 * it, code 0 is unused. It is sorted, so inline ids of two tags order as the tags do. It may not
 * be edited; a new table needs a new format version.
 *
 * <p>Stateless (its table is fixed at class initialisation); any thread may call it.
 */
public final class LanguageTags {
    private static final String[] TABLE = {
        "ar", "bg", "ca", "cs", "cy", "da", "de", "de-at", "de-ch", "el",
        "en", "en-au", "en-ca", "en-gb", "en-us", "eo", "es", "es-mx", "et", "eu",
        "fa", "fi", "fr", "fr-ca", "ga", "gl", "he", "hi", "hr", "hu",
        "hy", "id", "is", "it", "ja", "ka", "ko", "la", "lt", "lv",
        "mk", "ms", "mt", "nb", "nl", "nn", "no", "pl", "pt", "pt-br",
        "ro", "ru", "sk", "sl", "sq", "sr", "sv", "th", "tr", "uk",
        "vi", "zh", "zh-hans",
    };

    static {
        if (TABLE.length > (1 << TermIds.LANG_CODE_BITS) - 1) {
            throw new ExceptionInInitializerError("language table exceeds its code space");
        }
        for (int i = 1; i < TABLE.length; i++) {
            if (TABLE[i - 1].compareTo(TABLE[i]) >= 0) {
                throw new ExceptionInInitializerError("language table not sorted at " + TABLE[i]);
            }
        }
    }

    private LanguageTags() {
    }

    /** The stored form of a tag: ASCII upper-case letters mapped to lower case. */
    public static String normalize(String tag) {
        for (int i = 0; i < tag.length(); i++) {
            char c = tag.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                char[] chars = tag.toCharArray();
                for (int j = i; j < chars.length; j++) {
                    if (chars[j] >= 'A' && chars[j] <= 'Z') {
                        chars[j] = (char) (chars[j] + ('a' - 'A'));
                    }
                }
                return new String(chars);
            }
        }
        return tag;
    }

    /** Code 1..63 of a normalized tag in the inline table, or 0 if it is not there. */
    static int code(String normalizedTag) {
        int i = Arrays.binarySearch(TABLE, normalizedTag);
        return i >= 0 ? i + 1 : 0;
    }

    static String tag(int code) {
        if (code < 1 || code > TABLE.length) {
            throw new IllegalArgumentException("no inline language code " + code);
        }
        return TABLE[code - 1];
    }

    static int tableSize() {
        return TABLE.length;
    }
}
