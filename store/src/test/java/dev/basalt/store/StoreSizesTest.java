package dev.basalt.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.btree.BTree;

/**
 * {@link StoreSizes} accounts for every tree's records: each occupies at least its payload and
 * framing in slots, the trees' slots and the rest add up to the file, and a tree's entries, pages
 * and bytes are those its verify pass finds.
 */
class StoreSizesTest {
    @TempDir
    Path dir;

    @Test
    void everyTreesRecordsAndTheRestAddUpToTheFile() {
        try (Store store = Store.open(dir.resolve("basalt.jnl"), StoreConfig.defaults()
                .withJournal(StoreConfig.defaults().journal().withDurable(false)))) {
            try (WriteTransaction tx = store.begin()) {
                BTree small = tx.tree("small");
                BTree large = tx.tree("large");
                for (int i = 0; i < 20_000; i++) {
                    small.put(ByteBuffer.allocate(8).putLong(i * 7919L).array(), new byte[] { (byte) i });
                    if (i % 10 == 0) {
                        large.put(ByteBuffer.allocate(4).putInt(i).array(), new byte[300 + i % 700]);
                    }
                }
                tx.commit();
            }
            StoreSizes sizes = StoreSizes.of(store);
            assertEquals(java.util.Set.of("small", "large"), sizes.trees().keySet());
            long slots = 0;
            for (StoreSizes.Tree t : sizes.trees().values()) {
                assertTrue(t.slotBytes() >= t.stats().recordBytes() + 8 * t.records(), t.toString());
                assertTrue(t.stats().leafPages() > 1 && t.stats().pages() > t.stats().leafPages(), t.toString());
                assertTrue(t.otherRecordBytes() > 0, "internal pages: " + t);
                slots += t.slotBytes();
            }
            assertEquals(20_000, sizes.trees().get("small").stats().entries());
            assertEquals(2_000, sizes.trees().get("large").stats().entries());
            assertTrue(sizes.trees().get("large").stats().largeValues() > 0, "values over 256 bytes are records of their own");
            assertEquals(sizes.journal().fileBytes(), slots + sizes.otherBytes());
            assertTrue(sizes.otherBytes() > 0, "allocator state and commit record");
        }
    }
}
