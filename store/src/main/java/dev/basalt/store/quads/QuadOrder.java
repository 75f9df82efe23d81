package dev.basalt.store.quads;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Locale;

/**
 * One key order of a statement index, such as {@code spoc} or {@code posc}: a permutation of the
 * four positions subject, predicate, object, context. A quad's key is its four 64-bit term ids in
 * that order, each big-endian, so a pattern whose bound positions come first in the order is one
 * contiguous key range (a prefix scan), and the B+tree's counted nodes count it exactly.
 *
 * <p>Immutable; safe to share between threads.
 */
public final class QuadOrder {
    public static final int S = 0;
    public static final int P = 1;
    public static final int O = 2;
    public static final int C = 3;
    public static final int KEY_BYTES = 32;
    private static final String LETTERS = "spoc";
    /** One 8-byte access per id instead of eight byte accesses. */
    private static final VarHandle BIG_ENDIAN_LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

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
        decode(key, key.length, quad);
    }

    /**
     * Reads the key in bytes {@code [0, length)} of {@code buffer} (such as a cursor's key view)
     * back into ids in S, P, O, C positions.
     *
     * @throws IllegalArgumentException if {@code length} is not {@link #KEY_BYTES}
     */
    public void decode(byte[] buffer, int length, long[] quad) {
        if (length != KEY_BYTES) {
            throw new IllegalArgumentException("a key of statement index " + name + " has " + KEY_BYTES
                    + " bytes, not " + length);
        }
        for (int i = 0; i < 4; i++) {
            quad[positions[i]] = getLong(buffer, i * 8);
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

    /**
     * The key prefix the pattern binds: the ids of its leading bound positions in this order, 8
     * bytes each (empty if the first position is unbound). Every key in the pattern's prefix
     * range starts with it.
     */
    public byte[] prefix(long[] pattern) {
        int prefix = boundPrefix(pattern);
        byte[] k = new byte[prefix * 8];
        for (int i = 0; i < prefix; i++) {
            putLong(k, i * 8, pattern[positions[i]]);
        }
        return k;
    }

    /** Exclusive upper key of the pattern's prefix range, or null if the range runs to the end. */
    public byte[] upperBound(long[] pattern) {
        // the smallest key greater than every key starting with the prefix: the prefix up to its
        // last byte that is not 0xff, with that byte incremented
        int prefix = boundPrefix(pattern);
        for (int i = prefix - 1; i >= 0; i--) {
            long id = pattern[positions[i]];
            if (id != -1L) {
                int last = i * 8 + 7 - Long.numberOfTrailingZeros(~id) / 8;
                byte[] k = new byte[last + 1];
                for (int j = 0; j < i; j++) {
                    putLong(k, j * 8, pattern[positions[j]]);
                }
                for (int b = i * 8; b <= last; b++) {
                    k[b] = (byte) (id >>> (8 * (i * 8 + 7 - b)));
                }
                k[last]++;
                return k;
            }
        }
        return null;
    }

    static void putLong(byte[] b, int off, long v) {
        BIG_ENDIAN_LONG.set(b, off, v);
    }

    static long getLong(byte[] b, int off) {
        return (long) BIG_ENDIAN_LONG.get(b, off);
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
