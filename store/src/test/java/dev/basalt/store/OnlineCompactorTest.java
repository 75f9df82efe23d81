package dev.basalt.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.journal.JournalStats;
import dev.basalt.store.journal.StoreException;

/**
 * Online compaction: a store grown to several times its live data by deletes shrinks to near its
 * live size while a writer and readers go on, with every committed entry intact and a full verify
 * passing; a reader's pin is waited for and reported; WORM journals are refused with a message.
 */
class OnlineCompactorTest {
    private static final int KEYS = 60_000;

    @TempDir
    Path dir;

    private static StoreConfig config(JournalMode mode) {
        return StoreConfig.defaults().withJournal(StoreConfig.defaults().journal().withMode(mode)
                .withHistoryRetention(Duration.ZERO));
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(8).putLong(i * 2654435761L).array();
    }

    private static byte[] value(int i) {
        byte[] v = new byte[i % 211 == 0 ? 5000 : 40];
        ByteBuffer.wrap(v).putInt(i);
        return v;
    }

    /** KEYS entries in two trees, then all but every fifth deleted: most of the file is free. */
    private static void growByDeletes(Store s) {
        for (int batch = 0; batch < 6; batch++) {
            try (WriteTransaction tx = s.begin()) {
                for (int i = batch; i < KEYS; i += 6) {
                    tx.tree("a").put(key(i), value(i));
                    tx.tree("b").put(key(-i), value(i));
                }
                tx.commit();
            }
        }
        for (int batch = 0; batch < 4; batch++) {
            try (WriteTransaction tx = s.begin()) {
                for (int i = batch; i < KEYS; i += 4) {
                    if (i % 5 != 0) {
                        tx.tree("a").remove(key(i));
                        tx.tree("b").remove(key(-i));
                    }
                }
                tx.commit();
            }
        }
    }

    private static long live(JournalStats j) {
        return j.bytesInUse() - j.bytesDeferred();
    }

    @Test
    void shrinksALiveStoreWhileWritesAndReadsGoOn() throws Exception {
        Path file = dir.resolve("s.jnl");
        try (Store s = Store.open(file, config(JournalMode.RW))) {
            growByDeletes(s);
            JournalStats before = s.stats().journal();
            assertTrue(before.fileBytes() >= 3 * live(before), "the setup did not grow the file to 3x: " + before);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Map<Integer, Boolean> written = new ConcurrentHashMap<>();
            Thread writer = new Thread(() -> {
                int n = 0;
                try {
                    while (!stop.get()) {
                        try (WriteTransaction tx = s.begin()) {
                            for (int i = 0; i < 20; i++, n++) {
                                tx.tree("c").put(key(n), value(n));
                            }
                            tx.commit();
                        }
                        for (int i = n - 20; i < n; i++) {
                            written.put(i, true);
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            Thread reader = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        try (Snapshot snap = s.snapshot()) {
                            BTree a = snap.tree("a");
                            assertEquals(KEYS / 5, a.size());
                            for (int i = 0; i < KEYS; i += 997) {
                                byte[] v = a.get(key(i));
                                if (i % 5 == 0) {
                                    assertArrayEquals(value(i), v, "key " + i);
                                }
                            }
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            writer.start();
            reader.start();
            OnlineCompactor.Result r;
            try {
                r = OnlineCompactor.compact(s, OnlineCompactor.Options.DEFAULT, () -> { });
            } finally {
                stop.set(true);
                writer.join();
                reader.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("a concurrent reader or writer failed", failure.get());
            }
            // the writer's last commits came after the compaction: compact once more without them
            OnlineCompactor.Result quiet = OnlineCompactor.compact(s, OnlineCompactor.Options.DEFAULT, () -> { });
            JournalStats after = s.stats().journal();
            LoggerFactory.getLogger(OnlineCompactorTest.class).info("before {}; under load: {}; quiet: {}", before, r, quiet);
            assertTrue(r.bytesAfter() < r.bytesBefore() / 2, r.toString());
            // a 2 MB store is a few dozen regions of 64 KB and more: region granularity bounds the ratio
            // (measured 1.15x after the second pass on a loaded 2-core machine)
            assertTrue(after.fileBytes() <= 1.5 * live(after), "file " + after.fileBytes() + " live " + live(after));
            assertEquals(after.fileBytes(), Files.size(file));
            s.verify();
            try (Snapshot snap = s.snapshot()) {
                for (int i = 0; i < KEYS; i++) {
                    byte[] expected = i % 5 == 0 ? value(i) : null;
                    assertArrayEquals(expected, snap.tree("a").get(key(i)), "a " + i);
                    assertArrayEquals(expected, snap.tree("b").get(key(-i)), "b " + i);
                }
                for (int i : written.keySet()) {
                    assertArrayEquals(value(i), snap.tree("c").get(key(i)), "c " + i);
                }
            }
        }
        try (Store s = Store.open(file, config(JournalMode.RW))) {
            s.verify();
            try (Snapshot snap = s.snapshot()) {
                assertEquals(KEYS / 5, snap.tree("a").size());
            }
        }
    }

    @Test
    void aReadersPinHoldsTheTailAndIsReported() {
        try (Store s = Store.open(dir.resolve("p.jnl"), config(JournalMode.RW))) {
            try (WriteTransaction tx = s.begin()) {
                for (int i = 0; i < KEYS; i++) {
                    tx.tree("a").put(key(i), value(i));
                }
                tx.commit();
            }
            try (Snapshot old = s.snapshot()) {
                try (WriteTransaction tx = s.begin()) {
                    for (int i = 0; i < KEYS; i++) {
                        if (i % 5 != 0) {
                            tx.tree("a").remove(key(i));
                        }
                    }
                    tx.commit();
                }
                OnlineCompactor.Result r = OnlineCompactor.compact(s,
                        new OnlineCompactor.Options(Duration.ofMillis(20), Duration.ofMillis(200), 2), () -> { });
                assertTrue(r.pinnedBytes() > 0 && r.bytesAfter() <= r.bytesBefore(), r.toString());
                assertTrue(r.toString().contains("held by readers pinning commit point " + old.commit().counter()),
                        r.toString());
                assertEquals(KEYS, old.tree("a").size());
                assertArrayEquals(value(1), old.tree("a").get(key(1)));
            }
            // the pin is gone: a second run releases the tail
            OnlineCompactor.Result r = OnlineCompactor.compact(s, OnlineCompactor.Options.DEFAULT, () -> { });
            assertEquals(0, r.pinnedBytes(), r.toString());
            assertTrue(r.bytesAfter() < r.bytesBefore() / 2, r.toString());
            s.verify();
        }
    }

    @Test
    void wormJournalsAreRefused() {
        try (Store s = Store.open(dir.resolve("w.jnl"), config(JournalMode.WORM))) {
            StoreException e = assertThrows(StoreException.class,
                    () -> OnlineCompactor.compact(s, OnlineCompactor.Options.DEFAULT, () -> { }));
            assertTrue(e.getMessage().contains("WORM") && e.getMessage().contains("basalt compact"), e.getMessage());
        }
    }
}
