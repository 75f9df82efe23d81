package dev.basalt.store.btree;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.Random;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The in-place search over front-coded leaves agrees with a binary search over the decoded keys. */
class LeafPageTest {
    @Test
    void inPlaceSearchAgreesWithBinarySearch() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        for (int round = 0; round < 300; round++) {
            int alphabet = 2 + rnd.nextInt(3); // at least 127 distinct keys of up to 6 bytes
            TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
            int n = rnd.nextInt(60);
            while (set.size() < n) {
                set.add(randomKey(rnd, alphabet));
            }
            byte[][] keys = set.toArray(new byte[0][]);
            Object[] values = new Object[keys.length];
            for (int i = 0; i < keys.length; i++) {
                values[i] = rnd.nextInt(5) == 0 ? new LargeValue(64L * (i + 1) << 22 | 1, i, 1000 + i) : new byte[]{(byte) i};
            }
            int interval = 1 + rnd.nextInt(8);
            byte[] encoded = LeafPage.encode(keys, values, keys.length, interval, 16);
            LeafPage page = LeafPage.decode(1, 0, encoded);
            page.validate();
            String ctx = "seed=" + seed + " round=" + round + " interval=" + interval;
            assertEquals(keys.length, page.size(), ctx);
            for (int i = 0; i < keys.length; i++) {
                assertArrayEquals(keys[i], page.keyAt(i), ctx);
                assertEquals(i, page.search(keys[i]), ctx);
                Object v = page.valueAt(i);
                if (v instanceof byte[] b) {
                    assertArrayEquals((byte[]) values[i], b, ctx);
                } else {
                    assertEquals(values[i], v, ctx);
                }
            }
            for (int probe = 0; probe < 200; probe++) {
                byte[] k = randomKey(rnd, alphabet);
                int expected = Arrays.binarySearch(keys, k, Arrays::compareUnsigned);
                assertEquals(expected, page.search(k), ctx + " probe " + BTreeModelTest.hex(k));
            }
            byte[][] run = new byte[interval][];
            Object[] runValues = new Object[interval];
            for (int first = 0; first < keys.length; first += interval) {
                int len = Math.min(interval, keys.length - first);
                page.decodeRun(first, len, run, runValues);
                for (int j = 0; j < len; j++) {
                    assertArrayEquals(keys[first + j], run[j], ctx);
                }
            }
        }
    }

    /**
     * Keys of up to 6 bytes, of up to 40 (past the 16 bytes of words a search compares first), or
     * of exactly 32 like statement keys, whose first 16 or 24 bytes come from a few fixed patterns
     * so that many keys tie on their leading words and differ only in the later ones.
     */
    private static byte[] randomKey(Random rnd, int alphabet) {
        int shape = rnd.nextInt(3);
        byte[] k = new byte[shape == 0 ? rnd.nextInt(7) : shape == 1 ? rnd.nextInt(41) : 32];
        int fixed = shape == 2 ? 8 * (2 + rnd.nextInt(2)) : 0;
        int pattern = rnd.nextInt(2);
        for (int i = 0; i < k.length; i++) {
            k[i] = i < fixed ? (byte) (pattern * (i % 3)) : (byte) (rnd.nextInt(alphabet) * 0x7f);
        }
        return k;
    }

    /**
     * The numbers searches compare before keys: where two keys' numbers differ, the keys differ the
     * same way (zero padding and zero bytes included); and an internal page's search over them
     * agrees with a binary search over its separators.
     */
    @Test
    void headsOrderLikeTheirKeys() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        for (int i = 0; i < 20_000; i++) {
            byte[] a = randomKey(rnd, 2 + rnd.nextInt(3));
            byte[] b = randomKey(rnd, 2 + rnd.nextInt(3));
            int expected = Integer.signum(Arrays.compareUnsigned(a, b));
            for (int from : new int[] {0, 8}) {
                int c = Long.compareUnsigned(PageFormat.head(a, 0, a.length, from), PageFormat.head(b, 0, b.length, from));
                if (c != 0) {
                    assertEquals(expected, Integer.signum(c), "seed=" + seed + " " + BTreeModelTest.hex(a) + " vs "
                            + BTreeModelTest.hex(b) + " from " + from);
                    break;
                }
            }
        }
        for (int round = 0; round < 200; round++) {
            TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
            int n = 1 + rnd.nextInt(40);
            int alphabet = 2 + rnd.nextInt(3);
            while (set.size() < n) {
                set.add(randomKey(rnd, alphabet));
            }
            byte[][] separators = set.toArray(new byte[0][]);
            InternalPage page = new InternalPage(1, 0, separators, new long[n + 1], new int[n + 1], new long[n + 1]);
            for (int probe = 0; probe < 100; probe++) {
                byte[] k = rnd.nextInt(4) == 0 ? separators[rnd.nextInt(n)] : randomKey(rnd, alphabet);
                assertEquals(InternalPage.upperBound(separators, n, k), page.childIndex(k),
                        "seed=" + seed + " round " + round + " probe " + BTreeModelTest.hex(k));
            }
        }
    }

    @Test
    void truncatedOrForeignBytesAreRejected() {
        byte[] encoded = LeafPage.encode(new byte[][]{{1}, {1, 2}}, new Object[]{new byte[0], new byte[3]}, 2, 16, 16);
        LeafPage.decode(1, 0, encoded).validate();
        assertThrows(IllegalStateException.class, () -> LeafPage.decode(1, 0, Arrays.copyOf(encoded, 4)));
        assertThrows(RuntimeException.class, () -> LeafPage.decode(1, 0, Arrays.copyOf(encoded, encoded.length - 1)).validate());
        byte[] internal = InternalPage.encode(new byte[][]{{5}}, new long[]{64, 128}, new int[]{1, 2}, new long[]{3, 4}, 2);
        assertThrows(IllegalStateException.class, () -> LeafPage.decode(1, 0, internal));
        InternalPage page = InternalPage.decode(1, 0, internal);
        assertEquals(2, page.size());
        assertEquals(1, page.childIndex(new byte[]{5}));
        assertEquals(0, page.childIndex(new byte[]{4, 9}));
        assertEquals(4, page.childEntries(1));
    }
}
