package dev.basalt.store.btree;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.Random;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

/**
 * {@link LeafSizer} gives exactly the length {@link DirtyLeaf#encode} codes, entry by entry, for
 * id-tuple leaves (ids near each other, far apart, inline-like values around bit 59) and for
 * front-coded leaves with inline and large values; and it answers unknown where it cannot tell.
 */
class LeafSizerTest {
    private static byte[] tuple(long... ids) {
        ByteBuffer b = ByteBuffer.allocate(8 * ids.length);
        for (long id : ids) {
            b.putLong(id);
        }
        return b.array();
    }

    @Test
    void idTupleLeavesAreSizedExactly() {
        BTreeConfig config = BTreeConfig.DEFAULT.toBuilder().idTupleWidth(4).leafMaxEntries(4096).build();
        Random random = new Random(5);
        TreeSet<byte[]> keys = new TreeSet<>(java.util.Arrays::compareUnsigned);
        long[] kinds = { 0x2L << 60, 0x3L << 60, 0x7L << 60 | 1L << 59, 0xBL << 60 | 1L << 59 };
        while (keys.size() < 3000) {
            long s = 0x2L << 60 | random.nextInt(2000);
            long p = 0x2L << 60 | random.nextInt(20);
            long o = kinds[random.nextInt(kinds.length)] + (random.nextBoolean() ? random.nextInt(100) : random.nextLong() >>> 8);
            long c = random.nextInt(10) == 0 ? 0x2L << 60 | random.nextInt(5) : 1;
            keys.add(tuple(s, p, o, c));
        }
        assertExact(config, keys, false);
    }

    @Test
    void frontCodedLeavesAreSizedExactly() {
        BTreeConfig config = BTreeConfig.DEFAULT.toBuilder().leafMaxEntries(4096).build();
        Random random = new Random(6);
        TreeSet<byte[]> keys = new TreeSet<>(java.util.Arrays::compareUnsigned);
        while (keys.size() < 2000) {
            keys.add(("http://example.org/ns" + random.nextInt(5) + "/item" + random.nextInt(100000))
                    .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        assertExact(config, keys, true);
    }

    @Test
    void idTupleTreesWithValuesOrOtherWidthsAreUnknown() {
        BTreeConfig config = BTreeConfig.DEFAULT.toBuilder().idTupleWidth(4).build();
        LeafSizer sizer = new LeafSizer(config);
        assertEquals(LeafSizer.UNKNOWN, sizer.bytesWith(tuple(1, 2, 3, 4), new byte[] { 1 }));
        assertEquals(LeafSizer.UNKNOWN, sizer.bytesWith(tuple(1, 2, 3), BulkBuilder.NO_VALUE));
        long first = sizer.bytesWith(tuple(1, 2, 3, 4), BulkBuilder.NO_VALUE);
        sizer.add(tuple(1, 2, 3, 4), first);
        sizer.add(tuple(1, 2, 3), LeafSizer.UNKNOWN);
        assertEquals(LeafSizer.UNKNOWN, sizer.bytesWith(tuple(1, 2, 3, 5), BulkBuilder.NO_VALUE), "unknown stays unknown");
    }

    private static void assertExact(BTreeConfig config, TreeSet<byte[]> keys, boolean values) {
        LeafSizer sizer = new LeafSizer(config);
        DirtyLeaf leaf = new DirtyLeaf(keys.size() + 1);
        int i = 0;
        for (byte[] key : keys) {
            Object value = !values ? BulkBuilder.NO_VALUE
                    : i % 7 == 0 ? new LargeValue(Long.MAX_VALUE >>> 20 << 6 | 3, 12345, 300 + i)
                    : new byte[i % 40];
            long sized = sizer.bytesWith(key, value);
            sizer.add(key, sized);
            leaf.append(key, value);
            if (++i % 97 == 0 || i == keys.size()) {
                assertEquals(leaf.encode(config).length, sized, "size after " + i + " entries");
            }
        }
    }
}
