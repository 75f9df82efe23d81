package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.JournalMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Drives the journal and B+tree together against a TreeMap: inserts, overwrites, deletes, point
 * reads, range scans both ways, range counts, commits, rollbacks, reopens and reads of older
 * commit points, with a full verify pass now and then. The seed is printed in every failure and
 * can be set with -Dbasalt.seed.
 */
class StoreModelTest {
    @TempDir
    Path dir;

    @Test
    void millionOperationsAgainstTreeMapRw() {
        run(JournalMode.RW, 1_000_000, Duration.ofHours(1));
    }

    @Test
    void operationsWithSpaceRecycling() {
        run(JournalMode.RW, 300_000, Duration.ZERO);
    }

    @Test
    void operationsAgainstTreeMapWorm() {
        run(JournalMode.WORM, 200_000, Duration.ZERO);
    }

    @Test
    @Tag("long")
    void tenMillionOperations() {
        run(JournalMode.RW, 10_000_000, Duration.ZERO);
    }

    private void run(JournalMode mode, int operations, Duration retention) {
        long seed = Long.getLong("basalt.seed", System.nanoTime());
        String ctx = "seed=" + seed + " (rerun with -Dbasalt.seed=" + seed + ")";
        SplittableRandom rnd = new SplittableRandom(seed);
        Path file = dir.resolve(mode + ".jnl");
        StoreConfig cfg = StoreConfig.defaults().withPageCacheBytes(8 << 20)
                .withJournal(StoreConfig.defaults().journal().withMode(mode).withHistoryRetention(retention).withDurable(false));
        NavigableMap<byte[], byte[]> model = Workload.newModel();
        // undo log of the open transaction: first value each key had before it (null = absent)
        Map<ByteBuffer, byte[]> undo = new HashMap<>();
        java.util.TreeMap<Long, NavigableMap<byte[], byte[]>> history = new java.util.TreeMap<>();
        Store store = Store.open(file, cfg);
        WriteTransaction tx = store.begin();
        int keySpace = 50_000;
        int commits = 0;
        int oldReads = 0;
        int op = 0;
        try {
            for (; op < operations; op++) {
                int kind = rnd.nextInt(1000);
                BTree t = tx.tree("m");
                byte[] k = Workload.key(rnd.nextInt(keySpace));
                if (kind < 450) {
                    byte[] v = new byte[rnd.nextInt(100) == 0 ? 500 + rnd.nextInt(2000) : rnd.nextInt(24)];
                    Arrays.fill(v, (byte) op);
                    remember(undo, model, k);
                    assertArrayEquals(model.put(k, v), t.put(k, v), ctx + " put op " + op);
                } else if (kind < 650) {
                    remember(undo, model, k);
                    assertArrayEquals(model.remove(k), t.remove(k), ctx + " remove op " + op);
                } else if (kind < 940) {
                    assertArrayEquals(model.get(k), t.get(k), ctx + " get op " + op);
                } else if (kind < 990) {
                    byte[] hi = Workload.key(rnd.nextInt(keySpace));
                    byte[] lo = Arrays.compareUnsigned(k, hi) <= 0 ? k : hi;
                    hi = lo == k ? hi : k;
                    long expectedCount = model.subMap(lo, true, hi, false).size();
                    assertEquals(expectedCount, t.rangeCount(lo, hi), ctx + " count op " + op);
                    assertEquals(model.size(), t.size(), ctx + " size op " + op);
                    if (kind < 945) {
                        scan(t, model, lo, hi, rnd.nextBoolean(), ctx + " scan op " + op);
                    }
                } else if (kind < 996 && rnd.nextInt(3) == 0) {
                    CommitPoint p = tx.commit();
                    commits++;
                    undo.clear();
                    if (rnd.nextInt(10) == 0) {
                        history.put(p.counter(), copy(model));
                        if (history.size() > 20) {
                            history.pollFirstEntry();
                        }
                    }
                    tx = store.begin();
                } else if (kind >= 996 && kind < 998) {
                    tx.rollback();
                    rollback(model, undo);
                    tx = store.begin();
                } else if (kind == 998) {
                    if (rnd.nextInt(4) == 0) {
                        tx.rollback();
                        rollback(model, undo);
                        store.close();
                        store = Store.open(file, cfg);
                        tx = store.begin();
                    }
                } else if (kind == 999 && !history.isEmpty() && rnd.nextInt(4) == 0) {
                    java.util.List<Long> keys = new java.util.ArrayList<>(history.keySet());
                    long c = keys.get(rnd.nextInt(keys.size()));
                    boolean retained = store.retainedCommits().stream().anyMatch(x -> x.counter() == c);
                    if (retained) {
                        oldReads++;
                        try (Snapshot s = store.snapshot(c)) {
                            BTree old = s.tree("m");
                            NavigableMap<byte[], byte[]> expected = history.get(c);
                            assertEquals(expected.size(), old == null ? 0 : old.size(), ctx + " old commit " + c);
                            if (old != null) {
                                scan(old, expected, null, null, false, ctx + " old commit " + c);
                            }
                        }
                    } else {
                        assertTrue(retention.isZero(), ctx + ": commit " + c + " should be retained");
                        history.remove(c);
                    }
                }
                if (op % 250_000 == 249_999) {
                    tx.commit();
                    undo.clear();
                    StoreVerifier.Report r = store.verify();
                    assertEquals(model.size(), r.trees().get("m").entries(), ctx);
                    tx = store.begin();
                }
            }
            tx.commit();
            assertEquals(model.size(), store.verify().trees().get("m").entries(), ctx);
            assertTrue(commits > 100, ctx);
            if (!retention.isZero()) {
                assertTrue(oldReads > 5, ctx + ": only " + oldReads + " reads of older commit points");
            }
            if (mode == JournalMode.WORM) {
                assertEquals(store.retainedCommits().size(), store.stats().journal().commitCounter(), ctx);
            }
        } catch (RuntimeException e) {
            throw new AssertionError(ctx + ": failed at operation " + op, e);
        } finally {
            tx.rollback();
            store.close();
        }
    }

