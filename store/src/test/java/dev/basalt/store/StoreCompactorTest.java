package dev.basalt.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.journal.StoreException;

/**
 * Offline compaction: the newest commit point survives byte for byte in a smaller file; a locked,
 * damaged or missing journal is refused with the original left unchanged; a stale copy of an
 * interrupted run is ignored; and killing the compacting process at random moments always leaves a
 * journal that opens with the same data.
 */
class StoreCompactorTest {
    private static final int KEYS = 20_000;

    @TempDir
    Path dir;

    static StoreConfig config() {
        return StoreConfig.defaults().withJournal(StoreConfig.defaults().journal().withMode(JournalMode.RW)
                .withHistoryRetention(Duration.ofHours(1)));
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(8).putLong(i * 2654435761L).array();
    }

    private static byte[] value(int i, int round) {
        byte[] v = new byte[i % 97 == 0 ? 3000 : 20];
        ByteBuffer.wrap(v).putInt(i).putInt(round);
        return v;
    }

    /** Writes {@code rounds} commits of updates (history kept by retention, so the file grows) and a property. */
    private Path populate(int rounds) {
        Path file = dir.resolve("s.jnl");
        try (Store s = Store.open(file, config())) {
            SplittableRandom rnd = new SplittableRandom(7);
            for (int r = 0; r < rounds; r++) {
                try (WriteTransaction tx = s.begin()) {
                    BTree a = tx.tree("a");
                    BTree b = tx.tree("b");
                    for (int i = 0; i < KEYS / 4; i++) {
                        int k = r == 0 ? i * 4 : rnd.nextInt(KEYS);
                        a.put(key(k), value(k, r));
                        if (k % 3 == 0) {
                            b.put(key(k), value(k, -r));
                        }
                    }
                    if (r == 0) {
                        for (int i = 0; i < KEYS; i++) {
                            a.put(key(i), value(i, r));
                        }
                    }
                    tx.setProperty("round", ByteBuffer.allocate(4).putInt(r).array());
                    tx.commit();
                }
            }
        }
        return file;
    }

    /** Every entry and property of the newest commit point, as a digest-like long. */
    private static long contentHash(Path file) {
        try (Store s = Store.open(file, config()); Snapshot snap = s.snapshot()) {
            long h = 17;
            for (String name : snap.treeNames()) {
                h = h * 31 + name.hashCode();
                var c = snap.tree(name).cursor(null, null);
                while (c.next()) {
                    h = h * 31 + java.util.Arrays.hashCode(c.key());
                    h = h * 31 + java.util.Arrays.hashCode(c.value());
                }
            }
            for (String p : snap.propertyNames()) {
                h = h * 31 + p.hashCode() * 7 + java.util.Arrays.hashCode(snap.property(p));
            }
            return h;
        }
    }

    @Test
    void keepsTheNewestCommitPointAndShrinksTheFile() throws IOException {
        Path file = populate(30);
        long hash = contentHash(file);
        long before = Files.size(file);

        StoreCompactor.Result r = StoreCompactor.compact(file, config());

        assertEquals(before, r.bytesBefore());
        assertEquals(Files.size(file), r.bytesAfter());
        assertTrue(r.bytesAfter() < before / 2, r.toString());
        assertEquals(hash, contentHash(file));
        assertFalse(Files.exists(dir.resolve("s.jnl" + StoreCompactor.SUFFIX)));
        try (Store s = Store.open(file, config())) {
            s.verify();
            assertEquals(1, s.retainedCommits().size(), "history is dropped: one commit point");
            try (Snapshot snap = s.snapshot()) {
                assertEquals(29, ByteBuffer.wrap(snap.property("round")).getInt());
            }
            // the compacted store takes new commits as usual
            try (WriteTransaction tx = s.begin()) {
                tx.tree("a").put(key(1), value(1, 99));
                tx.commit();
            }
        }
        try (Store s = Store.open(file, config()); Snapshot snap = s.snapshot()) {
            assertArrayEquals(value(1, 99), snap.tree("a").get(key(1)));
        }
    }

    @Test
    void refusesAJournalOpenElsewhereAndLeavesItUnchanged() throws IOException {
        Path file = populate(3);
        try (Store open = Store.open(file, config())) {
            byte[] before = Files.readAllBytes(file);
            StoreException e = assertThrows(StoreException.class, () -> StoreCompactor.compact(file, config()));
            assertTrue(e.getMessage().contains(file.getFileName().toString()), e.getMessage());
            assertArrayEquals(before, Files.readAllBytes(file));
        }
    }

    @Test
    void refusesAMissingJournal() {
        StoreException e = assertThrows(StoreException.class,
                () -> StoreCompactor.compact(dir.resolve("none.jnl"), config()));
        assertTrue(e.getMessage().contains("none.jnl"), e.getMessage());
    }

    @Test
    void aDamagedRecordStopsTheCopyBeforeTheSwitch() throws IOException {
        Path file = populate(3);
        long size = Files.size(file);
        // damage the data area well past the header and root blocks; whichever record it hits is
        // either live (the copy reads it and must fail on its checksum) or free (then the copy succeeds)
        byte[] before = Files.readAllBytes(file);
        boolean failed = false;
        for (long at = size / 3; at < size && !failed; at += size / 7) {
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] { 0x5A, 0x5A, 0x5A, 0x5A }), at);
            }
            byte[] damaged = Files.readAllBytes(file);
            try {
                StoreCompactor.compact(file, config());
                // succeeded: the damage was in free space; the content must still be the original's
                Files.write(file, before);
            } catch (StoreException e) {
                failed = true;
                assertArrayEquals(damaged, Files.readAllBytes(file), "a failed compaction changed the journal");
                assertFalse(Files.exists(dir.resolve("s.jnl" + StoreCompactor.SUFFIX)));
            }
        }
        assertTrue(failed, "no damage hit a live record");
    }

    @Test
    void aStaleCopyOfAnInterruptedRunIsReplaced() throws IOException {
        Path file = populate(3);
        long hash = contentHash(file);
        Files.write(dir.resolve("s.jnl" + StoreCompactor.SUFFIX), new byte[] { 1, 2, 3 });
        StoreCompactor.compact(file, config());
        assertEquals(hash, contentHash(file));
    }

    /** Kills a compacting child JVM at random moments: the journal always opens with the same data. */
    @Test
    void killedCompactionsLeaveTheSameData() throws Exception {
        Path file = populate(20);
        long hash = contentHash(file);
        SplittableRandom rnd = new SplittableRandom(11);
        int killed = 0;
        for (int round = 0; round < 8; round++) {
            Process p = ChildProcess.start(CompactChild.class, file.toString());
            long delay = rnd.nextLong(50, 900);
            if (!p.waitFor(delay, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor();
                killed++;
            }
            assertEquals(hash, contentHash(file), "after round " + round + " (killed after " + delay + " ms)");
            try (Store s = Store.open(file, config())) {
                s.verify();
            }
        }
        LoggerFactory.getLogger(StoreCompactorTest.class).info("{} of 8 compacting children killed", killed);
    }
}
