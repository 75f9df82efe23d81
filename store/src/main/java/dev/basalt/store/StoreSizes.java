package dev.basalt.store;

import java.util.Map;
import java.util.TreeMap;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeStats;
import dev.basalt.store.journal.Addresses;
import dev.basalt.store.journal.JournalStats;

/**
 * Where a store's bytes go: for each tree of the newest commit point, its pages (leaves and
 * internal pages apart), large values, the payload bytes of its records and the bytes of the
 * slots and extents they occupy (payload + 8 bytes of framing, rounded up to the allocator's
 * size class); what is left of the file is allocator and commit metadata and free space.
 *
 * <p>{@link #of(Store)} reads every page of every tree (like a verify pass, without the checks)
 * on the calling thread from one snapshot, so writers may go on meanwhile; the result is immutable.
 */
public record StoreSizes(JournalStats journal, Map<String, Tree> trees) {
    /** One tree's figures; {@code slotBytes} is what its records occupy in the file. Immutable. */
    public record Tree(BTreeStats stats, long records, long slotBytes) {
        /** Payload bytes of internal pages and large values (what is not a leaf). */
        public long otherRecordBytes() {
            return stats.recordBytes() - stats.leafBytes();
        }
    }

    public static StoreSizes of(Store store) {
        Map<String, Tree> trees = new TreeMap<>();
        try (Snapshot s = store.snapshot()) {
            for (String name : s.treeNames()) {
                BTree tree = s.tree(name);
                BTreeStats stats = tree.verify();
                long[] records = new long[2];
                tree.forEachRecord(address -> {
                    records[0]++;
                    records[1] += Addresses.span(address);
                });
                trees.put(name, new Tree(stats, records[0], records[1]));
            }
        }
        return new StoreSizes(store.stats().journal(), trees);
    }

    /** Bytes of the file not occupied by any tree's records. */
    public long otherBytes() {
        return journal.fileBytes() - trees.values().stream().mapToLong(Tree::slotBytes).sum();
    }
}
