package dev.basalt.store.journal;

import dev.basalt.store.io.Checksums;
import dev.basalt.store.io.LongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class JournalTest {
    @TempDir
    Path dir;

    private static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String text(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.get(a);
        return new String(a, StandardCharsets.UTF_8);
    }

    @Test
    void recordsSurviveReopenAndCommitRecordIsFound() {
        Path p = dir.resolve("j");
        long a;
        int crc;
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            a = j.write(bytes("hello"));
            crc = Checksums.crc32c(bytes("hello"));
            CommitPoint cp = j.commit(a, crc, 1000);
            assertEquals(1, cp.counter());
        }
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            CommitPoint cp = j.lastCommit();
            assertEquals(1, cp.counter());
            assertEquals("hello", text(j.read(cp.record(), cp.recordCrc())));
        }
    }

    @Test
    void wrongChecksumIsAnErrorNamingTheAddress() {
        try (Journal j = Journal.open(dir.resolve("j"), JournalConfig.defaults())) {
            long a = j.write(bytes("x"));
            CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> j.read(a, 12345));
            assertEquals(a, e.address());
            assertTrue(e.getMessage().contains("checksum"), e.getMessage());
        }
    }

    @Test
    void uncommittedWritesAreGoneAfterAbortAndReopen() {
        Path p = dir.resolve("j");
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            long a = j.write(bytes("one"));
            j.commit(a, Checksums.crc32c(bytes("one")), 1);
            j.write(bytes("two"));
            j.abort();
            assertEquals(1, j.lastCommit().counter());
        }
    }

    @Test
    void spaceIsRecycledWithRetentionZeroAndHeldByPins() {
        Path p = dir.resolve("j");
        Random rnd = new Random(7);
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            List<Long> live = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                live.add(j.write(ByteBuffer.wrap(new byte[1000])));
            }
            j.commit(live.get(0), Checksums.crc32c(ByteBuffer.wrap(new byte[1000])), 1);
            long size1 = j.stats().bytesInUse();
            ReadPin pin = null;
            for (int c = 0; c < 50; c++) {
                if (c == 10) {
                    pin = j.pin(j.lastCommit());
                }
                for (int i = 0; i < live.size(); i++) {
                    j.free(live.get(i));
                    live.set(i, j.write(ByteBuffer.wrap(new byte[900 + rnd.nextInt(100)])));
                }
                j.commit(live.get(0), 0, 2 + c);
            }
            JournalStats withPin = j.stats();
            assertEquals(1, withPin.openReaders());
            assertTrue(withPin.bytesPinned() > 0);
            pin.close();
            j.commit(live.get(0), 0, 100);
            JournalStats after = j.stats();
            assertEquals(0, after.openReaders());
            assertEquals(0, after.bytesPinned());
            assertTrue(after.bytesInUse() < 3 * size1, after + " vs " + size1);
            LongArray reach = new LongArray();
            live.forEach(reach::add);
            j.auditSpace(reach);
        }
    }

    @Test
    void oldCommitPointIsRefusedOnceRecycledButKeptWithRetention() {
        try (Journal j = Journal.open(dir.resolve("a"), JournalConfig.defaults())) {
            long a = j.write(bytes("v1"));
            CommitPoint c1 = j.commit(a, 0, 1);
            j.free(a);
            j.commit(j.write(bytes("v2")), 0, 2);
            assertThrows(StoreException.class, () -> j.pin(c1));
        }
        JournalConfig keep = JournalConfig.defaults().withHistoryRetention(Duration.ofHours(1));
        try (Journal j = Journal.open(dir.resolve("b"), keep)) {
            long a = j.write(bytes("v1"));
            CommitPoint c1 = j.commit(a, Checksums.crc32c(bytes("v1")), System.currentTimeMillis());
            j.free(a);
            j.commit(j.write(bytes("v2")), 0, System.currentTimeMillis());
            try (ReadPin pin = j.pin(c1)) {
                assertEquals("v1", text(j.read(pin.commit().record(), pin.commit().recordCrc())));
            }
        }
    }

    @Test
    void tornLatestRootBlockFallsBackToThePreviousCommit() throws Exception {
        Path p = dir.resolve("j");
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            j.commit(j.write(bytes("a")), Checksums.crc32c(bytes("a")), 1);
            j.commit(j.write(bytes("b")), Checksums.crc32c(bytes("b")), 2);
        }
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "rw")) {
            f.seek(RootBlock.offsetOf(2) + 20);
            f.write(0x5a);
        }
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            assertEquals(1, j.lastCommit().counter());
            assertEquals("a", text(j.read(j.lastCommit().record(), j.lastCommit().recordCrc())));
            j.commit(j.write(bytes("c")), Checksums.crc32c(bytes("c")), 3);
        }
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            assertEquals(2, j.lastCommit().counter());
            assertEquals("c", text(j.read(j.lastCommit().record(), j.lastCommit().recordCrc())));
        }
    }

    @Test
    void secondOpenIsRefusedWhileTheFirstHoldsTheLock() {
        Path p = dir.resolve("j");
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            StoreException e = assertThrows(JournalLockedException.class, () -> Journal.open(p, JournalConfig.defaults()));
            assertTrue(e.getMessage().contains("already open"), e.getMessage());
        }
    }

    @Test
    void foreignFilesAndUnknownVersionsAreRefusedClearly() throws Exception {
        Path p = dir.resolve("foreign");
        java.nio.file.Files.writeString(p, "this is not a journal at all, just text".repeat(200));
        StoreException e = assertThrows(StoreException.class, () -> Journal.open(p, JournalConfig.defaults()));
        assertTrue(e.getMessage().contains("not a Basalt journal"), e.getMessage());
        Path q = dir.resolve("j");
        Journal.open(q, JournalConfig.defaults()).close();
        try (RandomAccessFile f = new RandomAccessFile(q.toFile(), "rw")) {
            f.seek(8);
            f.writeInt(99);
        }
        e = assertThrows(StoreException.class, () -> Journal.open(q, JournalConfig.defaults()));
        assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    }

    @Test
    void wormKeepsEveryCommitPointReadable() {
        JournalConfig worm = JournalConfig.defaults().withMode(JournalMode.WORM);
        Path p = dir.resolve("w");
        List<CommitPoint> points = new ArrayList<>();
        try (Journal j = Journal.open(p, worm)) {
            long prev = 0;
            for (int i = 0; i < 20; i++) {
                if (prev != 0) {
                    j.free(prev);
                }
                ByteBuffer v = bytes("v" + i);
                prev = j.write(v);
                points.add(j.commit(prev, Checksums.crc32c(v), i));
            }
        }
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            assertEquals(JournalMode.WORM, j.mode());
            for (int i = 0; i < points.size(); i++) {
                try (ReadPin pin = j.pin(points.get(i))) {
                    assertEquals("v" + i, text(j.read(pin.commit().record(), pin.commit().recordCrc())));
                }
            }
        }
    }

    @Test
    void largeRecordsUseExtentsAndAreReused() {
        try (Journal j = Journal.open(dir.resolve("j"), JournalConfig.defaults())) {
            byte[] big = new byte[100_000];
            new Random(1).nextBytes(big);
            long a = j.write(ByteBuffer.wrap(big));
            assertTrue(Addresses.span(a) >= 100_008);
            assertEquals(ByteBuffer.wrap(big), j.read(a, Checksums.crc32c(big, 0, big.length)));
            j.commit(a, 0, 1);
            long fileBytes = 0;
            for (int i = 0; i < 20; i++) {
                j.free(a);
                a = j.write(ByteBuffer.wrap(big));
                j.commit(a, 0, 2 + i);
                if (i == 4) {
                    fileBytes = j.stats().fileBytes();
                }
            }
            assertEquals(fileBytes, j.stats().fileBytes(), "two extents take turns; the file stops growing");
            LongArray reach = new LongArray();
            reach.add(a);
            j.auditSpace(reach);
        }
    }
}