    private static void remember(Map<ByteBuffer, byte[]> undo, NavigableMap<byte[], byte[]> model, byte[] k) {
        ByteBuffer key = ByteBuffer.wrap(k);
        if (!undo.containsKey(key)) {
            undo.put(key, model.get(k));
        }
    }

    private static void rollback(NavigableMap<byte[], byte[]> model, Map<ByteBuffer, byte[]> undo) {
        for (Map.Entry<ByteBuffer, byte[]> e : undo.entrySet()) {
            byte[] k = e.getKey().array();
            if (e.getValue() == null) {
                model.remove(k);
            } else {
                model.put(k, e.getValue());
            }
        }
        undo.clear();
    }

    private static NavigableMap<byte[], byte[]> copy(NavigableMap<byte[], byte[]> m) {
        NavigableMap<byte[], byte[]> c = Workload.newModel();
        c.putAll(m);
        return c;
    }

    static void scan(BTree t, NavigableMap<byte[], byte[]> model, byte[] lo, byte[] hi, boolean descending, String ctx) {
        NavigableMap<byte[], byte[]> sub = model;
        if (lo != null && hi != null) {
            sub = model.subMap(lo, true, hi, false);
        }
        Iterator<Map.Entry<byte[], byte[]>> expected = (descending ? sub.descendingMap() : sub).entrySet().iterator();
        {
            dev.basalt.store.btree.BTreeCursor c = descending ? t.descendingCursor(lo, hi) : t.cursor(lo, hi);
            while (c.next()) {
                assertTrue(expected.hasNext(), ctx + ": cursor returned more entries than the model");
                Map.Entry<byte[], byte[]> e = expected.next();
                assertArrayEquals(e.getKey(), c.key(), ctx);
                assertArrayEquals(e.getValue(), c.value(), ctx);
            }
        }
        assertFalse(expected.hasNext(), ctx + ": cursor returned fewer entries than the model");
    }
}
