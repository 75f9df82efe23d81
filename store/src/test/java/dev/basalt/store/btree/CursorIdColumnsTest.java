package dev.basalt.store.btree;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ids decoded into columns give what the keys hold: {@link LeafNode#scanNextColumns} of a coded
 * id-tuple leaf against its {@link LeafNode#scanNextIds} (widths 1 to 4, with and without values,
 * every restart interval, pages of one entry, runs to the last entry, ids of every coding mode,
 * prefixes of every length that end inside or past the run). {@link #assertColumns} checks
 * {@link BTreeCursor#nextIdColumns} against the keys of a range; {@link CursorIdBlockTest}'s trees
 * (id-tuple leaves with and without values, compressed or not, dirty leaves) run it on prefixes of
 * whole ids (the leaf-at-a-time path), other prefixes and ranges (through blocks of ids).
 */
class CursorIdColumnsTest {
    @Test
    void aLeafsColumnsHoldTheIdsOfItsEntriesWhileThePrefixLasts() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        for (int round = 0; round < 600; round++) {
            int width = 1 + rnd.nextInt(4);
            int n = 1 + rnd.nextInt(rnd.nextInt(4) == 0 ? 3 : 200);
            byte[][] keys = IdTupleLeafPageTest.sortedTuples(rnd, width, n);
            boolean withValues = rnd.nextBoolean();
            Object[] values = IdTupleLeafPageTest.values(rnd, n, withValues);
            int interval = 1 + rnd.nextInt(9);
            IdTupleLeafPage page = IdTupleLeafPage.decode(1, 0, IdTupleCoding.encode(keys, values, n, width, interval, 16));
            String ctx = "seed=" + seed + " round=" + round + " width=" + width + " n=" + n + " interval=" + interval
                    + " values=" + withValues;
            for (int probe = 0; probe < 20; probe++) {
                int start = rnd.nextInt(n);
                int room = start == n - 1 ? 0 : 1 + rnd.nextInt(n - 1 - start);
                int keep = rnd.nextInt(width + 1);
                String c = ctx + " start=" + start + " room=" + room + " keep=" + keep;
                // the expected entries: those after start, while their first keep ids are start's
                int expected = 0;
                while (expected < room && Arrays.equals(keys[start + 1 + expected], 0, 8 * keep, keys[start], 0, 8 * keep)) {
                    expected++;
                }
                long[][] cols = new long[width][];
                for (int i = 0; i < width; i++) {
                    if (rnd.nextInt(3) > 0) {
                        cols[i] = new long[room + 3];
                        Arrays.fill(cols[i], 0x5A5A5A5AL);
                    }
                }
                LeafScan scan = new LeafScan();
                page.scanTo(start, scan);
                int got = page.scanNextColumns(scan, width, cols, 2, room, keep);
                assertEquals(expected, got, c);
                long[] ids = new long[Math.max(1, width * room)];
                LeafScan rows = new LeafScan();
                page.scanTo(start, rows);
                page.scanNextIds(rows, width, ids, 0, room);
                for (int i = 0; i < width; i++) {
                    if (cols[i] == null) {
                        continue;
                    }
                    assertEquals(0x5A5A5A5AL, cols[i][0], c + " before the first row");
                    assertEquals(0x5A5A5A5AL, cols[i][1], c + " before the first row");
                    for (int e = 0; e < got; e++) {
                        assertEquals(ids[width * e + i], cols[i][2 + e], c + " entry " + e + " id " + i);
                    }
                    if (got < room) {
                        assertEquals(0x5A5A5A5AL, cols[i][2 + got], c + " past the prefix");
                    }
                }
                if (got == room && room > 0) {
                    // the scan stands on the last entry, as the row decoding leaves it
                    assertEquals(start + room, scan.index, c);
                    assertArrayEquals(keys[start + room], Arrays.copyOf(scan.key, scan.keyLength), c);
                    if (start + room + 1 < n) {
                        page.scanNext(scan);
                        assertArrayEquals(keys[start + room + 1], Arrays.copyOf(scan.key, scan.keyLength), c + " next");
                    }
                }
            }
        }
    }

    /**
     * {@link BTreeCursor#nextIdColumns} of {@code cursor}, in blocks of random sizes with random sets of
     * columns, mixed with single {@link BTreeCursor#next()} calls, reads the keys {@code expected} (the
     * trees of {@link CursorIdBlockTest} run it on every range and prefix they check).
     */
    static void assertColumns(Iterable<byte[]> expected, BTreeCursor cursor, Random rnd, String ctx) {
        List<byte[]> want = new ArrayList<>();
        expected.forEach(want::add);
        // per entry read, its ids and which of them were written (a column not asked for is not)
        List<long[]> got = new ArrayList<>();
        List<boolean[]> written = new ArrayList<>();
        long[][] cols = new long[4][];
        while (true) {
            if (rnd.nextInt(6) == 0) {
                if (!cursor.next()) {
                    break;
                }
                got.add(ids(cursor.key()));
                written.add(new boolean[] {true, true, true, true});
                continue;
            }
            int max = 1 + rnd.nextInt(rnd.nextBoolean() ? 5 : 300);
            int off = rnd.nextInt(4);
            boolean[] asked = new boolean[4];
            for (int i = 0; i < 4; i++) {
                asked[i] = rnd.nextInt(3) > 0;
                cols[i] = asked[i] ? new long[off + max] : null;
            }
            int n = cursor.nextIdColumns(cols, 4, off, max);
            assertTrue(n >= 0 && n <= max, ctx);
            if (n == 0) {
                break;
            }
            for (int e = 0; e < n; e++) {
                long[] row = new long[4];
                for (int i = 0; i < 4; i++) {
                    row[i] = asked[i] ? cols[i][off + e] : 0;
                }
                got.add(row);
                written.add(asked);
            }
            assertTrue(got.size() <= want.size(), ctx + ": more entries than the range holds");
            if (n == max) {
                // the cursor stands on the last key read
                assertArrayEquals(want.get(got.size() - 1), cursor.key(), ctx + " cursor after a block");
            }
        }
        assertEquals(want.size(), got.size(), ctx);
        for (int e = 0; e < want.size(); e++) {
            long[] all = ids(want.get(e));
            for (int i = 0; i < 4; i++) {
                if (written.get(e)[i]) {
                    assertEquals(all[i], got.get(e)[i], ctx + " entry " + e + " id " + i);
                }
            }
        }
    }

    private static long[] ids(byte[] key) {
        ByteBuffer b = ByteBuffer.wrap(key);
        return new long[] {b.getLong(0), b.getLong(8), b.getLong(16), b.getLong(24)};
    }
}
