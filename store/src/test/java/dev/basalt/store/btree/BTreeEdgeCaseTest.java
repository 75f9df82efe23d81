package dev.basalt.store.btree;

import dev.basalt.store.journal.MemoryRecordStore;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ConcurrentModificationException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BTreeEdgeCaseTest {
    private final MemoryRecordStore store = new MemoryRecordStore();
    private final PageCache cache = new PageCache(1 << 20);

    @Test
    void emptyTree() {
        BTree tree = BTree.create(store, BTreeConfig.DEFAULT, cache);
        assertNull(tree.get(new byte[0]));
        assertNull(tree.remove(new byte[]{1}));
        assertFalse(tree.containsKey(new byte[0]));
        assertEquals(0, tree.rangeCount(null, null));
        assertEquals(0, tree.rank(new byte[]{1}));
        assertFalse(tree.cursor(null, null).next());
        assertFalse(tree.descendingCursor(null, null).next());
        assertThrows(IndexOutOfBoundsException.class, () -> tree.entryAt(0));
        assertEquals(BTreeCheckpoint.EMPTY, tree.checkpoint());
        assertEquals(0, tree.verify().pages());
        assertEquals(0, store.recordCount());
        BTree reader = BTree.openReadOnly(store, BTreeCheckpoint.EMPTY, BTreeConfig.DEFAULT, cache);
        assertEquals(0, reader.size());
        assertFalse(reader.cursor(null, null).next());
    }

    @Test
    void emptyKeyAndSingleEntry() {
        BTree tree = BTree.create(store, BTreeConfig.DEFAULT, cache);
        assertNull(tree.put(new byte[0], new byte[]{7}));
        assertArrayEquals(new byte[]{7}, tree.get(new byte[0]));
        assertEquals(1, tree.rangeCount(null, null));
        assertEquals(1, tree.rangeCount(new byte[0], null));
        assertEquals(0, tree.rangeCount(new byte[0], new byte[0]));
        assertEquals(0, tree.rank(new byte[0]));
        assertEquals(1, tree.rank(new byte[]{0}));
        assertArrayEquals(new byte[0], tree.entryAt(0).getKey());
        BTreeCheckpoint cp = tree.checkpoint();
        assertEquals(1, cp.height());
        assertEquals(1, store.recordCount());
        BTreeCursor c = tree.descendingCursor(null, new byte[]{0});
        assertTrue(c.next());
        assertArrayEquals(new byte[0], c.key());
        assertFalse(c.next());
        assertArrayEquals(new byte[]{7}, tree.remove(new byte[0]));
        assertEquals(0, tree.height());
        assertEquals(BTreeCheckpoint.EMPTY, tree.checkpoint());
        assertEquals(0, store.recordCount(), "the last leaf is freed when the tree empties");
    }

    @Test
    void keysFromOneTo2000Bytes() {
        BTreeConfig config = BTreeConfig.builder().maxPageBytes(8192).build();
        BTree tree = BTree.create(store, config, cache);
        for (int len = 2000; len >= 1; len--) {
            byte[] key = new byte[len];
            java.util.Arrays.fill(key, (byte) 0xAB);
            key[len - 1] = (byte) (len % 251);
            tree.put(key, ByteBuffer.allocate(4).putInt(len).array());
        }
        tree.checkpoint();
        BTreeStats stats = tree.verify();
        assertEquals(2000, stats.entries());
        assertTrue(stats.maxDepth() >= 2, "long keys split pages by bytes");
        for (int len = 1; len <= 2000; len += 7) {
            byte[] key = new byte[len];
            java.util.Arrays.fill(key, (byte) 0xAB);
            key[len - 1] = (byte) (len % 251);
            assertEquals(len, ByteBuffer.wrap(tree.get(key)).getInt(), "key of " + len + " bytes");
        }
        int n = 0;
        byte[] prev = null;
        for (BTreeCursor c = tree.cursor(null, null); c.next(); n++) {
            assertTrue(prev == null || java.util.Arrays.compareUnsigned(prev, c.key()) < 0);
            prev = c.key();
        }
        assertEquals(2000, n);
        assertThrows(IllegalArgumentException.class, () -> tree.put(new byte[BTreeConfig.MAX_KEY_BYTES + 1], new byte[0]));
    }

    @Test
    void valuesAtAndOverTheInlineThreshold() {
        BTreeConfig config = BTreeConfig.builder().inlineValueThreshold(100).build();
        BTree tree = BTree.create(store, config, cache);
        byte[] atThreshold = new byte[100];
        byte[] overThreshold = new byte[101];
        atThreshold[99] = 1;
        overThreshold[100] = 2;
        tree.put(new byte[]{1}, atThreshold);
        tree.put(new byte[]{2}, overThreshold);
        tree.put(new byte[]{3}, new byte[100_000]);
        tree.checkpoint();
        assertEquals(3, store.recordCount(), "one leaf and two large values");
        assertEquals(2, tree.verify().largeValues());
        assertArrayEquals(atThreshold, tree.get(new byte[]{1}));
        assertArrayEquals(overThreshold, tree.get(new byte[]{2}));
        assertArrayEquals(new byte[100_000], tree.entryAt(2).getValue());
        assertArrayEquals(overThreshold, tree.put(new byte[]{2}, new byte[]{9}), "replacing returns the large value");
        tree.checkpoint();
        assertEquals(2, store.recordCount(), "the replaced large value is freed");
        BTreeCursor c = tree.descendingCursor(null, null);
        assertTrue(c.next());
        assertEquals(100_000, c.value().length);
        assertEquals(100_000, tree.remove(new byte[]{3}).length);
        tree.checkpoint();
        assertEquals(1, store.recordCount());
    }

    @Test
    void readOnlyViewsRefuseWrites() {
        BTree tree = BTree.create(store, BTreeConfig.DEFAULT, cache);
        tree.put(new byte[]{1}, new byte[]{1});
        BTree reader = BTree.openReadOnly(store, tree.checkpoint(), BTreeConfig.DEFAULT, cache);
        assertTrue(reader.isReadOnly());
        assertThrows(UnsupportedOperationException.class, () -> reader.put(new byte[]{2}, new byte[0]));
        assertThrows(UnsupportedOperationException.class, () -> reader.remove(new byte[]{1}));
        assertThrows(UnsupportedOperationException.class, reader::checkpoint);
        assertArrayEquals(new byte[]{1}, reader.get(new byte[]{1}));
    }

    @Test
    void cursorOnWritableTreeFailsFastAfterAChange() {
        BTree tree = BTree.create(store, BTreeConfig.DEFAULT, cache);
        tree.put(new byte[]{1}, new byte[0]);
        tree.put(new byte[]{2}, new byte[0]);
        BTreeCursor c = tree.cursor(null, null);
        assertTrue(c.next());
        tree.put(new byte[]{3}, new byte[0]);
        assertThrows(ConcurrentModificationException.class, c::next);
        assertThrows(IllegalStateException.class, () -> tree.cursor(null, null).key());
    }

    @Test
    void checkpointEncoding() {
        BTreeCheckpoint cp = new BTreeCheckpoint(0x1234_5678_9abcL, -5, 1L << 40, 7);
        byte[] bytes = cp.toBytes();
        assertEquals(BTreeCheckpoint.ENCODED_BYTES, bytes.length);
        assertEquals(cp, BTreeCheckpoint.fromBytes(ByteBuffer.wrap(bytes)));
        assertEquals(BTreeCheckpoint.EMPTY, BTreeCheckpoint.fromBytes(ByteBuffer.wrap(BTreeCheckpoint.EMPTY.toBytes())));
        bytes[0] = 9;
        assertThrows(IllegalArgumentException.class, () -> BTreeCheckpoint.fromBytes(ByteBuffer.wrap(bytes)));
        assertThrows(IllegalArgumentException.class, () -> new BTreeCheckpoint(0, 0, 5, 1));
        assertThrows(IllegalArgumentException.class, () -> BTreeConfig.builder().restartInterval(0).build());
    }
}
