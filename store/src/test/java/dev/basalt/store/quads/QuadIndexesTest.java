package dev.basalt.store.quads;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;

/**
 * Batched and single inserts agree: {@link QuadIndexes#addAll} reports exactly the quads that were
 * new (duplicates in the batch and quads already present excluded) and leaves every order holding
 * the same set as one-by-one {@link QuadIndexes#add}.
 */
class QuadIndexesTest {
    private static final List<QuadOrder> ORDERS = List.of(QuadOrder.parse("spoc"), QuadOrder.parse("posc"),
            QuadOrder.parse("ospc"), QuadOrder.parse("cspo"));
    private static final Comparator<long[]> QUAD_ORDER = (a, b) -> {
        for (int i = 0; i < 4; i++) {
            int c = Long.compareUnsigned(a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    };

    @TempDir
    Path dir;

    @Test
    void addAllMatchesOneByOneAdds() {
        SplittableRandom rnd = new SplittableRandom(5);
        try (Store store = Store.open(dir.resolve("q.jnl"), StoreConfig.defaults());
                WriteTransaction tx = store.begin()) {
            QuadIndexes batched = new QuadIndexes(ORDERS, o -> tx.tree("b." + o.name()));
            QuadIndexes single = new QuadIndexes(ORDERS, o -> tx.tree("s." + o.name()));
            TreeSet<long[]> expected = new TreeSet<>(QUAD_ORDER);
            for (int round = 0; round < 20; round++) {
                long[][] batch = new long[500][];
                for (int i = 0; i < batch.length; i++) {
                    // a small id space: duplicates within a batch and across batches are common
                    batch[i] = new long[] { 2 + rnd.nextInt(30), 2 + rnd.nextInt(5), 2 + rnd.nextInt(40), 1 + rnd.nextInt(3) };
                }
                TreeSet<long[]> fresh = new TreeSet<>(QUAD_ORDER);
                for (long[] q : batch) {
                    if (!expected.contains(q)) {
                        fresh.add(q);
                    }
                    single.add(q);
                }
                expected.addAll(fresh);
                List<long[]> added = batched.addAll(batch);
                assertEquals(fresh.size(), added.size(), "round " + round);
                List<long[]> want = new ArrayList<>(fresh);
                for (int i = 0; i < want.size(); i++) {
                    assertArrayEquals(want.get(i), added.get(i), "round " + round + " quad " + i);
                }
            }
            assertEquals(expected.size(), batched.size());
            assertEquals(single.size(), batched.size());
            for (int i = 0; i < ORDERS.size(); i++) {
                String o = ORDERS.get(i).name();
                assertEquals(expected.size(), tx.tree("b." + o).size(), o);
                var a = tx.tree("b." + o).cursor(null, null);
                var b = tx.tree("s." + o).cursor(null, null);
                while (a.next()) {
                    b.next();
                    assertArrayEquals(b.key(), a.key(), o);
                }
            }
        }
    }

    /**
     * The order a scan uses is the first with the longest prefix of bound positions, and the order
     * a merge join reads by a position is the first whose bound prefix is exactly the bound
     * positions followed by that position: both looked up from per-set tables, checked here
     * against those definitions for every set of bound positions and several order lists.
     */
    @Test
    void chosenOrdersFollowTheirDefinitions() {
        List<List<QuadOrder>> orderLists = List.of(ORDERS, List.of(QuadOrder.parse("spoc")),
                List.of(QuadOrder.parse("posc"), QuadOrder.parse("spoc")),
                List.of(QuadOrder.parse("cpos"), QuadOrder.parse("ospc"), QuadOrder.parse("scop")));
        SplittableRandom rnd = new SplittableRandom(9);
        for (List<QuadOrder> orders : orderLists) {
            QuadIndexes indexes = new QuadIndexes(orders, o -> null);
            // the second pass, with other ids, is answered from the tables the first pass filled
            for (int pass = 0; pass < 2; pass++) {
                for (int bound = 0; bound < 16; bound++) {
                    long[] pattern = new long[4];
                    int count = 0;
                    for (int i = 0; i < 4; i++) {
                        if ((bound >>> i & 1) != 0) {
                            pattern[i] = 1 + rnd.nextInt(1_000_000);
                            count++;
                        }
                    }
                    int best = 0;
                    for (int i = 1; i < orders.size(); i++) {
                        if (orders.get(i).boundPrefix(pattern) > orders.get(best).boundPrefix(pattern)) {
                            best = i;
                        }
                    }
                    String ctx = orders + " bound set " + bound;
                    assertEquals(best, indexes.bestOrder(pattern), ctx);
                    for (int position = 0; position < 4; position++) {
                        int following = -1;
                        if (pattern[position] == 0) {
                            for (int i = 0; i < orders.size() && following < 0; i++) {
                                if (orders.get(i).boundPrefix(pattern) == count && orders.get(i).positionAt(count) == position) {
                                    following = i;
                                }
                            }
                        }
                        assertEquals(following, indexes.orderFollowing(pattern, position), ctx + " position " + position);
                    }
                }
            }
        }
    }
}
