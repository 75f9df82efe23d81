package dev.basalt.store.lexicon;

/**
 * Inline short strings: plain {@code xsd:string} literals of at most
 * {@link TermIds#STRING_MAX_BYTES} UTF-8 bytes, and language-tagged strings of at most
 * {@link TermIds#LANG_STRING_MAX_BYTES} bytes whose normalized tag is in {@link LanguageTags}'s
 * table.
 *
 * <p>The bytes are stored big-endian and zero-padded with the byte count in the low
 * {@link TermIds#LENGTH_BITS} bits. Comparing padded bytes first and the length last is exactly
 * lexicographic byte order, which for UTF-8 is code point order, so ids of two short strings
 * compare as SPARQL compares the strings; a string with a NUL byte stays distinct from its
 * prefix ("a" &lt; "a\0" &lt; "a\1"). Language-tagged ids order by tag, then by text.
 *
 * <p>Stateless; any thread may call it.
 */
final class StringCodec {
    private StringCodec() {
    }

    /** Id of a plain string, or {@link TermIds#NULL} if it is too long. */
    static long encodeString(String label) {
        long bytes = packBytes(label, TermIds.STRING_MAX_BYTES);
        return bytes < 0 ? TermIds.NULL : TermIds.make(TermIds.KIND_STRING, bytes);
    }

    /** Id of a language-tagged string, or {@link TermIds#NULL} if it does not fit. */
    static long encodeLangString(String label, String language) {
        int code = LanguageTags.code(LanguageTags.normalize(language));
        if (code == 0) {
            return TermIds.NULL;
        }
        long bytes = packBytes(label, TermIds.LANG_STRING_MAX_BYTES);
        if (bytes < 0) {
            return TermIds.NULL;
        }
        long payload = ((long) code << (TermIds.KIND_SHIFT - TermIds.LANG_CODE_BITS)) | bytes;
        return TermIds.make(TermIds.KIND_LANG_STRING, payload);
    }

    /** {@link #encodeString(String)} of the label whose well-formed UTF-8 is {@code utf8[from, to)}. */
    static long encodeString(byte[] utf8, int from, int to) {
        long bytes = packBytes(utf8, from, to, TermIds.STRING_MAX_BYTES);
        return bytes < 0 ? TermIds.NULL : TermIds.make(TermIds.KIND_STRING, bytes);
    }

    /** {@link #encodeLangString(String, String)} of the label whose well-formed UTF-8 is {@code utf8[from, to)}. */
    static long encodeLangString(byte[] utf8, int from, int to, String language) {
        int code = LanguageTags.code(LanguageTags.normalize(language));
        if (code == 0) {
            return TermIds.NULL;
        }
        long bytes = packBytes(utf8, from, to, TermIds.LANG_STRING_MAX_BYTES);
        if (bytes < 0) {
            return TermIds.NULL;
        }
        long payload = ((long) code << (TermIds.KIND_SHIFT - TermIds.LANG_CODE_BITS)) | bytes;
        return TermIds.make(TermIds.KIND_LANG_STRING, payload);
    }

    static String decodeString(long id) {
        return unpackBytes(TermIds.payload(id), TermIds.STRING_MAX_BYTES);
    }

    static String decodeLangText(long id) {
        return unpackBytes(TermIds.payload(id), TermIds.LANG_STRING_MAX_BYTES);
    }

    static String decodeLanguage(long id) {
        return LanguageTags.tag((int) (TermIds.payload(id) >>> (TermIds.KIND_SHIFT - TermIds.LANG_CODE_BITS)));
    }

    /**
     * Packs the UTF-8 of {@code s} into the low {@code 8 * max + LENGTH_BITS} bits: byte 0 most
     * significant, zero padding, then the byte count. Returns -1 if the text is longer than max.
     */
    private static long packBytes(String s, int max) {
        if (s.length() > max || Utf8.encodedLength(s) > max) {
            return -1;
        }
        byte[] utf8 = Utf8.encode(s);
        return packBytes(utf8, 0, utf8.length, max);
    }

    /** {@link #packBytes(String, int)} of UTF-8 bytes {@code utf8[from, to)}. */
    private static long packBytes(byte[] utf8, int from, int to, int max) {
        int length = to - from;
        if (length > max) {
            return -1;
        }
        long v = 0;
        for (int i = 0; i < max; i++) {
            v = (v << 8) | (i < length ? utf8[from + i] & 0xFF : 0);
        }
        return (v << TermIds.LENGTH_BITS) | length;
    }

    private static String unpackBytes(long payload, int max) {
        int length = (int) (payload & ((1 << TermIds.LENGTH_BITS) - 1));
        if (length > max) {
            throw new IllegalArgumentException("inline string length " + length + " exceeds " + max);
        }
        long v = payload >>> TermIds.LENGTH_BITS;
        byte[] utf8 = new byte[length];
        for (int i = 0; i < length; i++) {
            utf8[i] = (byte) (v >>> (8 * (max - 1 - i)));
        }
        return Utf8.decode(utf8);
    }
}
