package dev.basalt.store.journal;

import dev.basalt.store.io.Checksums;
import dev.basalt.store.io.LongArray;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.zip.GZIPInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The paged region table of the allocator state (docs/FORMAT.md 1.7): a commit rewrites only the
 * pages it changed, what is stored always equals the allocator it was written from (across page
 * span changes), a damaged page is detected, and a journal of state version 1 opens and is written
 * in version 2 from its next commit on.
 */
class RegionTableTest {
    @TempDir
    Path dir;

    /** Payload of live record {@code id}: {@code len} bytes derived from the id. */
    private static ByteBuffer payload(long id, int len) {
        ByteBuffer b = ByteBuffer.allocate(len);
        for (int i = 0; i < len; i++) {
            b.put((byte) (id + i / 64));
        }
        return b.flip();
    }

    /** The live records a workload keeps: address, CRC, id and length, as its commit record lists them. */
    private static final class Live {
        final List<long[]> records = new ArrayList<>();
        long nextId = 1_000_000;

        void write(Journal j, int len) {
            long id = nextId++;
            records.add(new long[]{j.write(payload(id, len)), Checksums.crc32c(payload(id, len)), id, len});
        }

        void freeOne(Journal j, Random rnd) {
            j.free(records.remove(rnd.nextInt(records.size()))[0]);
        }

        /** Writes the commit record listing every live record and commits it; frees {@code previous} first. */
        long commit(Journal j, long previous, long time) {
            if (previous != RecordStore.NULL) {
                j.free(previous);
            }
            ByteBuffer rec = ByteBuffer.allocate(4 + 32 * records.size());
            rec.putInt(records.size());
            for (long[] v : records) {
                rec.putLong(v[0]).putLong(v[1]).putLong(v[2]).putLong(v[3]);
            }
            rec.flip();
            long a = j.write(rec);
            j.commit(a, Checksums.crc32c(rec.duplicate()), time);
            return a;
        }

        /** Reads the commit record of {@code j}'s last commit back into this list and checks every record. */
        static Live read(Journal j) {
            Live live = new Live();
            CommitPoint cp = j.lastCommit();
            ByteBuffer rec = j.read(cp.record(), cp.recordCrc());
            int n = rec.getInt();
            for (int i = 0; i < n; i++) {
                long[] v = {rec.getLong(), rec.getLong(), rec.getLong(), rec.getLong()};
                assertEquals(payload(v[2], (int) v[3]), j.read(v[0], (int) v[1]), "record " + v[2]);
                live.records.add(v);
                live.nextId = Math.max(live.nextId, v[2] + 1);
            }
            return live;
        }

        /** Audits the journal's space against these records and the commit record. */
        void audit(Journal j) {
            LongArray reachable = new LongArray();
            records.forEach(v -> reachable.add(v[0]));
            reachable.add(j.lastCommit().record());
            j.auditSpace(reachable);
        }
    }

    /** A description of everything the allocator holds: regions with their bitmaps, and free extents. */
    private static String allocatorState(Journal j) {
        SlotAllocator a = j.allocator();
        StringBuilder s = new StringBuilder("end ").append(a.fileEnd).append('\n');
        for (Region r : a.regions.values()) {
            s.append("region ").append(r.offset).append(' ').append(r.classIndex).append(' ').append(r.slotCount)
                    .append(' ').append(r.used).append('\n');
        }
        a.freeExtents.forEach((off, len) -> s.append("extent ").append(off).append(' ').append(len).append('\n'));
        return s.toString();
    }

    private static int randomLength(Random rnd) {
        return rnd.nextInt(25) == 0 ? 9000 + rnd.nextInt(40_000) : 10 + rnd.nextInt(rnd.nextBoolean() ? 300 : 7000);
    }

    @Test
    void smallCommitRewritesOnlyTheTablePagesItChanged() {
        Random rnd = new Random(11);
        try (Journal j = Journal.open(dir.resolve("j"), JournalConfig.defaults())) {
            Live live = new Live();
            long rec = RecordStore.NULL;
            for (int c = 0; c < 20; c++) {
                for (int i = 0; i < 400; i++) {
                    live.write(j, randomLength(rnd));
                }
                for (int i = 0; i < 150; i++) {
                    live.freeOne(j, rnd);
                }
                rec = live.commit(j, rec, c);
            }
            Map<Long, RegionTable.PageRef> before = new HashMap<>(j.allocator().table.pages);
            assertTrue(before.size() >= 50, "pages: " + before.size());
            assertEquals(before.size(), j.stats().tablePages());
            for (int c = 0; c < 8; c++) {
                live.write(j, 100);
                rec = live.commit(j, rec, 100 + c);
                int rewritten = 0;
                for (Map.Entry<Long, RegionTable.PageRef> e : j.allocator().table.pages.entrySet()) {
                    if (!e.getValue().equals(before.get(e.getKey()))) {
                        rewritten++;
                    }
                }
                // the first commits also release what the large ones freed, in regions all over the file;
                // then a commit changes the regions of its own few records and metadata, and of the
                // metadata the commit before it replaced (about 15 pages here)
                assertTrue(c < 2 || rewritten <= before.size() / 4, "a commit of one record rewrote " + rewritten + " of " + before.size() + " pages");
                before = new HashMap<>(j.allocator().table.pages);
            }
            live.audit(j);
        }
    }

