package dev.basalt.store.quads;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The key bounds of a pattern: prefix, lower and upper bound agree with their definitions. */
class QuadOrderTest {
    private static final long[] EDGE_IDS = {1, 0xff, 0x100, 0xffff, -1L, -2L, 0xff00000000000000L, 0x00ffffffffffffffL,
            0x12ffff, Long.MAX_VALUE, Long.MIN_VALUE};

    @Test
    void boundsOfRandomPatterns() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (String name : new String[]{"spoc", "posc", "cspo", "ospc"}) {
            QuadOrder order = QuadOrder.parse(name);
            for (int round = 0; round < 20_000; round++) {
                long[] pattern = new long[4];
                for (int i = 0; i < 4; i++) {
                    if (rnd.nextInt(3) != 0) {
                        pattern[i] = rnd.nextBoolean() ? EDGE_IDS[rnd.nextInt(EDGE_IDS.length)] : rnd.nextLong();
                    }
                }
                byte[] prefix = order.prefix(pattern);
                assertArrayEquals(Arrays.copyOf(prefix, QuadOrder.KEY_BYTES), order.lowerBound(pattern));
                assertArrayEquals(successor(prefix), order.upperBound(pattern), Arrays.toString(pattern));
                long[] quad = pattern.clone();
                for (int i = 0; i < 4; i++) {
                    quad[i] = quad[i] == 0 ? rnd.nextLong() : quad[i];
                }
                byte[] key = order.key(quad);
                byte[] upper = order.upperBound(pattern);
                assertTrue(Arrays.compareUnsigned(key, order.lowerBound(pattern)) >= 0);
                assertTrue(upper == null || Arrays.compareUnsigned(key, upper) < 0);
                byte[] buffer = Arrays.copyOf(key, 40 + rnd.nextInt(20));
                long[] back = new long[4];
                order.decode(buffer, QuadOrder.KEY_BYTES, back);
                assertArrayEquals(quad, back);
            }
        }
        assertThrows(IllegalArgumentException.class, () -> QuadOrder.parse("spoc").decode(new byte[40], 31, new long[4]));
    }

    /** The smallest key above every key starting with {@code prefix}, or null if there is none. */
    private static byte[] successor(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] k = Arrays.copyOf(prefix, i + 1);
                k[i]++;
                return k;
            }
        }
        return null;
    }
}
