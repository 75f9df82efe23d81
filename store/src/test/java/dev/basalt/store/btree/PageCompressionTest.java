package dev.basalt.store.btree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

import dev.basalt.store.journal.CorruptRecordException;
import dev.basalt.store.journal.MemoryRecordStore;

/**
 * Compressed page records (page format 3, docs/FORMAT.md section 3): random statement-shaped
 * leaves (single entries, equal neighbours but for one id, the largest and smallest ids, pages
 * filled to their byte limit) and front-coded leaves read back exactly through the compressed
 * form; trees that compress agree with a model through random writes, reopen and bulk builds,
 * and take fewer bytes than the same trees uncompressed; a page that does not shrink is written
 * as it is; malformed compressed records are refused naming their address.
 */
class PageCompressionTest {

    @Test
    void randomIdTupleLeavesRoundTrip() {
        long seed = BTreeModelTest.seed();
        Random rnd = new Random(seed);
        int compressed = 0;
        for (int round = 0; round < 300; round++) {
            int width = 1 + rnd.nextInt(4);
            int shape = rnd.nextInt(4);
            int n = shape == 0 ? 1 : 1 + rnd.nextInt(shape == 1 ? 40 : 1500);
            TreeSet<byte[]> set = new TreeSet<>(Arrays::compareUnsigned);
            byte[] last = null;
            while (set.size() < n) {
                if (shape == 2) {
                    // neighbours equal but for the last id, all ids at or near the largest
                    last = new byte[8 * width];
                    Arrays.fill(last, (byte) 0xff);
                    ByteBuffer.wrap(last).putLong(8 * width - 8, -1L - set.size());
                } else {
                    last = IdTupleLeafPageTest.tuple(rnd, width, last);
                }
                set.add(last);
            }
            byte[][] keys = set.toArray(new byte[0][]);
            Object[] values = new Object[n];
            Arrays.fill(values, new byte[0]);
            int interval = 1 + rnd.nextInt(16);
            byte[] encoded = IdTupleCoding.encode(keys, values, n, width, interval, 16);
            byte[] record = PageCompression.compress(encoded);
            String ctx = "seed=" + seed + " round=" + round + " shape=" + shape + " n=" + n;
            if (record != encoded) {
                compressed++;
                assertEquals(PageFormat.COMPRESSED_PAGE, record[0], ctx);
                assertTrue(record.length < encoded.length, ctx);
            }
            assertArrayEquals(encoded, record == encoded ? encoded : PageCompression.decompress(7, record), ctx);
            IdTupleLeafPage page = (IdTupleLeafPage) PageIO.decode(7, 0, record);
            assertEquals(n, page.size(), ctx);
            for (int i = 0; i < n; i++) {
                assertArrayEquals(keys[i], page.keyAt(i), ctx + " key " + i);
                assertEquals(i, page.search(keys[i]), ctx);
            }
        }
        assertTrue(compressed > 100, "seed " + seed + ": only " + compressed + " of 300 pages were shorter compressed");
    }

    @Test
    void aSingleEntryOrIncompressiblePageIsWrittenAsItIs() {
        Random rnd = new Random(5);
        byte[][] one = { ByteBuffer.allocate(32).putLong(rnd.nextLong()).putLong(rnd.nextLong()).putLong(rnd.nextLong())
                .putLong(-1).array() };
        byte[] encoded = IdTupleCoding.encode(one, new Object[] { new byte[0] }, 1, 4, 8, 16);
        assertSame(encoded, PageCompression.compress(encoded), "a single entry of unrelated ids does not shrink");
        assertArrayEquals(one[0], ((IdTupleLeafPage) PageIO.decode(1, 0, encoded)).keyAt(0));
        byte[] noise = new byte[3000];
        new Random(3).nextBytes(noise);
        noise[0] = PageFormat.LEAF;
        assertSame(noise, PageCompression.compress(noise));
    }

    /** The model test's random writes, checkpoints, abandons and reopens, on trees that compress. */
    @Test
    void compressingTreesAgreeWithTheModelInFewerBytes() {
        long seed = BTreeModelTest.seed();
        BTreeConfig small = BTreeConfig.builder().leafMaxEntries(8).internalMaxEntries(5).maxPageBytes(512)
                .restartInterval(3).inlineValueThreshold(32).writeRetentionCapacity(7).build();
        BTreeConfig medium = BTreeConfig.builder().leafMaxEntries(200).internalMaxEntries(16).restartInterval(8)
                .inlineValueThreshold(64).writeRetentionCapacity(64).build();
        for (BTreeConfig config : List.of(small, medium, medium.toBuilder().idTupleWidth(4).build())) {
            long[] bytes = new long[2];
            for (int c = 0; c < 2; c++) {
                BTreeModelTest.Run run = new BTreeModelTest.Run(seed, config.toBuilder().compressPages(c == 1).build(),
                        5_000);
                if (config.idTupleWidth() == 4) {
                    run.keys = BTreeModelTest::quadKey;
                    run.emptyValues = true;
                }
                run.run(8_000);
                run.tree.verify();
                bytes[c] = run.store.bytesStored();
            }
            // pages of 8 short entries rarely shrink; larger ones do
            assertTrue(config == small ? bytes[1] <= bytes[0] : bytes[1] < bytes[0], "seed " + seed + " " + config
                    + ": " + bytes[1] + " compressed bytes, "
                    + bytes[0] + " uncompressed");
        }
    }