    @Test
    void storedTableEqualsTheAllocatorAfterRandomWorkAndSpanChanges() {
        Random rnd = new Random(5);
        Path p = dir.resolve("j");
        Live live = new Live();
        long rec = RecordStore.NULL;
        int shifts = 0;
        for (int round = 0; round < 8; round++) {
            String expected;
            try (Journal j = Journal.open(p, JournalConfig.defaults())) {
                if (round > 0) {
                    live = Live.read(j);
                    rec = j.lastCommit().record();
                    live.audit(j);
                }
                // odd rounds use few, large pages, so the span changes at the first commit and as the file grows
                j.allocator().table.maxPages = round % 2 == 1 ? 4 : RegionTable.MAX_PAGES;
                int shiftBefore = j.allocator().table.shift;
                for (int c = 0; c < 6; c++) {
                    int writes = round < 4 ? 300 : 60;
                    for (int i = 0; i < writes; i++) {
                        live.write(j, randomLength(rnd));
                    }
                    int frees = round < 4 ? 100 : 120;
                    for (int i = 0; i < frees && !live.records.isEmpty(); i++) {
                        live.freeOne(j, rnd);
                    }
                    rec = live.commit(j, rec, round * 100L + c);
                    if (j.allocator().table.shift != shiftBefore) {
                        shifts++;
                        shiftBefore = j.allocator().table.shift;
                    }
                }
                live.audit(j);
                expected = allocatorState(j);
            }
            try (Journal j = Journal.open(p, JournalConfig.defaults())) {
                assertEquals(expected, allocatorState(j), "round " + round);
            }
        }
        assertTrue(shifts >= 2, "the page span changed " + shifts + " times");
    }

    @Test
    void damagedTablePageIsDetected() throws Exception {
        Path p = dir.resolve("j");
        Random rnd = new Random(3);
        long newPage;
        long sharedPage;
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            Live live = new Live();
            long rec = RecordStore.NULL;
            for (int c = 0; c < 6; c++) {
                for (int i = 0; i < 300; i++) {
                    live.write(j, randomLength(rnd));
                }
                rec = live.commit(j, rec, c);
            }
            Map<Long, RegionTable.PageRef> before = new HashMap<>(j.allocator().table.pages);
            live.write(j, 100);
            live.commit(j, rec, 10);
            newPage = RecordStore.NULL;
            sharedPage = RecordStore.NULL;
            for (Map.Entry<Long, RegionTable.PageRef> e : j.allocator().table.pages.entrySet()) {
                if (e.getValue().equals(before.get(e.getKey()))) {
                    sharedPage = e.getValue().address();
                } else {
                    newPage = e.getValue().address();
                }
            }
            assertTrue(newPage != RecordStore.NULL && sharedPage != RecordStore.NULL);
        }
        Path copy = dir.resolve("copy");
        Files.copy(p, copy);
        flipPayloadByte(p, newPage);
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            assertEquals(6, j.lastCommit().counter(), "a damaged page of the last commit falls back to the one before");
        }
        flipPayloadByte(copy, sharedPage);
        StoreException e = assertThrows(StoreException.class, () -> Journal.open(copy, JournalConfig.defaults()).close());
        assertTrue(e.getMessage().contains(Long.toString(sharedPage)) || e.getMessage().contains("checksum"), e.getMessage());
    }

    private static void flipPayloadByte(Path file, long address) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
            long at = Addresses.offset(address) + RecordFraming.RECORD_HEADER + 2;
            f.seek(at);
            int b = f.read();
            f.seek(at);
            f.write(b ^ 0x40);
        }
    }

    @Test
    void journalOfStateVersionOneOpensAndIsWrittenInVersionTwo() throws Exception {
        // written by a Basalt whose allocator state record holds the whole table (version 1):
        // 20 commits of records of 10 B to 21 KB, some freed, the live ones listed in the commit record
        Path p = dir.resolve("v1.jnl");
        try (InputStream in = new GZIPInputStream(getClass().getResourceAsStream("/allocator-v1/journal.jnl.gz"))) {
            Files.copy(in, p);
        }
        assertEquals(AllocatorStateCodec.VERSION_WHOLE_TABLE, stateVersion(p));
        Random rnd = new Random(9);
        String expected;
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            assertEquals(20, j.lastCommit().counter());
            assertEquals(0, j.stats().tablePages());
            Live live = Live.read(j);
            assertEquals(400, live.records.size());
            live.audit(j);
            long rec = j.lastCommit().record();
            for (int c = 0; c < 3; c++) {
                for (int i = 0; i < 50; i++) {
                    live.write(j, randomLength(rnd));
                }
                for (int i = 0; i < 40; i++) {
                    live.freeOne(j, rnd);
                }
                rec = live.commit(j, rec, 100_000 + c);
            }
            assertTrue(j.stats().tablePages() > 1, "pages: " + j.stats().tablePages());
            live.audit(j);
            expected = allocatorState(j);
        }
        assertEquals(AllocatorStateCodec.VERSION, stateVersion(p));
        try (Journal j = Journal.open(p, JournalConfig.defaults())) {
            assertEquals(expected, allocatorState(j));
            Live.read(j).audit(j);
        }
    }

    /** The version byte of the allocator state record the newest valid root block names. */
    private static int stateVersion(Path p) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(p.toFile(), "r")) {
            long best = -1;
            long state = 0;
            for (long off : new long[]{RootBlock.FIRST_OFFSET, RootBlock.FIRST_OFFSET + RootBlock.SIZE}) {
                f.seek(off);
                long counter = f.readLong();
                f.seek(off + 28);
                long address = f.readLong();
                if (counter > best) {
                    best = counter;
                    state = address;
                }
            }
            f.seek(Addresses.offset(state) + RecordFraming.RECORD_HEADER);
            return f.read();
        }
    }
}
