package dev.basalt.store.btree;

import dev.basalt.store.journal.CorruptRecordException;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A corrupt, stale or misdirected record is an error naming its address, never a wrong answer. */
class BTreeCorruptionTest {
    private static final BTreeConfig CONFIG = BTreeConfig.builder().leafMaxEntries(8).internalMaxEntries(4)
            .inlineValueThreshold(16).build();

    private static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    private static BTreeCheckpoint build(TestStores.CorruptingStore store) {
        BTree tree = BTree.create(store, CONFIG, new PageCache(1 << 20));
        for (int i = 0; i < 500; i++) {
            tree.put(key(i), i % 50 == 0 ? new byte[100] : new byte[]{(byte) i});
        }
        return tree.checkpoint();
    }

    @Test
    void everyCorruptRecordIsReportedWithItsAddress() {
        TestStores.CorruptingStore store = new TestStores.CorruptingStore();
        BTreeCheckpoint cp = build(store);
        List<Long> records = new ArrayList<>();
        BTree.openReadOnly(store, cp, CONFIG, null).forEachRecord(records::add);
        assertTrue(records.size() > 20);
        for (long address : records) {
            store.corrupt.clear();
            store.corrupt.add(address);
            BTree reader = BTree.openReadOnly(store, cp, CONFIG, new PageCache(1 << 20));
            CorruptRecordException e = assertThrows(CorruptRecordException.class, reader::verify);
            assertEquals(address, e.address());
            assertTrue(e.getMessage().contains(String.format("0x%016x", address)), e.getMessage());
            // a lookup of every key either succeeds with the right value or fails on that record
            int failures = 0;
            for (int i = 0; i < 500; i++) {
                try {
                    byte[] v = reader.get(key(i));
                    assertEquals(i % 50 == 0 ? 100 : 1, v.length);
                } catch (CorruptRecordException expected) {
                    assertEquals(address, expected.address());
                    failures++;
                }
            }
            assertTrue(failures > 0, "some lookup reads record " + address);
        }
    }

    @Test
    void aCheckpointWithTheWrongChecksumIsRefusedOnRead() {
        TestStores.CorruptingStore store = new TestStores.CorruptingStore();
        BTreeCheckpoint cp = build(store);
        BTreeCheckpoint stale = new BTreeCheckpoint(cp.rootAddress(), cp.rootChecksum() ^ 1, cp.entryCount(), cp.height());
        BTree reader = BTree.openReadOnly(store, stale, CONFIG, new PageCache(1 << 20));
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> reader.get(key(1)));
        assertEquals(cp.rootAddress(), e.address());
    }

    @Test
    void aRecordThatIsNotAPageIsRefused() {
        TestStores.CorruptingStore store = new TestStores.CorruptingStore();
        byte[] payload = {0x7f, 1, 2, 3};
        long address = store.write(ByteBuffer.wrap(payload));
        BTreeCheckpoint bogus = new BTreeCheckpoint(address, dev.basalt.store.io.Checksums.crc32c(payload, 0, 4), 1, 1);
        BTree reader = BTree.openReadOnly(store, bogus, CONFIG, null);
        CorruptRecordException e = assertThrows(CorruptRecordException.class, () -> reader.get(key(1)));
        assertEquals(address, e.address());
        assertTrue(e.getMessage().contains("not a B+tree page"), e.getMessage());
    }
}