    /** Bulk-built statement leaves filled to their byte limit, compressed, read back in order. */
    @Test
    void fullBulkBuiltPagesRoundTrip() {
        BTreeConfig config = BTreeConfig.builder().idTupleWidth(4).leafMaxEntries(2048).maxPageBytes(4096).build();
        TreeSet<byte[]> keys = new TreeSet<>(Arrays::compareUnsigned);
        for (int k = 1; keys.size() < 50_000; k++) {
            byte[] key = BTreeModelTest.quadKey(k);
            if (key.length == 32) {
                keys.add(key);
            }
        }
        long[] leafBytes = new long[2];
        for (int c = 0; c < 2; c++) {
            MemoryRecordStore store = new MemoryRecordStore();
            BTreeConfig cfg = config.toBuilder().compressPages(c == 1).build();
            List<Map.Entry<byte[], byte[]>> entries = new ArrayList<>();
            for (byte[] k : keys) {
                entries.add(new AbstractMap.SimpleEntry<>(k, new byte[0]));
            }
            BTreeCheckpoint cp = BTree.bulkBuild(store, cfg, entries.iterator());
            BTree tree = BTree.open(store, cp, cfg, new PageCache(1 << 20));
            BTreeStats stats = tree.verify();
            leafBytes[c] = stats.leafBytes();
            assertEquals(keys.size(), tree.size());
            BTreeCursor cursor = tree.cursor(null, null);
            for (byte[] k : keys) {
                assertTrue(cursor.next());
                assertArrayEquals(k, cursor.key());
            }
            assertTrue(!cursor.next());
            // a write into a full compressed leaf splits it and writes compressed pages again
            byte[] extra = keys.first().clone();
            extra[31] ^= 1;
            if (!keys.contains(extra)) {
                tree.put(extra, new byte[0]);
                BTree reopened = BTree.open(store, tree.checkpoint(), cfg, null);
                assertTrue(reopened.containsKey(extra));
                assertEquals(keys.size() + 1, reopened.size());
            }
        }
        assertTrue(leafBytes[1] * 3 < leafBytes[0] * 2, leafBytes[1] + " compressed leaf bytes, " + leafBytes[0]);
    }

    @Test
    void malformedCompressedRecordsAreRefused() {
        byte[][] keys = new byte[200][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = ByteBuffer.allocate(16).putLong(5).putLong(7 + i).array();
        }
        Object[] values = new Object[keys.length];
        Arrays.fill(values, new byte[0]);
        byte[] encoded = IdTupleCoding.encode(keys, values, keys.length, 2, 8, 16);
        byte[] record = PageCompression.compress(encoded);
        assertEquals(PageFormat.COMPRESSED_PAGE, record[0]);
        PageIO.decode(9, 0, record);

        assertRefused(Arrays.copyOf(record, record.length - 1));
        assertRefused(Arrays.copyOf(record, 2));
        byte[] longer = record.clone();
        longer[1] = (byte) (longer[1] + 1);
        assertRefused(longer);
        byte[] zero = { PageFormat.COMPRESSED_PAGE, 0, 0, 0 };
        assertRefused(zero);
        byte[] garbage = record.clone();
        for (int i = 4; i < garbage.length; i++) {
            garbage[i] = (byte) (i * 37);
        }
        assertRefused(garbage);
        // a compressed record holding a compressed record, or a large value, is not a page
        byte[] nested = PageCompression.compress(withKind(record, PageFormat.COMPRESSED_PAGE, 400));
        assertEquals(PageFormat.COMPRESSED_PAGE, nested[0]);
        assertRefused(nested);
        byte[] large = PageCompression.compress(withKind(new byte[0], PageFormat.LARGE_VALUE, 400));
        assertRefused(large);
    }

    @Test
    void theLengthVarintIsTheOnePageFormatReadsAndSizes() {
        for (int v : new int[] { 0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 4096, 65_536, 0x1fffff, 0x200000, Integer.MAX_VALUE }) {
            byte[] b = new byte[7];
            int end = PageFormat.writeVarint(b, 2, v);
            assertEquals(2 + PageFormat.varintSize(v), end, "end of " + v);
            long packed = PageFormat.readVarint(b, 2);
            assertEquals(v, PageFormat.value(packed));
            assertEquals(end, PageFormat.next(packed));
        }
        for (int length : new int[] { 127, 128, 4096, 20_000 }) {
            byte[] page = new byte[length];
            page[0] = 1;
            byte[] record = PageCompression.compress(page);
            assertEquals(PageFormat.COMPRESSED_PAGE, record[0], "a page of zeros shrinks");
            assertEquals(length, PageFormat.value(PageFormat.readVarint(record, 1)));
        }
    }

    private static byte[] withKind(byte[] start, byte kind, int length) {
        byte[] b = Arrays.copyOf(start, Math.max(length, start.length));
        b[0] = kind;
        return b;
    }

    private static void assertRefused(byte[] record) {
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> PageIO.decode(9, 0, record));
        assertTrue(e.getMessage().contains("9"), e.getMessage());
    }
}
