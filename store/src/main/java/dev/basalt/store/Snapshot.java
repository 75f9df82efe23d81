package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCheckpoint;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.ReadPin;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A read-only view of one commit point. It pins that commit point, so close it when done. Trees of
 * a snapshot may be read by several threads at once; they never change.
 */
public final class Snapshot implements AutoCloseable {
    private final Store store;
    private final ReadPin pin;
    private final CommitRecord record;
    private final Map<String, BTree> opened = new HashMap<>();

    Snapshot(Store store, ReadPin pin, CommitRecord record) {
        this.store = store;
        this.pin = pin;
        this.record = record;
    }

    public CommitPoint commit() {
        return pin.commit();
    }

    public Set<String> treeNames() {
        return record.trees().keySet();
    }

    /** The tree {@code name} as of this commit point, or null if it did not exist. */
    public synchronized BTree tree(String name) {
        BTree t = opened.get(name);
        if (t == null) {
            BTreeCheckpoint cp = record.trees().get(name);
            if (cp == null) {
                return null;
            }
            t = BTree.openReadOnly(store.journal(), cp, store.config().treeConfig(name), store.cache());
            opened.put(name, t);
        }
        return t;
    }

    public Set<String> propertyNames() {
        return record.properties().keySet();
    }

    public byte[] property(String name) {
        byte[] v = record.properties().get(name);
        return v == null ? null : v.clone();
    }

    CommitRecord record() {
        return record;
    }

    BTree commitIndex() {
        BTreeCheckpoint cp = record.commitIndex();
        return cp.isEmpty() ? null
                : BTree.openReadOnly(store.journal(), cp, store.config().treeConfig(Store.COMMIT_INDEX), store.cache());
    }

    CommitPoint findCommit(long counter) {
        BTree idx = commitIndex();
        byte[] key = CommitIndexEntry.key(counter);
        byte[] v = idx == null ? null : idx.get(key);
        return v == null ? null : CommitIndexEntry.point(key, v);
    }

    long findCommitAsOf(long timeMillis) {
        BTree idx = commitIndex();
        if (idx == null) {
            return -1;
        }
        BTreeCursor c = idx.descendingCursor(null, null);
        while (c.next()) {
            CommitPoint p = CommitIndexEntry.point(c.key(), c.value());
            if (p.timeMillis() <= timeMillis) {
                return p.counter();
            }
        }
        return -1;
    }

    List<CommitPoint> historicalCommits() {
        List<CommitPoint> out = new ArrayList<>();
        BTree idx = commitIndex();
        if (idx != null) {
            long oldest = store.journal().oldestReadableCommit();
            BTreeCursor c = idx.cursor(null, null);
            while (c.next()) {
                CommitPoint p = CommitIndexEntry.point(c.key(), c.value());
                if (p.counter() >= oldest) {
                    out.add(p);
                }
            }
        }
        return out;
    }

    @Override
    public void close() {
        pin.close();
    }
}
