package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCheckpoint;
import dev.basalt.store.btree.BTreeStats;
import dev.basalt.store.io.LongArray;
import dev.basalt.store.journal.CommitPoint;

import java.util.Map;
import java.util.TreeMap;

/**
 * The full verify pass: reads every record reachable from the newest commit point (so every
 * checksum is checked), checks each B+tree's invariants and counts, reads every retained commit
 * record, and audits the allocator against what it found.
 *
 * <p>Runs on the thread that called {@link Store#verify}, which holds the store's write permit for
 * the whole pass, so no transaction changes the journal meanwhile; one pass per instance.
 */
final class StoreVerifier {
    /** What a verify pass checked. */
    public record Report(long commitCounter, Map<String, BTreeStats> trees, int retainedCommits, long bytesAccounted) {
    }

    private final Store store;

    StoreVerifier(Store store) {
        this.store = store;
    }

    Report verify(Store.CommitState state) {
        LongArray reachable = new LongArray();
        Map<String, BTreeStats> stats = new TreeMap<>();
        int retained = 0;
        if (state.point().record() != 0) {
            reachable.add(state.point().record());
            CommitRecord record = state.record();
            for (Map.Entry<String, BTreeCheckpoint> e : record.trees().entrySet()) {
                stats.put(e.getKey(), verifyTree(e.getValue(), e.getKey(), reachable));
            }
            if (!record.commitIndex().isEmpty()) {
                BTree idx = BTree.openReadOnly(store.journal(), record.commitIndex(),
                        store.config().treeConfig(Store.COMMIT_INDEX), store.cache());
                stats.put(Store.COMMIT_INDEX, idx.verify());
                idx.forEachRecord(reachable::add);
                {
            dev.basalt.store.btree.BTreeCursor c = idx.cursor(null, null);
                    while (c.next()) {
                        CommitPoint p = CommitIndexEntry.point(c.key(), c.value());
                        CommitRecord.decode(store.journal().read(p.record(), p.recordCrc()), p.record());
                        reachable.add(p.record());
                        retained++;
                    }
                }
            }
        }
        long bytes = store.journal().auditSpace(reachable);
        return new Report(state.point().counter(), stats, retained, bytes);
    }

    private BTreeStats verifyTree(BTreeCheckpoint cp, String name, LongArray reachable) {
        BTree t = BTree.openReadOnly(store.journal(), cp, store.config().treeConfig(name), store.cache());
        BTreeStats s = t.verify();
        t.forEachRecord(reachable::add);
        return s;
    }
}
