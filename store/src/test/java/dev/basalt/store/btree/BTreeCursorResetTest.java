package dev.basalt.store.btree;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.basalt.store.journal.MemoryRecordStore;

/**
 * A cursor repositioned with {@link BTreeCursor#reset} (finger search from its previous path)
 * yields exactly what a new cursor on the same range yields: ranges in key order (the nested-loop
 * case), in random order, empty, unbounded, beyond both ends, descending, and on a writable tree
 * changed between resets (the path is then rebuilt from the root, the tree's height may differ).
 */
class BTreeCursorResetTest {
    private static final BTreeConfig CONFIG = BTreeConfig.builder().leafMaxEntries(8).internalMaxEntries(4)
            .restartInterval(3).build();

    private static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    private static List<Integer> read(BTreeCursor c) {
        List<Integer> out = new ArrayList<>();
        while (c.next()) {
            out.add(ByteBuffer.wrap(c.key()).getInt());
            assertArrayEquals(key(out.get(out.size() - 1)), c.value(), "value of the entry");
        }
        return out;
    }

    private static List<Integer> expected(NavigableMap<Integer, Integer> model, Integer from, Integer to, boolean descending) {
        NavigableMap<Integer, Integer> range = model;
        if (from != null && to != null) {
            range = from >= to ? new TreeMap<>() : model.subMap(from, true, to, false);
        } else if (from != null) {
            range = model.tailMap(from, true);
        } else if (to != null) {
            range = model.headMap(to, false);
        }
        return new ArrayList<>(descending ? range.descendingKeySet() : range.keySet());
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void resetCursorReadsWhatANewCursorReads(boolean descending) {
        MemoryRecordStore store = new MemoryRecordStore();
        PageCache cache = new PageCache(1 << 20);
        BTree writer = BTree.create(store, CONFIG, cache);
        NavigableMap<Integer, Integer> model = new TreeMap<>();
        Random random = new Random(7);
        for (int i = 0; i < 5000; i++) {
            int k = random.nextInt(20_000) * 2;
            writer.put(key(k), key(k));
            model.put(k, k);
        }
        BTree reader = BTree.openReadOnly(store, writer.checkpoint(), CONFIG, cache);
        BTreeCursor cursor = descending ? reader.descendingCursor(null, null) : reader.cursor(null, null);
        int checked = 0;
        // probes in key order, as a nested-loop join with an ordered outer side makes them, then at random
        for (int round = 0; round < 2; round++) {
            int at = -100;
            for (int i = 0; i < 3000; i++) {
                int from = round == 0 ? (at += random.nextInt(40)) : random.nextInt(42_000) - 500;
                int width = random.nextInt(10) == 0 ? -3 : random.nextInt(30);
                Integer lo = random.nextInt(50) == 0 ? null : from;
                Integer hi = random.nextInt(50) == 0 ? null : from + width;
                cursor.reset(lo == null ? null : key(lo), hi == null ? null : key(hi));
                List<Integer> got = read(cursor);
                assertEquals(expected(model, lo, hi, descending), got, "range [" + lo + ", " + hi + ")");
                if (random.nextBoolean()) {
                    // a cursor abandoned part-way is reset as well
                    cursor.reset(key(from), key(from + 100));
                    cursor.next();
                }
                checked += got.size();
            }
        }
        assertEquals(true, checked > 10_000, "the probes found entries: " + checked);
    }

    @ParameterizedTest
    @ValueSource(booleans = { false, true })
    void resetAfterTheWritableTreeChangedStartsFromTheRoot(boolean descending) {
        MemoryRecordStore store = new MemoryRecordStore();
        BTree tree = BTree.create(store, CONFIG, new PageCache(1 << 20));
        NavigableMap<Integer, Integer> model = new TreeMap<>();
        for (int i = 0; i < 10; i++) {
            tree.put(key(i), key(i));
            model.put(i, i);
        }
        BTreeCursor cursor = descending ? tree.descendingCursor(key(2), key(8)) : tree.cursor(key(2), key(8));
        assertEquals(expected(model, 2, 8, descending), read(cursor));
        Random random = new Random(3);
        for (int round = 0; round < 200; round++) {
            for (int j = 0; j < 50; j++) {
                int k = random.nextInt(3000);
                if (random.nextInt(4) == 0) {
                    tree.remove(key(k));
                    model.remove(k);
                } else {
                    tree.put(key(k), key(k));
                    model.put(k, k);
                }
            }
            if (round % 50 == 49) {
                tree.checkpoint();
            }
            int from = random.nextInt(3000);
            cursor.reset(key(from), key(from + 60));
            assertEquals(expected(model, from, from + 60, descending), read(cursor), "round " + round);
        }
    }
}
