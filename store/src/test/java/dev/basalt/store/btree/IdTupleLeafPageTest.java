package dev.basalt.store.btree;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Id-tuple leaves: every key, value, search, ceiling scan and run of a coded page agrees with the
 * sorted input, for widths 1 to 4, with and without values, over ids that exercise every coding
 * mode (neighbours that differ in the first id, the smallest and largest ids, inline ids with
 * large payloads, kind changes); and malformed pages are refused.
 */
class IdTupleLeafPageTest {
    /** Ids of term-id shapes: small dictionary counters, centred inline payloads, extremes, noise. */
    static long id(Random rnd) {
        return switch (rnd.nextInt(9)) {
            case 0 -> 0x2000000000000000L | rnd.nextInt(40);
            case 1 -> 0x3000000000000000L | rnd.nextInt(1 << 20);
            case 2 -> 0x7800000000000000L + ((long) rnd.nextInt(2000) << 4 | rnd.nextInt(13));
            case 3 -> 0xB800000000000000L + ((1_700_000_000_000L + rnd.nextInt(1 << 30)) << 7 | 57);
            case 4 -> -1L - rnd.nextInt(3);
            case 5 -> rnd.nextInt(3);
            case 6 -> rnd.nextLong();
            case 7 -> Long.MIN_VALUE + rnd.nextInt(3);
            default -> 1;
        };
    }

    static byte[] tuple(Random rnd, int width, byte[] near) {
        ByteBuffer b = ByteBuffer.allocate(8 * width);
        int keep = near == null ? 0 : rnd.nextInt(width + 1);
        for (int i = 0; i < width; i++) {
            b.putLong(i < keep ? ByteBuffer.wrap(near).getLong(8 * i) : id(rnd));
        }
        return b.array();
    }

    /** {@code n} distinct tuples of {@code width} ids ({@link #tuple}: neighbours share prefixes), ascending. */
    static byte[][] sortedTuples(Random rnd, int width, int n) {
        TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
        byte[] last = null;
        while (set.size() < n) {
            last = tuple(rnd, width, last);
            set.add(last);
        }
        return set.toArray(new byte[0][]);
    }

