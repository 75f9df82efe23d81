package dev.basalt.store.quads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.TermIds;

/**
 * An index set that leaves its context-first order empty while every quad is in the default graph
 * answers every pattern (scans, counts, seeks of a merge join, with the context unbound, the
 * default graph or a named graph) as a set that keeps every order does; the first quad in a named
 * graph builds that order from the primary one, tells the listener once, and the answers stay the
 * same. Removals and batched adds take the same path.
 */
class DefaultGraphOnlyTest {
    private static final List<QuadOrder> ORDERS = List.of(QuadOrder.parse("spoc"), QuadOrder.parse("posc"),
            QuadOrder.parse("ospc"), QuadOrder.parse("cspo"));
    private static final long NAMED = 77;

    @TempDir
    Path dir;

    @Test
    void onlyAContextFirstOrderFollowingThePrimaryWaits() {
        assertTrue(QuadIndexes.isDeferrable(QuadOrder.parse("cspo"), QuadOrder.parse("spoc")));
        assertTrue(QuadIndexes.isDeferrable(QuadOrder.parse("cpos"), QuadOrder.parse("posc")));
        assertFalse(QuadIndexes.isDeferrable(QuadOrder.parse("cpos"), QuadOrder.parse("spoc")));
        assertFalse(QuadIndexes.isDeferrable(QuadOrder.parse("ospc"), QuadOrder.parse("spoc")));
        assertFalse(new QuadIndexes(List.of(QuadOrder.parse("spoc"), QuadOrder.parse("cpos")), o -> null, TermIds.DEFAULT_GRAPH)
                .defaultGraphOnly(), "no order can wait: every order is kept");
    }

    @Test
    void answersAsASetKeepingEveryOrderBeforeAndAfterTheFirstNamedGraph() {
        SplittableRandom rnd = new SplittableRandom(11);
        try (Store store = Store.open(dir.resolve("q.jnl"), StoreConfig.defaults());
                WriteTransaction tx = store.begin()) {
            QuadIndexes full = new QuadIndexes(ORDERS, o -> tx.tree("f." + o.name()));
            QuadIndexes lazy = new QuadIndexes(ORDERS, o -> tx.tree("l." + o.name()), TermIds.DEFAULT_GRAPH);
            int[] built = { 0 };
            lazy.onContextOrdersBuilt(() -> built[0]++);
            assertTrue(lazy.defaultGraphOnly());
            List<long[]> batch = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                long[] q = { 2 + rnd.nextInt(40), 2 + rnd.nextInt(6), 2 + rnd.nextInt(60), TermIds.DEFAULT_GRAPH };
                if (i % 2 == 0) {
                    full.add(q);
                    lazy.add(q);
                } else {
                    batch.add(q);
                }
            }
            full.addAll(batch.toArray(new long[0][]));
            lazy.addAll(batch.toArray(new long[0][]));
            for (int i = 0; i < 300; i++) {
                long[] q = { 2 + rnd.nextInt(40), 2 + rnd.nextInt(6), 2 + rnd.nextInt(60), TermIds.DEFAULT_GRAPH };
                assertEquals(full.remove(q), lazy.remove(q));
            }
            assertEquals(0, tx.tree("l.cspo").size(), "cspo is left empty");
            assertTrue(tx.tree("l.spoc").size() > 1_000);
            assertSameAnswers(full, lazy, rnd);

            // a batch whose quads in the default graph sort before and after its named one
            long[][] first = { { 2, 2, 2, TermIds.DEFAULT_GRAPH }, { 3, 3, 3, NAMED }, { 99, 9, 9, TermIds.DEFAULT_GRAPH } };
            full.addAll(first);
            lazy.addAll(first);
            assertEquals(1, built[0], "the listener is told once");
            long[] single = { 4, 4, 4, NAMED + 2 };
            full.add(single);
            lazy.add(single);
            assertFalse(lazy.defaultGraphOnly());
            assertEquals(tx.tree("l.spoc").size(), tx.tree("l.cspo").size(), "cspo is built");
            List<long[]> more = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                more.add(new long[] { 2 + rnd.nextInt(40), 2 + rnd.nextInt(6), 2 + rnd.nextInt(60),
                        i % 3 == 0 ? TermIds.DEFAULT_GRAPH : NAMED + rnd.nextInt(3) });
            }
            full.addAll(more.toArray(new long[0][]));
            lazy.addAll(more.toArray(new long[0][]));
            assertEquals(1, built[0]);
            for (String o : List.of("spoc", "posc", "ospc", "cspo")) {
                assertEquals(tx.tree("f." + o).size(), tx.tree("l." + o).size(), o);
            }
            assertSameAnswers(full, lazy, rnd);
        }
    }

    /** Every set of bound positions, with the context unbound, the default graph, or a named graph. */
    private static void assertSameAnswers(QuadIndexes full, QuadIndexes lazy, SplittableRandom rnd) {
        long[] contexts = { 0, TermIds.DEFAULT_GRAPH, NAMED, NAMED + 1 };
        for (int round = 0; round < 20; round++) {
            for (int bound = 0; bound < 8; bound++) {
                for (long c : contexts) {
                    long[] pattern = new long[4];
                    pattern[0] = (bound & 1) != 0 ? 2 + rnd.nextInt(40) : 0;
                    pattern[1] = (bound & 2) != 0 ? 2 + rnd.nextInt(6) : 0;
                    pattern[2] = (bound & 4) != 0 ? 2 + rnd.nextInt(60) : 0;
                    pattern[3] = c;
                    String what = java.util.Arrays.toString(pattern);
                    assertEquals(matches(full.scan(pattern)), matches(lazy.scan(pattern)), "scan " + what);
                    assertEquals(full.count(pattern), lazy.count(pattern), "count " + what);
                    for (int position = 0; position < 3; position++) {
                        if (pattern[position] != 0 || lazy.orderFollowing(pattern, position) < 0) {
                            continue;
                        }
                        QuadCursor seek = lazy.seek(null, pattern, position, 2 + rnd.nextInt(30));
                        long previous = Long.MIN_VALUE;
                        List<String> seen = new ArrayList<>();
                        while (seek.next()) {
                            long v = seek.quad()[position];
                            assertTrue(v >= previous, "seek by position " + position + " of " + what + " is ordered");
                            previous = v;
                            seen.add(java.util.Arrays.toString(seek.quad()));
                        }
                        List<String> all = matches(lazy.scan(pattern));
                        assertTrue(all.containsAll(seen), "seek of " + what);
                    }
                }
            }
        }
    }

    private static List<String> matches(QuadCursor c) {
        List<String> out = new ArrayList<>();
        while (c.next()) {
            out.add(java.util.Arrays.toString(c.quad()));
        }
        java.util.Collections.sort(out);
        return out;
    }
}
