package dev.basalt.bench.jmh;

import java.util.AbstractMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The keys and values every engine is given, identical for all of them: 16-byte keys and 8-byte
 * values. The {@code i}-th sequential key is {@code be64(i) ++ be64(mix(i))}, so keys in index
 * order are in ascending unsigned order and the low half is not trivially compressible. The
 * {@code i}-th random-order key is {@code be64(mix(i)) ++ be64(i)}: {@code mix} is a bijection of
 * 64-bit integers (the SplitMix64 finaliser), so these keys are distinct and arrive in an order
 * with no locality. The value of entry {@code i} is {@code be64(i)}.
 *
 * <p>Stateless; any thread may call it. Each iterator it returns belongs to one thread.
 */
final class Keys {
    static final int KEY_BYTES = 16;
    static final int VALUE_BYTES = 8;

    private Keys() {
    }

    /** SplitMix64's finaliser: a bijection on 64-bit integers with good avalanche. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    static byte[] sequential(long i) {
        return pair(i, mix(i));
    }

    static byte[] randomOrder(long i) {
        return pair(mix(i), i);
    }

    static byte[] value(long i) {
        byte[] v = new byte[VALUE_BYTES];
        putLong(v, 0, i);
        return v;
    }

    private static byte[] pair(long high, long low) {
        byte[] k = new byte[KEY_BYTES];
        putLong(k, 0, high);
        putLong(k, 8, low);
        return k;
    }

    private static void putLong(byte[] b, int at, long v) {
        for (int j = 7; j >= 0; j--) {
            b[at + j] = (byte) v;
            v >>>= 8;
        }
    }

    /** Sequential keys {@code 0 .. n-1} with their values, in ascending key order. */
    static Iterator<Map.Entry<byte[], byte[]>> ascending(long n) {
        return new Iterator<>() {
            private long i;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public Map.Entry<byte[], byte[]> next() {
                if (i >= n) {
                    throw new NoSuchElementException();
                }
                long k = i++;
                return new AbstractMap.SimpleImmutableEntry<>(sequential(k), value(k));
            }
        };
    }
}
