package dev.basalt.store.lexicon;

/**
 * Lossless UTF-8 for Java strings. Well-formed text is encoded as standard UTF-8, so byte order
 * equals code point order. An unpaired surrogate (which RDF4J accepts in a label but a standard
 * encoder would replace by '?') is encoded as the 3-byte sequence of its code unit, as WTF-8
 * does, so every Java string round-trips exactly. Decoding accepts only what encoding produces
 * and fails on anything else, naming the offset.
 *
 * <p>Stateless; any thread may call it.
 */
final class Utf8 {
    private Utf8() {
    }

    static int encodedLength(CharSequence s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }

    static byte[] encode(CharSequence s) {
        byte[] out = new byte[encodedLength(s)];
        int end = encode(s, out, 0);
        assert end == out.length;
        return out;
    }

    /** Writes the encoding of {@code s} at {@code pos} and returns the position after it. */
    static int encode(CharSequence s, byte[] out, int pos) {
        for (int i = 0; i < s.length(); i++) {
            int c = s.charAt(i);
            if (c < 0x80) {
                out[pos++] = (byte) c;
            } else if (c < 0x800) {
                out[pos++] = (byte) (0xC0 | c >>> 6);
                out[pos++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate((char) c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint((char) c, s.charAt(++i));
                out[pos++] = (byte) (0xF0 | cp >>> 18);
                out[pos++] = (byte) (0x80 | cp >>> 12 & 0x3F);
                out[pos++] = (byte) (0x80 | cp >>> 6 & 0x3F);
                out[pos++] = (byte) (0x80 | cp & 0x3F);
            } else {
                out[pos++] = (byte) (0xE0 | c >>> 12);
                out[pos++] = (byte) (0x80 | c >>> 6 & 0x3F);
                out[pos++] = (byte) (0x80 | c & 0x3F);
            }
        }
        return pos;
    }

    static String decode(byte[] in) {
        return decode(in, 0, in.length);
    }

    static String decode(byte[] in, int from, int to) {
        char[] out = new char[to - from];
        int n = 0;
        int i = from;
        while (i < to) {
            int b = in[i] & 0xFF;
            if (b < 0x80) {
                out[n++] = (char) b;
                i++;
            } else if (b >= 0xC2 && b < 0xE0) {
                out[n++] = (char) ((b & 0x1F) << 6 | continuation(in, i + 1, to));
                i += 2;
            } else if (b >= 0xE0 && b < 0xF0) {
                int c = (b & 0x0F) << 12 | continuation(in, i + 1, to) << 6 | continuation(in, i + 2, to);
                if (c < 0x800) {
                    throw malformed(i);
                }
                out[n++] = (char) c;
                i += 3;
            } else if (b >= 0xF0 && b < 0xF5) {
                int cp = (b & 0x07) << 18 | continuation(in, i + 1, to) << 12
                        | continuation(in, i + 2, to) << 6 | continuation(in, i + 3, to);
                if (cp < 0x10000 || cp > Character.MAX_CODE_POINT) {
                    throw malformed(i);
                }
                out[n++] = Character.highSurrogate(cp);
                out[n++] = Character.lowSurrogate(cp);
                i += 4;
            } else {
                throw malformed(i);
            }
        }
        return new String(out, 0, n);
    }

    private static int continuation(byte[] in, int i, int to) {
        if (i >= to || (in[i] & 0xC0) != 0x80) {
            throw malformed(i);
        }
        return in[i] & 0x3F;
    }

    private static IllegalArgumentException malformed(int offset) {
        return new IllegalArgumentException("malformed UTF-8 in a term encoding at byte " + offset);
    }
}
