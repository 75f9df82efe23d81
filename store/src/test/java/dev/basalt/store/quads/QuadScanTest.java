package dev.basalt.store.quads;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCheckpoint;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.btree.PageCache;
import dev.basalt.store.journal.MemoryRecordStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Pattern scans and counts agree with filtering every quad, on dirty and on committed trees (leaves of
 * encoded keys and of id tuples); a scan's columns ({@link QuadCursor#nextColumns}, any subset of the
 * positions, blocks of any size) hold the ids of its matches in order.
 */
class QuadScanTest {
    private static final List<QuadOrder> ORDERS = List.of(QuadOrder.parse("spoc"), QuadOrder.parse("posc"));
    private static final long[] IDS = {1, 2, 3, 0xff, 0x100, -1L, -2L, 0x00ffffffffffffffL};

    @Test
    void scansAgreeWithFilter() {
        scansAgreeWithFilter(BTreeConfig.builder().leafMaxEntries(8).internalMaxEntries(4).restartInterval(3).build());
    }

    @Test
    void scansOfIdTupleLeavesAgreeWithFilter() {
        scansAgreeWithFilter(BTreeConfig.builder().leafMaxEntries(24).internalMaxEntries(4).restartInterval(3)
                .idTupleWidth(4).build());
    }

    private static void scansAgreeWithFilter(BTreeConfig config) {
        SplittableRandom rnd = new SplittableRandom(11);
        MemoryRecordStore store = new MemoryRecordStore();
        PageCache cache = new PageCache(1 << 20);
        Map<QuadOrder, BTree> trees = new HashMap<>();
        QuadIndexes quads = new QuadIndexes(ORDERS, o -> trees.computeIfAbsent(o, x -> BTree.create(store, config, cache)));
        List<long[]> all = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            long[] q = {id(rnd), id(rnd), id(rnd), id(rnd)};
            if (quads.add(q)) {
                all.add(q);
            }
        }
        check(quads, all, rnd);
        Map<QuadOrder, BTreeCheckpoint> cps = new HashMap<>();
        trees.forEach((o, t) -> cps.put(o, t.checkpoint()));
        check(quads, all, rnd);
        check(new QuadIndexes(ORDERS, o -> BTree.openReadOnly(store, cps.get(o), config, cache)), all, rnd);
    }

    private static long id(SplittableRandom rnd) {
        return IDS[rnd.nextInt(IDS.length)];
    }

    private static void check(QuadIndexes quads, List<long[]> all, SplittableRandom rnd) {
        for (int round = 0; round < 500; round++) {
            long[] pattern = new long[4];
            for (int i = 0; i < 4; i++) {
                pattern[i] = rnd.nextInt(3) == 0 ? id(rnd) : 0;
            }
            long expected = all.stream().filter(q -> matches(pattern, q)).count();
            QuadCursor c = quads.scan(pattern);
            long n = 0;
            while (c.next()) {
                assertEquals(true, matches(pattern, c.quad()));
                n++;
            }
            assertEquals(expected, n, java.util.Arrays.toString(pattern));
            assertEquals(expected, quads.count(pattern), java.util.Arrays.toString(pattern));
            checkColumns(quads, pattern, rnd);
        }
    }

    /** The matches read as columns, in blocks of random sizes and random positions, are those {@link QuadCursor#next} gives. */
    private static void checkColumns(QuadIndexes quads, long[] pattern, SplittableRandom rnd) {
        List<long[]> want = new ArrayList<>();
        QuadCursor rows = quads.scan(pattern);
        while (rows.next()) {
            want.add(rows.quad().clone());
        }
        QuadCursor c = quads.scan(pattern);
        long[][] cols = new long[4][];
        int read = 0;
        while (true) {
            int max = 1 + rnd.nextInt(rnd.nextBoolean() ? 4 : 200);
            int off = rnd.nextInt(3);
            boolean[] asked = new boolean[4];
            for (int i = 0; i < 4; i++) {
                asked[i] = rnd.nextInt(3) > 0;
                cols[i] = asked[i] ? new long[off + max] : null;
            }
            int got = c.nextColumns(cols, off, max);
            if (got == 0) {
                break;
            }
            for (int e = 0; e < got; e++, read++) {
                String at = java.util.Arrays.toString(pattern) + " match " + read;
                org.junit.jupiter.api.Assertions.assertTrue(read < want.size(), at + ": more matches than the scan has");
                for (int i = 0; i < 4; i++) {
                    if (asked[i]) {
                        assertEquals(want.get(read)[i], cols[i][off + e], at + " position " + i);
                    }
                }
            }
        }
        assertEquals(want.size(), read, java.util.Arrays.toString(pattern));
    }

    private static boolean matches(long[] pattern, long[] quad) {
        for (int i = 0; i < 4; i++) {
            if (pattern[i] != 0 && pattern[i] != quad[i]) {
                return false;
            }
        }
        return true;
    }
}
