package dev.basalt.store.lexicon;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A Bloom filter over the TERM2ID keys a bottom-up dictionary build has merged into the tree
 * ({@link LexiconWriter} at its memory budget): {@link #mightContain} is false only for a key never
 * {@link #add added}, so a new term, which the in-memory index does not hold either, is known to be
 * new without a descent through TERM2ID's compressed pages. The filter of each merge is sized for
 * that merge's keys ({@value #BITS_PER_KEY} bits a key, about 1% false positives) and blocked: a
 * key's {@value #PROBES} bits lie in one 64-byte block, so a test reads one cache line per merge.
 * A merge whose filter would take the filters past a limit drops them all for good: from then on
 * every key may be there.
 *
 * <p>Not thread-safe: the lexicon writer's one thread.
 */
final class MergedKeysFilter {
    static final int BITS_PER_KEY = 10;
    static final int PROBES = 7;
    private static final int BLOCK_LONGS = 8;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** One bit array per merge; each a whole number of blocks. */
    private final List<long[]> filters = new ArrayList<>();
    private long[] open;
    private long bytes;
    private boolean dropped;

    /**
     * Starts the filter of a merge of {@code keys} keys, into which the keys added next go; returns
     * false, and drops every filter, if the filters would then take more than {@code limitBytes}
     * (or were dropped before): then {@link #mightContain} is true for every key.
     */
    boolean startMerge(int keys, long limitBytes) {
        int blocks = (int) Math.max(1, ((long) keys * BITS_PER_KEY + 511) / 512);
        if (dropped || bytes + 8L * blocks * BLOCK_LONGS > limitBytes) {
            dropped = true;
            filters.clear();
            open = null;
            bytes = 0;
            return false;
        }
        open = new long[blocks * BLOCK_LONGS];
        filters.add(open);
        bytes += 8L * open.length + 16;
        return true;
    }

    /** Adds a key of the merge started last. */
    void add(byte[] key) {
        long h = hash(key);
        int base = block(h, open.length / BLOCK_LONGS) * BLOCK_LONGS;
        long bits = h;
        for (int i = 0; i < PROBES; i++) {
            bits = next(bits);
            int bit = (int) (bits >>> 55); // 9 bits: one of the block's 512
            open[base + (bit >>> 6)] |= 1L << bit;
        }
    }

    /** False if {@code key} was never added; true if it was, and for about 1% of the others (all once dropped). */
    boolean mightContain(byte[] key) {
        if (dropped) {
            return true;
        }
        long h = hash(key);
        for (long[] f : filters) {
            if (contains(f, h)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(long[] f, long h) {
        int base = block(h, f.length / BLOCK_LONGS) * BLOCK_LONGS;
        long bits = h;
        for (int i = 0; i < PROBES; i++) {
            bits = next(bits);
            int bit = (int) (bits >>> 55);
            if ((f[base + (bit >>> 6)] & 1L << bit) == 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether the filters were dropped at their limit. */
    boolean dropped() {
        return dropped;
    }

    /** Heap bytes of the bit arrays. */
    long bytes() {
        return bytes;
    }

    /** The block of hash {@code h} among {@code blocks} (multiply-shift on its high half). */
    private static int block(long h, int blocks) {
        return (int) (((h >>> 32) * blocks) >>> 32);
    }

    /** The next value of a 64-bit sequence seeded by the key's hash (a SplitMix64 step). */
    private static long next(long x) {
        long z = x + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** A 64-bit hash of the key's bytes, eight at a time. */
    static long hash(byte[] key) {
        long h = key.length * 0x9E3779B97F4A7C15L;
        int i = 0;
        for (; i + 8 <= key.length; i += 8) {
            h = (h ^ (long) LONGS.get(key, i)) * 0xFF51AFD7ED558CCDL;
            h ^= h >>> 29;
        }
        long tail = 0;
        for (int s = 0; i < key.length; i++, s += 8) {
            tail |= (key[i] & 0xFFL) << s;
        }
        h = (h ^ tail) * 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 32);
    }
}