    /** Values for {@code n} entries: all empty, or inline ones of 0 to 3 bytes and large ones. */
    static Object[] values(Random rnd, int n, boolean withValues) {
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            values[i] = !withValues ? new byte[0] : rnd.nextInt(5) == 0 ? new LargeValue(64L * (i + 1) << 22 | 1, i, 1000 + i)
                    : new byte[rnd.nextInt(4)];
        }
        return values;
    }

    @Test
    void pagesAgreeWithTheirSortedInput() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        for (int round = 0; round < 400; round++) {
            int width = 1 + rnd.nextInt(4);
            int n = 1 + rnd.nextInt(rnd.nextBoolean() ? 3 : 150);
            byte[][] keys = sortedTuples(rnd, width, n);
            boolean withValues = rnd.nextBoolean();
            Object[] values = values(rnd, n, withValues);
            int interval = 1 + rnd.nextInt(9);
            String ctx = "seed=" + seed + " round=" + round + " width=" + width + " n=" + n + " interval=" + interval;
            assertTrue(IdTupleCoding.fits(keys, n, width), ctx);
            byte[] encoded = IdTupleCoding.encode(keys, values, n, width, interval, 16);
            IdTupleLeafPage page = IdTupleLeafPage.decode(1, 0, encoded);
            assertEquals(n, page.size(), ctx);
            for (int i = 0; i < n; i++) {
                assertArrayEquals(keys[i], page.keyAt(i), ctx + " key " + i);
                assertEquals(i, page.search(keys[i]), ctx);
                Object v = page.valueAt(i);
                if (v instanceof byte[] b) {
                    assertArrayEquals((byte[]) values[i], b, ctx);
                } else {
                    assertEquals(values[i], v, ctx);
                }
            }
            LeafScan scan = new LeafScan();
            page.scanTo(0, scan);
            for (int i = 0; i < n; i++) {
                if (i > 0) {
                    page.scanNext(scan);
                }
                assertArrayEquals(keys[i], Arrays.copyOf(scan.key, scan.keyLength), ctx + " scan " + i);
                assertEquals(i, scan.index, ctx);
            }
            for (int probe = 0; probe < 200; probe++) {
                byte[] k = probe(rnd, keys, width);
                int expected = Arrays.binarySearch(keys, k, Arrays::compareUnsigned);
                String where = ctx + " probe " + BTreeModelTest.hex(k);
                assertEquals(expected, page.search(k), where);
                int ceiling = page.scanCeiling(k, scan);
                assertEquals(expected >= 0 ? expected : -expected - 1, ceiling, where);
                if (ceiling < n) {
                    assertArrayEquals(keys[ceiling], Arrays.copyOf(scan.key, scan.keyLength), where);
                    if (ceiling + 1 < n) {
                        page.scanNext(scan);
                        assertArrayEquals(keys[ceiling + 1], Arrays.copyOf(scan.key, scan.keyLength), where);
                    }
                }
            }
            byte[][] run = new byte[interval][];
            Object[] runValues = new Object[interval];
            for (int first = 0; first < n; first += interval) {
                int len = Math.min(interval, n - first);
                page.decodeRun(first, len, run, runValues);
                for (int j = 0; j < len; j++) {
                    assertArrayEquals(keys[first + j], run[j], ctx);
                }
            }
            DirtyLeaf copy = DirtyLeaf.copyOf(page, n + 1);
            assertArrayEquals(encoded, IdTupleCoding.encode(keys(copy), values(copy), n, width, interval, 16), ctx);
        }
    }

    /** A key of the page, a tuple near one, a prefix of one (shorter, also mid-id), a longer key, or another width. */
    private static byte[] probe(Random rnd, byte[][] keys, int width) {
        byte[] near = keys[rnd.nextInt(keys.length)];
        return switch (rnd.nextInt(6)) {
            case 0 -> near;
            case 1 -> Arrays.copyOf(near, rnd.nextInt(near.length));
            case 2 -> Arrays.copyOf(near, near.length + 1 + rnd.nextInt(9));
            case 3 -> {
                byte[] k = near.clone();
                int at = rnd.nextInt(k.length);
                k[at] += rnd.nextBoolean() ? 1 : -1;
                yield k;
            }
            case 4 -> tuple(rnd, 1 + rnd.nextInt(4), null);
            default -> tuple(rnd, width, near);
        };
    }

    private static byte[][] keys(DirtyLeaf leaf) {
        byte[][] k = new byte[leaf.size()][];
        for (int i = 0; i < k.length; i++) {
            k[i] = leaf.keyAt(i);
        }
        return k;
    }

    private static Object[] values(DirtyLeaf leaf) {
        Object[] v = new Object[leaf.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = leaf.valueAt(i);
        }
        return v;
    }

    @Test
    void extremeNeighboursTakeTheWidestCoding() {
        byte[][] keys = {
                ByteBuffer.allocate(32).putLong(0).putLong(0).putLong(0).putLong(0).array(),
                ByteBuffer.allocate(32).putLong(0).putLong(0).putLong(0).putLong(1).array(),
                ByteBuffer.allocate(32).putLong(0).putLong(-1).putLong(Long.MIN_VALUE).putLong(-1).array(),
                ByteBuffer.allocate(32).putLong(-1).putLong(0).putLong(-1).putLong(0x7800000000000000L).array(),
                ByteBuffer.allocate(32).putLong(-1).putLong(-1).putLong(-1).putLong(-1).array(),
        };
        Object[] values = new Object[keys.length];
        Arrays.fill(values, new byte[0]);
        assertTrue(IdTupleCoding.fits(keys, keys.length, 4));
        assertFalse(IdTupleCoding.fits(keys, 0, 4), "an empty leaf stays front-coded");
        assertFalse(IdTupleCoding.fits(keys, keys.length, 3));
        assertFalse(IdTupleCoding.fits(new byte[][]{keys[0], new byte[31]}, 2, 4));
        byte[] encoded = IdTupleCoding.encode(keys, values, keys.length, 4, 2, 16);
        IdTupleLeafPage page = IdTupleLeafPage.decode(1, 0, encoded);
        for (int i = 0; i < keys.length; i++) {
            assertArrayEquals(keys[i], page.keyAt(i));
            assertEquals(i, page.search(keys[i]));
        }
        assertEquals(-1, page.search(new byte[0]), "the empty key sorts first");
        assertEquals(0, page.scanCeiling(new byte[0], new LeafScan()));
        assertEquals(-2, page.search(new byte[33]), "a longer key sorts after its prefix");
        assertEquals(-6, page.search(ByteBuffer.allocate(40).putLong(-1).putLong(-1).putLong(-1).putLong(-1).array()));
        assertEquals(5, page.scanCeiling(ByteBuffer.allocate(33).putLong(-1).putLong(-1).putLong(-1).putLong(-1).array(),
                new LeafScan()));
    }

    @Test
    void malformedPagesAreRefused() {
        byte[][] keys = {ByteBuffer.allocate(16).putLong(5).putLong(7).array(), ByteBuffer.allocate(16).putLong(5).putLong(9).array()};
        byte[] encoded = IdTupleCoding.encode(keys, new Object[]{new byte[0], new byte[0]}, 2, 2, 8, 16);
        IdTupleLeafPage.decode(1, 0, encoded);
        assertThrows(IllegalStateException.class, () -> IdTupleLeafPage.decode(1, 0, Arrays.copyOf(encoded, encoded.length - 1)));
        assertThrows(IllegalStateException.class, () -> IdTupleLeafPage.decode(1, 0, Arrays.copyOf(encoded, encoded.length + 1)));
        assertThrows(IllegalStateException.class, () -> IdTupleLeafPage.decode(1, 0, Arrays.copyOf(encoded, 5)));
        byte[] wide = encoded.clone();
        wide[1] = 5;
        assertThrows(IllegalStateException.class, () -> IdTupleLeafPage.decode(1, 0, wide));
        byte[] flags = encoded.clone();
        flags[2] = 2;
        assertThrows(IllegalStateException.class, () -> IdTupleLeafPage.decode(1, 0, flags));
        byte[] counted = encoded.clone();
        counted[7] = 3;
        assertThrows(IllegalStateException.class, () -> IdTupleLeafPage.decode(1, 0, counted));
        // the second entry's delta made to wrap past the largest id: the key would not grow
        byte[][] high = {ByteBuffer.allocate(8).putLong(-2).array(), ByteBuffer.allocate(8).putLong(-1).array()};
        byte[] wrap = IdTupleCoding.encode(high, new Object[]{new byte[0], new byte[0]}, 2, 1, 8, 16);
        wrap[wrap.length - 1] = 1;
        assertThrows(IllegalStateException.class, () -> IdTupleLeafPage.decode(1, 0, wrap));
        assertThrows(RuntimeException.class, () -> PageIO.decode(64 << 22 | 1, 0, new byte[]{0x25, 1, 0, 8, 0, 0, 0, 1, 0}));
    }
}
