package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.quads.QuadOrder;

/**
 * The sorter gives every order's distinct quads in key order, spilled or not, with one graph
 * (where orders that differ only in the constant column reuse a sort) and with many graphs.
 * Seed: {@code -Dbasalt.seed=N}.
 */
class QuadSorterTest {
    private static final long SEED = Long.getLong("basalt.seed", 17);
    private static final List<QuadOrder> ORDERS = List.of(QuadOrder.parse("spoc"), QuadOrder.parse("posc"),
            QuadOrder.parse("ospc"), QuadOrder.parse("cspo"));

    @TempDir
    Path tmp;

    @Test
    void everyOrderComesOutSortedAndDistinct() {
        System.out.println("QuadSorterTest seed " + SEED);
        Random rnd = new Random(SEED);
        for (int graphs : new int[] { 1, 5 }) {
            for (int capacity : new int[] { 97, 5000 }) {
                List<long[]> quads = new ArrayList<>();
                for (int i = 0; i < 3000; i++) {
                    quads.add(new long[] { 1 + rnd.nextInt(200), 1 + rnd.nextInt(4), rnd.nextLong() >>> rnd.nextInt(64),
                            1 + rnd.nextInt(graphs) });
                }
                quads.addAll(quads.subList(0, 500)); // duplicates
                check(quads, capacity, "graphs " + graphs + ", capacity " + capacity);
            }
        }
    }

    private void check(List<long[]> quads, int capacity, String ctx) {
        try (QuadSorter sorter = new QuadSorter(ORDERS, tmp, capacity)) {
            quads.forEach(sorter::add);
            sorter.finishAdding();
            for (int i = 0; i < ORDERS.size(); i++) {
                String order = ORDERS.get(i).name();
                TreeSet<List<Long>> expected = new TreeSet<>((a, b) -> {
                    for (int k = 0; k < 4; k++) {
                        int c = Long.compareUnsigned(a.get(k), b.get(k));
                        if (c != 0) {
                            return c;
                        }
                    }
                    return 0;
                });
                for (long[] q : quads) {
                    List<Long> key = new ArrayList<>();
                    for (char c : order.toCharArray()) {
                        key.add(q["spoc".indexOf(c)]);
                    }
                    expected.add(key);
                }
                List<List<Long>> actual = new ArrayList<>();
                try (SortedQuads sorted = sorter.sorted(i)) {
                    while (sorted.next()) {
                        long[] k = sorted.key();
                        actual.add(List.of(k[0], k[1], k[2], k[3]));
                    }
                }
                assertEquals(new ArrayList<>(expected), actual, ctx + ", order " + order + ", seed " + SEED);
                assertTrue(actual.size() > 1000, ctx);
            }
        }
    }
}
