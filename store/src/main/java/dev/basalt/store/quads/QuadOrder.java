package dev.basalt.store.quads;

import java.util.Arrays;
import java.util.Locale;

/**
 * One key order of a statement index, such as {@code spoc} or {@code posc}: a permutation of the
 * four positions subject, predicate, object, context. A quad's key is its four 64-bit term ids in
 * that order, each big-endian, so a pattern whose bound positions come first in the order is one
 * contiguous key range (a prefix scan), and the B+tree's counted nodes count it exactly.
 */
public final class QuadOrder {
    public static final int S = 0;
    public static final int P = 1;
    public static final int O = 2;
    public static final int C = 3;
    public static final int KEY_BYTES = 32;
    private static final String LETTERS = "spoc";

    private final String name;
    /** positions[i] = which quad position (S, P, O, C) stands i-th in the key. */
    private final int[] positions = new int[4];

    private QuadOrder(String name) {
        this.name = name;
        for (int i = 0; i < 4; i++) {
            positions[i] = LETTERS.indexOf(name.charAt(i));
        }
    }

    /** Parses an order such as "spoc" or "POSC"; every one of s, p, o, c exactly once. */
    public static QuadOrder parse(String text) {
        String n = text.trim().toLowerCase(Locale.ROOT);
        char[] sorted = n.toCharArray();
        Arrays.sort(sorted);
        if (n.length() != 4 || !new String(sorted).equals("cops")) {
            throw new IllegalArgumentException("'" + text + "' is not a statement index order: it must use each of "
                    + "s, p, o and c exactly once, e.g. spoc or posc");
        }
        return new QuadOrder(n);
    }

    public String name() {
        return name;
    }

    /** Writes the key of the quad (ids in S, P, O, C positions) into {@code key}. */
    public void encode(long[] quad, byte[] key) {
        for (int i = 0; i < 4; i++) {
            putLong(key, i * 8, quad[positions[i]]);
        }
    }

    public byte[] key(long[] quad) {
        byte[] k = new byte[KEY_BYTES];
        encode(quad, k);
        return k;
    }

    /** Reads a key back into ids in S, P, O, C positions. */
    public void decode(byte[] key, long[] quad) {
        for (int i = 0; i < 4; i++) {
            quad[positions[i]] = getLong(key, i * 8);
        }
    }

    /** The quad position (S, P, O, C) standing {@code i}-th in the key. */
    public int positionAt(int i) {
        return positions[i];
    }

    /** How many leading key positions the pattern binds (0 = unbound in a pattern). */
    public int boundPrefix(long[] pattern) {
        int n = 0;
        while (n < 4 && pattern[positions[n]] != 0) {
            n++;
        }
        return n;
    }

    /** Number of bound positions of the pattern. */
    public static int boundCount(long[] pattern) {
        int n = 0;
        for (long id : pattern) {
            if (id != 0) {
                n++;
            }
        }
        return n;
    }

    /** Inclusive lower key of the pattern's prefix range (unbound positions after the prefix are 0). */
    public byte[] lowerBound(long[] pattern) {
        byte[] k = new byte[KEY_BYTES];
        int prefix = boundPrefix(pattern);
        for (int i = 0; i < prefix; i++) {
            putLong(k, i * 8, pattern[positions[i]]);
        }
        return k;
    }

    /** Exclusive upper key of the pattern's prefix range, or null if the range runs to the end. */
    public byte[] upperBound(long[] pattern) {
        int prefix = boundPrefix(pattern);
        if (prefix == 0) {
            return null;
        }
        byte[] k = new byte[prefix * 8];
        for (int i = 0; i < prefix; i++) {
            putLong(k, i * 8, pattern[positions[i]]);
        }
        // the smallest key greater than every key starting with the prefix
        for (int i = k.length - 1; i >= 0; i--) {
            if (k[i] != (byte) 0xff) {
                k[i]++;
                return Arrays.copyOf(k, i + 1);
            }
        }
        return null;
    }

    static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xffL);
        }
        return v;
    }

    @Override
    public String toString() {
        return name;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QuadOrder q && q.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }
}
