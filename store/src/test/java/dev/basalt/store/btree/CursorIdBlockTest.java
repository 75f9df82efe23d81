package dev.basalt.store.btree;

import dev.basalt.store.journal.MemoryRecordStore;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link BTreeCursor#nextIds} and {@link BTreeCursor#nextIdColumns} ({@link CursorIdColumnsTest#assertColumns})
 * read the same keys as {@link BTreeCursor#next()} would: over trees of
 * four-id keys (id-tuple leaves, with and without values, compressed or not, and dirty leaves), for ranges whose ends
 * are whole ids (the leaf-at-a-time path), ends of other lengths (the per-entry path) and prefixes
 * of any length, in blocks of random sizes mixed with single {@link BTreeCursor#next()} calls.
 */
class CursorIdBlockTest {
    @Test
    void blocksOfIdsAgreeWithTheKeysOfTheRange() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        for (int run = 0; run < 6; run++) {
            int interval = new int[] {1, 4, 16}[run % 3];
            // compressed pages are read as the pages they hold
            boolean compressed = run >= 3;
            BTreeConfig config = BTreeConfig.builder().leafMaxEntries(8 + rnd.nextInt(60)).internalMaxEntries(4)
                    .restartInterval(interval).inlineValueThreshold(8).idTupleWidth(4).compressPages(compressed).build();
            String ctx = "seed=" + seed + " interval=" + interval + " compressed=" + compressed;
            // leaves without values (statement keys) take their own decoding loop
            boolean noValues = interval == 4 || compressed && interval == 16;
            MemoryRecordStore store = new MemoryRecordStore();
            PageCache cache = new PageCache(1 << 20);
            BTree tree = BTree.create(store, config, cache);
            TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
            byte[] last = null;
            for (int i = 0; i < 3000; i++) {
                last = IdTupleLeafPageTest.tuple(rnd, 4, last);
                byte[] v = noValues ? new byte[0] : new byte[rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(12)];
                tree.put(last, v);
                model.put(last, v);
            }
            check(tree, model, rnd, ctx + " dirty");
            BTreeCheckpoint cp = tree.checkpoint();
            BTreeStats stats = tree.verify();
            assertTrue(stats.idTupleLeafPages() > 0, stats.toString());
            check(tree, model, rnd, ctx + " clean");
            check(BTree.openReadOnly(store, cp, config, cache), model, rnd, ctx + " read-only");
            for (int i = 0; i < 40; i++) {
                last = IdTupleLeafPageTest.tuple(rnd, 4, last);
                tree.put(last, new byte[] {1});
                model.put(last, new byte[] {1});
            }
            check(tree, model, rnd, ctx + " mixed");
        }
    }

    private static void check(BTree tree, NavigableMap<byte[], byte[]> model, Random rnd, String ctx) {
        List<byte[]> keys = new ArrayList<>(model.keySet());
        for (int probe = 0; probe < 200; probe++) {
            byte[] from = bound(rnd, keys);
            byte[] to = bound(rnd, keys);
            NavigableMap<byte[], byte[]> expected = CursorScanTest.range(model, from, to);
            String c = ctx + " [" + BTreeModelTest.hex(from) + ", " + BTreeModelTest.hex(to) + ")";
            assertBlocks(expected.keySet(), tree.cursor(from, to), rnd, c);
            CursorIdColumnsTest.assertColumns(expected.keySet(), tree.cursor(from, to), rnd, c + " columns");
            byte[] prefix = from == null ? new byte[0] : Arrays.copyOf(from, rnd.nextBoolean() ? 8 * rnd.nextInt(5)
                    : rnd.nextInt(from.length + 1));
            List<byte[]> withPrefix = new ArrayList<>();
            for (byte[] k : model.tailMap(prefix, true).keySet()) {
                if (!Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)) {
                    break;
                }
                withPrefix.add(k);
            }
            assertBlocks(withPrefix, tree.prefixCursor(prefix.clone()), rnd, ctx + " prefix " + BTreeModelTest.hex(prefix));
            CursorIdColumnsTest.assertColumns(withPrefix, tree.prefixCursor(prefix.clone()), rnd,
                    ctx + " columns, prefix " + BTreeModelTest.hex(prefix));
        }
    }

    /** A key of the tree, a key of it cut to whole ids or to any length, or no bound. */
    private static byte[] bound(Random rnd, List<byte[]> keys) {
        byte[] k = keys.get(rnd.nextInt(keys.size()));
        return switch (rnd.nextInt(5)) {
            case 0 -> null;
            case 1, 2 -> k.clone();
            case 3 -> Arrays.copyOf(k, 8 * rnd.nextInt(5));
            default -> Arrays.copyOf(k, rnd.nextInt(33));
        };
    }

    private static void assertBlocks(Iterable<byte[]> expected, BTreeCursor cursor, Random rnd, String ctx) {
        List<byte[]> got = new ArrayList<>();
        long[] ids = new long[4 * 100];
        while (true) {
            if (rnd.nextInt(6) == 0) {
                if (!cursor.next()) {
                    break;
                }
                got.add(cursor.key());
                continue;
            }
            int max = 1 + rnd.nextInt(rnd.nextBoolean() ? 5 : 100);
            int n = cursor.nextIds(ids, 4, max);
            assertTrue(n >= 0 && n <= max, ctx);
            if (n == 0) {
                break;
            }
            for (int e = 0; e < n; e++) {
                ByteBuffer b = ByteBuffer.allocate(32);
                for (int i = 0; i < 4; i++) {
                    b.putLong(ids[4 * e + i]);
                }
                got.add(b.array());
            }
            if (n == max) {
                // the cursor stands on the last key read
                assertArrayEquals(got.get(got.size() - 1), cursor.key(), ctx + " cursor after a block");
            }
        }
        List<byte[]> want = new ArrayList<>();
        expected.forEach(want::add);
        assertEquals(want.size(), got.size(), ctx);
        for (int i = 0; i < want.size(); i++) {
            assertArrayEquals(want.get(i), got.get(i), ctx + " entry " + i);
        }
    }
}
