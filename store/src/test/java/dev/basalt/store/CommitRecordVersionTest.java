package dev.basalt.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.io.Checksums;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.CorruptRecordException;
import dev.basalt.store.journal.Journal;

/**
 * Commit record versions (docs/FORMAT.md section 2): this Basalt writes version 2, still opens a
 * store whose newest commit record is of version 1, and refuses one of a version it does not
 * know with a message naming the version found and the versions it reads.
 */
class CommitRecordVersionTest {
    private static final byte[] KEY = "k".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VALUE = "v".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("basalt.jnl");
    }

    private static StoreConfig config() {
        return StoreConfig.defaults().withJournal(StoreConfig.defaults().journal().withDurable(false));
    }

    /** A store with one tree entry and one property, committed by this Basalt. */
    private void createStore() {
        try (Store store = Store.open(file(), config()); WriteTransaction tx = store.begin()) {
            tx.tree("t").put(KEY, VALUE);
            tx.setProperty("p", VALUE);
            tx.commit();
        }
    }

    /** The version byte of the newest commit record. */
    private int newestVersion() {
        try (Store store = Store.open(file(), config())) {
            CommitPoint p = store.journal().lastCommit();
            return store.journal().read(p.record(), p.recordCrc()).get(0) & 0xff;
        }
    }

    /** Commits the newest commit record again, with the version byte {@code version}. */
    private void recommitAs(int version) {
        try (Store store = Store.open(file(), config())) {
            Journal journal = store.journal();
            CommitPoint p = journal.lastCommit();
            CommitRecord r = CommitRecord.decode(journal.read(p.record(), p.recordCrc()), p.record());
            ByteBuffer encoded = new CommitRecord(r.counter() + 1, r.timeMillis() + 1, r.commitIndex(), r.trees(),
                    r.properties()).encode(version);
            long address = journal.write(encoded.duplicate());
            journal.commit(address, Checksums.crc32c(encoded), r.timeMillis() + 1);
        }
    }

    @Test
    void commitsAreWrittenInTheCurrentVersion() {
        createStore();
        assertEquals(2, CommitRecord.VERSION);
        assertEquals(CommitRecord.VERSION, newestVersion());
    }

    @Test
    void aStoreOfVersionOneOpensAndBecomesVersionTwoWithItsNextCommit() {
        createStore();
        recommitAs(1);
        assertEquals(1, newestVersion());
        try (Store store = Store.open(file(), config())) {
            try (Snapshot s = store.snapshot()) {
                assertArrayEquals(VALUE, s.tree("t").get(KEY));
                assertArrayEquals(VALUE, s.property("p"));
            }
            try (WriteTransaction tx = store.begin()) {
                tx.setProperty("q", VALUE);
                tx.commit();
            }
        }
        assertEquals(2, newestVersion());
    }

    @Test
    void anUnknownVersionIsRefusedNamingIt() {
        createStore();
        recommitAs(3);
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> Store.open(file(), config()).close());
        assertTrue(e.getMessage().contains("commit record version 3"), e.getMessage());
        assertTrue(e.getMessage().contains("reads versions 1 to 2"), e.getMessage());
        assertTrue(e.getMessage().contains("later Basalt"), e.getMessage());
    }

    @Test
    void versionZeroIsRefusedAsUnknown() {
        createStore();
        recommitAs(0);
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> Store.open(file(), config()).close());
        assertTrue(e.getMessage().contains("commit record version 0"), e.getMessage());
    }
}
