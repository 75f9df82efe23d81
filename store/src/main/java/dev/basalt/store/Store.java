package dev.basalt.store;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCheckpoint;
import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.btree.PageCache;
import dev.basalt.store.btree.PagePrewarm;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.Journal;
import dev.basalt.store.journal.JournalStats;
import dev.basalt.store.journal.ReadPin;
import dev.basalt.store.journal.StoreException;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A store: one journal holding named copy-on-write B+trees and properties that commit together.
 * One {@link WriteTransaction} at a time changes it; any number of {@link Snapshot}s read committed
 * commit points concurrently without blocking the writer, including earlier commit points still
 * inside the history retention (or all of them in WORM mode).
 *
 * <p>The commit-time index is a B+tree of commit counter to (time, commit record) holding every
 * retained commit point before the newest one; the root block points at the newest commit record.
 *
 * <p>Thread-safe: a fair one-permit semaphore admits one write transaction at a time
 * ({@link #begin} waits for it; {@link #verify} and {@link #close} take the permit too), and the
 * newest commit state is published through a volatile field, so any thread may take snapshots while
 * another writes. The writable trees it keeps between transactions are used only by the open
 * transaction, under its thread rules.
 */
public final class Store implements AutoCloseable {
    static final String COMMIT_INDEX = "__commits";

    private final Journal journal;
    private final StoreConfig config;
    private final PageCache cache;
    private final Semaphore writer = new Semaphore(1, true);
    private volatile CommitState latest;
    /** Trees opened for writing, kept across transactions so their caches stay warm; writer-owned. */
    private final Map<String, BTree> writable = new TreeMap<>();
    private BTree commitIndex;

    record CommitState(CommitPoint point, CommitRecord record) {
    }

    private Store(Journal journal, StoreConfig config) {
        this.journal = journal;
        this.config = config;
        this.cache = new PageCache(config.pageCacheBytes());
        this.latest = readState(journal.lastCommit());
    }

    /** Opens the store in {@code journalFile}, creating it if absent. */
    public static Store open(Path journalFile, StoreConfig config) {
        Journal j = Journal.open(journalFile, config.journal());
        try {
            return new Store(j, config);
        } catch (RuntimeException e) {
            j.close();
            throw e;
        }
    }

    private CommitState readState(CommitPoint p) {
        if (p.record() == 0) {
            return new CommitState(p, CommitRecord.EMPTY);
        }
        return new CommitState(p, CommitRecord.decode(journal.read(p.record(), p.recordCrc()), p.record()));
    }

    /** Starts the one write transaction, waiting for the current one to end. */
    public WriteTransaction begin() {
        try {
            writer.acquire();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting for the write transaction of " + journal.path());
        }
        return startTransaction();
    }

    /** Starts the write transaction, or returns null if another one is still open after {@code wait}. */
    public WriteTransaction tryBegin(Duration wait) {
        try {
            if (!writer.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                return null;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting for the write transaction of " + journal.path());
        }
        return startTransaction();
    }

    private WriteTransaction startTransaction() {
        if (!journal.isOpen()) {
            writer.release();
            throw new StoreException("store " + journal.path() + " is closed");
        }
        return new WriteTransaction(this, latest.record());
    }

    // ---- called by WriteTransaction (holding the writer permit) ----

    BTree writableTree(String name, boolean create) {
        BTree t = writable.get(name);
        if (t != null) {
            return t;
        }
        BTreeCheckpoint cp = latest.record().trees().get(name);
        if (cp == null && !create) {
            return null;
        }
        t = cp == null ? BTree.create(journal, config.treeConfig(name), cache)
                : BTree.open(journal, cp, config.treeConfig(name), cache);
        writable.put(name, t);
        return t;
    }

    void forgetTree(String name) {
        writable.remove(name);
    }

    CommitPoint commit(Map<String, BTree> trees, Map<String, byte[]> properties) {
        CommitState prev = latest;
        long counter = prev.point().counter() + 1;
        long time = Math.max(System.currentTimeMillis(), prev.point().timeMillis());
        Map<String, BTreeCheckpoint> checkpoints = new TreeMap<>();
        for (Map.Entry<String, BTree> e : trees.entrySet()) {
            checkpoints.put(e.getKey(), e.getValue().checkpoint());
        }
        BTreeCheckpoint commits = updateCommitIndex(prev);
        CommitRecord record = new CommitRecord(counter, time, commits, checkpoints, properties);
        ByteBuffer encoded = record.encode();
        long address = journal.write(encoded);
        CommitPoint point = journal.commit(address, dev.basalt.store.io.Checksums.crc32c(encoded), time);
        latest = new CommitState(point, record);
        return point;
    }

    /** Adds the commit point being superseded and drops those no longer readable. */
    private BTreeCheckpoint updateCommitIndex(CommitState prev) {
        writableCommitIndex();
        if (prev.point().record() != 0) {
            commitIndex.put(CommitIndexEntry.key(prev.point().counter()), CommitIndexEntry.value(prev.point()));
        }
        long oldest = journal.oldestReadableCommit();
        List<byte[]> gone = new ArrayList<>();
        {
            dev.basalt.store.btree.BTreeCursor c = commitIndex.cursor(null, CommitIndexEntry.key(oldest));
            while (c.next()) {
                gone.add(c.key());
                journal.free(CommitIndexEntry.point(c.key(), c.value()).record());
            }
        }
        for (byte[] k : gone) {
            commitIndex.remove(k);
        }
        return commitIndex.checkpoint();
    }

    /** The commit-time index as the next commit will write it; the caller holds the writer permit. */
    BTree writableCommitIndex() {
        if (commitIndex == null) {
            BTreeCheckpoint cp = latest.record().commitIndex();
            commitIndex = cp.isEmpty() ? BTree.create(journal, config.treeConfig(COMMIT_INDEX), cache)
                    : BTree.open(journal, cp, config.treeConfig(COMMIT_INDEX), cache);
        }
        return commitIndex;
    }

    void endTransaction(boolean failed) {
        try {
            if (failed) {
                journal.abort();
                writable.clear();
                commitIndex = null;
            }
        } finally {
            writer.release();
        }
    }

    // ---- readers ----

    /** A snapshot of the newest commit point. Close it: it pins that commit point's space. */
    public Snapshot snapshot() {
        ReadPin pin = journal.pinLatest();
        try {
            CommitState s = latest;
            CommitRecord record = s.point().counter() == pin.commit().counter() ? s.record() : readState(pin.commit()).record();
            return new Snapshot(this, pin, record);
        } catch (RuntimeException e) {
            pin.close();
            throw e;
        }
    }

    /** A snapshot of an earlier commit point, if it is still retained. */
    public Snapshot snapshot(long commitCounter) {
        CommitPoint point;
        try (Snapshot now = snapshot()) {
            if (commitCounter == now.commit().counter()) {
                return snapshot();
            }
            point = now.findCommit(commitCounter);
        }
        if (point == null) {
            throw new StoreException("commit point " + commitCounter + " of " + journal.path()
                    + " is not retained (oldest readable: " + journal.oldestReadableCommit() + ")");
        }
        ReadPin pin = journal.pin(point);
        try {
            return new Snapshot(this, pin, readState(point).record());
        } catch (RuntimeException e) {
            pin.close();
            throw e;
        }
    }

    /** A snapshot of the newest commit point made at or before {@code timeMillis}. */
    public Snapshot snapshotAsOf(long timeMillis) {
        long counter;
        try (Snapshot now = snapshot()) {
            if (now.commit().timeMillis() <= timeMillis) {
                return snapshot();
            }
            counter = now.findCommitAsOf(timeMillis);
        }
        if (counter < 0) {
            throw new StoreException("no retained commit point of " + journal.path() + " is as old as " + timeMillis);
        }
        return snapshot(counter);
    }

    /** Every commit point that can still be opened, oldest first. */
    public List<CommitPoint> retainedCommits() {
        try (Snapshot s = snapshot()) {
            List<CommitPoint> out = s.historicalCommits();
            out.add(s.commit());
            return out;
        }
    }

    /**
     * Reads the newest commit's pages into the page cache, upper levels of every tree first, until the cache holds
     * {@code maxBytes} of decoded pages or {@code stop} says so ({@link PagePrewarm}). A store opened for queries
     * otherwise decodes each page on its first queries' visits. Safe beside queries and a writer: it reads a
     * snapshot, which it pins while it runs.
     */
    public PagePrewarm.Result prewarm(long maxBytes, BooleanSupplier stop) {
        try (Snapshot s = snapshot()) {
            return PagePrewarm.run(treesByName(s), cache, Math.min(maxBytes, cache.maxBytes()), stop);
        }
    }

    /**
     * Reads up to {@code pages} leaves of the newest commit's trees as cache misses read them, without caching them
     * ({@link PagePrewarm#rehearseMisses}); returns the leaves read. Safe beside queries and a writer: it reads a
     * snapshot, which it pins while it runs.
     */
    public long rehearsePageMisses(int pages, BooleanSupplier stop) {
        try (Snapshot s = snapshot()) {
            return PagePrewarm.rehearseMisses(treesByName(s), pages, stop);
        }
    }

    /** Every tree of {@code s}, read-only, in name order. */
    private static List<BTree> treesByName(Snapshot s) {
        List<BTree> trees = new ArrayList<>();
        for (String name : new TreeSet<>(s.treeNames())) {
            trees.add(s.tree(name));
        }
        return trees;
    }

    /** Approximate bytes of decoded pages the page cache holds now. */
    public long pageCacheBytesInUse() {
        return cache.weightedSize();
    }

    Journal journal() {
        return journal;
    }

    PageCache cache() {
        return cache;
    }

    StoreConfig config() {
        return config;
    }

    public StoreStats stats() {
        JournalStats j = journal.stats();
        Map<String, Long> sizes = new TreeMap<>();
        for (Map.Entry<String, BTreeCheckpoint> e : latest.record().trees().entrySet()) {
            sizes.put(e.getKey(), e.getValue().entryCount());
        }
        return new StoreStats(journal.path(), j, sizes);
    }

    /**
     * Checks the newest commit point end to end: every reachable record's checksum, every B+tree's
     * invariants and counts, every retained commit record, and that the allocator's space in use is
     * exactly what is reachable, deferred or metadata. Waits for the write transaction to end.
     */
    public StoreVerifier.Report verify() {
        writer.acquireUninterruptibly();
        try {
            return new StoreVerifier(this).verify(latest);
        } finally {
            writer.release();
        }
    }

    @Override
    public void close() {
        writer.acquireUninterruptibly();
        try {
            journal.close();
        } finally {
            writer.release();
        }
    }
}
