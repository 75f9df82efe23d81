package dev.basalt.sail.load;

/**
 * Well-formed UTF-8 by RFC 3629, for messages about input that is not: the length of one sequence,
 * and the place of the first bad one in a run of bytes. Used where a parser already failed, never
 * on the loader's fast path. Stateless and thread-safe.
 */
final class Utf8 {
    private Utf8() {
    }

    /**
     * The length (1 to 4) of the well-formed sequence that starts at {@code b[i]} and ends before
     * {@code end}, or -1 if there is none there (a stray continuation byte, an overlong form, a
     * surrogate, a code point past U+10FFFF, or a sequence cut short).
     */
    static int sequenceLength(byte[] b, int i, int end) {
        int lead = b[i] & 0xFF;
        if (lead < 0x80) {
            return 1;
        }
        int length;
        int secondLow = 0x80;
        int secondHigh = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            secondLow = lead == 0xE0 ? 0xA0 : 0x80;
            secondHigh = lead == 0xED ? 0x9F : 0xBF;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            secondLow = lead == 0xF0 ? 0x90 : 0x80;
            secondHigh = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            return -1;
        }
        if (i + length > end) {
            return -1;
        }
        int second = b[i + 1] & 0xFF;
        if (second < secondLow || second > secondHigh) {
            return -1;
        }
        for (int k = 2; k < length; k++) {
            if ((b[i + k] & 0xC0) != 0x80) {
                return -1;
            }
        }
        return length;
    }

    /** The offset of the first byte in {@code b[from, to)} that starts no well-formed sequence, or -1. */
    static int firstMalformed(byte[] b, int from, int to) {
        int i = from;
        while (i < to) {
            int n = sequenceLength(b, i, to);
            if (n < 0) {
                return i;
            }
            i += n;
        }
        return -1;
    }
}
