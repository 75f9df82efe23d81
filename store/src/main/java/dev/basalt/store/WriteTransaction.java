package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.StoreException;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The store's one open write transaction: changes to named trees and properties that become
 * visible and durable together at {@link #commit}, or vanish at {@link #rollback} (also what
 * {@link #close} does if the transaction was not committed).
 *
 * <p>Not thread-safe: its own methods one thread at a time. The trees it handed out may be written
 * by different threads at once, each tree by one thread (a bulk load writes its dictionary and its
 * statement indices side by side): records are allocated and freed under the journal's lock, and
 * each tree's pages, ledger and write queue are its own. Every such thread must be done before
 * {@link #commit} or {@link #rollback}.
 */
public final class WriteTransaction implements AutoCloseable {
    private final Store store;
    private final Map<String, BTree> trees = new TreeMap<>();
    private final Map<String, byte[]> properties;
    private boolean ended;

    WriteTransaction(Store store, CommitRecord base) {
        this.store = store;
        this.properties = new HashMap<>(base.properties());
        for (String name : base.trees().keySet()) {
            trees.put(name, null);
        }
    }

    /** The tree {@code name} for reading and writing, created empty if it does not exist. */
    public BTree tree(String name) {
        ensureOpen();
        if (CommitRecord.isReservedName(name)) {
            throw new IllegalArgumentException("'" + name + "' is not a valid tree name (empty, too long or starting with __)");
        }
        BTree t = trees.get(name);
        if (t == null) {
            t = store.writableTree(name, true);
            trees.put(name, t);
        }
        return t;
    }

    /**
     * Fills the tree {@code name} bottom-up from entries in strictly ascending key order, into
     * full pages ({@link BTree#bulkLoad}); much faster than putting them one by one. The tree
     * must be empty as of the last commit and not written in this transaction (it is created if
     * absent). The returned tree stays writable in this transaction; a rollback discards the
     * built pages with everything else.
     *
     * @throws IllegalStateException    if the tree already has entries
     * @throws IllegalArgumentException on unsorted or duplicate input (nothing is left behind)
     */
    public BTree bulkBuild(String name, Iterator<? extends Map.Entry<byte[], byte[]>> sortedEntries) {
        BTree t = tree(name);
        t.bulkLoad(sortedEntries);
        return t;
    }

    public boolean hasTree(String name) {
        return trees.containsKey(name);
    }

    /** Removes a tree and frees its space (deferred, as for every committed record). */
    public void dropTree(String name) {
        ensureOpen();
        if (trees.containsKey(name)) {
            BTree t = tree(name);
            t.clear();
            // a tree frees the records of its last checkpoint at its next checkpoint; this is it
            t.checkpoint();
            trees.remove(name);
            store.forgetTree(name);
        }
    }

    public byte[] property(String name) {
        byte[] v = properties.get(name);
        return v == null ? null : v.clone();
    }

    public void setProperty(String name, byte[] value) {
        ensureOpen();
        if (value == null) {
            properties.remove(name);
        } else {
            properties.put(name, value.clone());
        }
    }

    /** Makes every change durable as the next commit point; on failure the store is as before. */
    public CommitPoint commit() {
        ensureOpen();
        boolean failed = true;
        try {
            Map<String, BTree> all = new TreeMap<>();
            for (String name : trees.keySet()) {
                all.put(name, tree(name));
            }
            CommitPoint p = store.commit(all, properties);
            failed = false;
            return p;
        } finally {
            ended = true;
            store.endTransaction(failed);
        }
    }

    public void rollback() {
        if (!ended) {
            ended = true;
            store.endTransaction(true);
        }
    }

    @Override
    public void close() {
        rollback();
    }

    private void ensureOpen() {
        if (ended) {
            throw new StoreException("the write transaction has already ended");
        }
    }
}
