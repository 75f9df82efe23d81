package dev.basalt.replication;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;

import org.apache.ratis.protocol.Message;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.sail.SailConnection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.replication.log.ChangeSet;
import dev.basalt.replication.log.ChangeSetCodec;
import dev.basalt.replication.log.LogEntries;
import dev.basalt.replication.log.UploadEntry;
import dev.basalt.sail.load.LoadException;

/**
 * Applies committed log entries to the local store on its own thread, in log order, as many as
 * are waiting in one store transaction: one journal commit (one fsync) for a run of entries
 * instead of one per entry, which is what lets a replica keep up with many concurrent small
 * writers. Entries at or below the store's applied index are skipped; after each transaction the
 * {@link AppliedIndex} file records the run's last index, and then every entry of the run is
 * reported applied, in order, and its future completed.
 *
 * <p>The pieces of a split transaction go to {@link StagedTransactions}; its commit entry applies the
 * whole change set at the commit's place in the log, or, refused, completes with the reason as its
 * reply. While pieces are staged, the {@link AppliedIndex} file records at most the index before the
 * oldest staged piece, so a restart replays them from the log (and re-applies what followed them,
 * harmlessly: change sets are idempotent).
 *
 * <p>A group entry's change sets (concurrent transactions committed as one entry) are applied in
 * their order in the group, as entries of their own would be.
 *
 * <p>An upload entry ({@link UploadEntry}) is loaded through the store's bulk loader, then the change
 * set that follows it in the entry is applied. An upload the loader finds malformed (the same on
 * every replica: the bytes, the parser and its settings are the same) is refused: the batch is applied
 * again without it, and the entry completes with the loader's message as its reply.
 *
 * <p>Entries that are not state machine entries (Raft's configuration and leader no-op entries)
 * pass through the same queue, so "applied" never runs ahead of an entry still waiting. If a
 * transaction fails, the applier stops: that run and every later entry fail with the cause and
 * nothing more is reported applied.
 *
 * <p>Thread rules: {@link #submit} from Ratis's state machine updater thread; the batches on this
 * class's own thread; {@link #exclusive} (snapshots, installs) waits until everything submitted is
 * applied and then holds the store alone; the getters from any thread.
 */
final class BatchApplier implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchApplier.class);
    /** Most entries applied in one store transaction. */
    static final int MAX_BATCH = 256;

    /** A committed entry; {@code changes} is null for an entry that is not a state machine entry. */
    record Entry(long term, long index, byte[] changes, CompletableFuture<Message> done) {
    }

    /** One transaction to apply: a change set, or an upload and the change set after it. */
    private record Work(long index, UploadEntry upload, ChangeSet changes) {
    }

    /** Told, in log order, of every entry applied. */
    interface AppliedListener {
        void applied(long term, long index);
    }

    /** Work done with the store held alone. */
    interface StoreWork<T> {
        T run(long storeApplied) throws IOException;
    }

    private final LocalStore store;
    private final AppliedIndex appliedFile;
    private final AppliedListener listener;
    private final LinkedBlockingQueue<Entry> queue = new LinkedBlockingQueue<>();
    /** Pieces of split transactions. Guarded by {@link #lock}. */
    private final StagedTransactions staged;
    private final Object lock = new Object();
    private final Thread thread;
    /** The last index whose change set is in the store. Written under {@link #lock}; volatile for {@link #describe}. */
    private volatile long storeApplied;
    /** Entries submitted and entries processed. Written under {@link #lock}; volatile for {@link #describe}. */
    private volatile long submitted;
    private volatile long processed;
    private volatile Throwable failure;
    /** Set by {@link #apply(List, boolean)} once it tried the bulk path. Applier thread only. */
    private boolean bulkTried;
    /** Transactions applied with the bulk path (for tests). Applier thread writes; any thread reads. */
    private volatile int bulkApplied;
    /** Bulk attempts that failed and were applied again statement by statement. Applier thread writes; any thread reads. */
    private volatile int bulkFallbacks;
    private volatile boolean closed;
    /** The last entries processed, as term:index plus what they were (for {@link #describe}). Guarded by itself. */
    private final java.util.ArrayDeque<String> recent = new java.util.ArrayDeque<>();
    private static final int RECENT = 24;

    BatchApplier(String name, LocalStore store, AppliedIndex appliedFile, long storeApplied, AppliedListener listener,
            long expireEntries) {
        this.staged = new StagedTransactions(expireEntries);
        this.store = store;
        this.appliedFile = appliedFile;
        this.storeApplied = storeApplied;
        this.listener = listener;
        this.thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    void submit(Entry entry) {
        synchronized (lock) {
            submitted++;
        }
        queue.add(entry);
    }

    Throwable failure() {
        return failure;
    }

    /**
     * One line for a diagnosis (a test's timeout, the {@code /replication/diagnostics} endpoint):
     * what waits, what was applied, the applier thread's state; reads without taking the lock, so
     * it answers while a batch is being applied.
     */
    String describe() {
        Throwable f = failure;
        return "applier{storeApplied=" + storeApplied + ", submitted=" + submitted + ", processed=" + processed
                + ", queued=" + queue.size() + ", thread=" + thread.getState() + (thread.isAlive() ? "" : " (dead)")
                + ", bulkApplied=" + bulkApplied + ", bulkFallbacks=" + bulkFallbacks
                + (f == null ? "" : ", failure=" + f) + ", recent=" + recent() + "}";
    }

    private String recent() {
        synchronized (recent) {
            return String.join(" ", recent);
        }
    }

    private void remember(Entry e, String what) {
        synchronized (recent) {
            if (recent.size() == RECENT) {
                recent.removeFirst();
            }
            recent.addLast(e.term() + ":" + e.index() + what);
        }
    }

    /** Waits until every submitted entry is processed, then runs {@code work} with the store held alone. */
    <T> T exclusive(StoreWork<T> work) throws IOException {
        synchronized (lock) {
            while (processed < submitted && !closed) {
                try {
                    lock.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted waiting for the log entries being applied", e);
                }
            }
            return work.run(storeApplied);
        }
    }

    /** True while pieces of a split transaction wait for their commit (call inside {@link #exclusive}). */
    boolean staging() {
        synchronized (lock) {
            return !staged.isEmpty();
        }
    }

    /** After a snapshot was installed in place of the store: it now holds the entries up to {@code index}. */
    void installed(long index) {
        synchronized (lock) {
            staged.clear();
            storeApplied = index;
            failure = null;
        }
    }

    private void run() {
        List<Entry> batch = new ArrayList<>();
        while (!closed) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                return;
            }
            queue.drainTo(batch, MAX_BATCH - 1);
            synchronized (lock) {
                process(batch);
                processed += batch.size();
                lock.notifyAll();
            }
            batch.clear();
        }
    }

    private void process(List<Entry> batch) {
        Entry last = null;
        List<Work> changes = new ArrayList<>();
        Map<Long, String> refused = new HashMap<>();
        if (failure == null) {
            try {
                for (Entry e : batch) {
                    if (e.changes() == null || e.index() <= storeApplied) {
                        remember(e, e.changes() == null ? "(raft)" : "(skipped)");
                        continue;
                    }
                    remember(e, "(" + e.changes().length + "B)");
                    byte[] changeSet = e.changes();
                    if (LogEntries.isPiece(changeSet)) {
                        StagedTransactions.Outcome outcome = staged.accept(e.index(), LogEntries.read(changeSet));
                        if (outcome == null || outcome == StagedTransactions.Outcome.REPEATED) {
                            continue;
                        }
                        if (outcome.refusal() != null) {
                            LOG.warn("split {}", outcome.refusal());
                            refused.put(e.index(), outcome.refusal());
                            continue;
                        }
                        changeSet = outcome.changeSet();
                    } else {
                        staged.expire(e.index());
                    }
                    if (LogEntries.isGroup(changeSet)) {
                        for (byte[] member : LogEntries.members(changeSet)) {
                            changes.add(new Work(e.index(), null, ChangeSetCodec.decode(member, store.valueFactory())));
                        }
                    } else if (UploadEntry.isUpload(changeSet)) {
                        UploadEntry upload = UploadEntry.decode(changeSet, store.valueFactory());
                        changes.add(new Work(e.index(), upload, upload.changeSetAfter().length == 0 ? new ChangeSet()
                                : ChangeSetCodec.decode(upload.changeSetAfter(), store.valueFactory())));
                    } else {
                        changes.add(new Work(e.index(), null, ChangeSetCodec.decode(changeSet, store.valueFactory())));
                    }
                    last = e;
                }
                if (last != null) {
                    applyRefusing(changes, refused);
                    storeApplied = last.index();
                    appliedFile.write(last.term(), Math.min(last.index(), staged.oldestIndex() - 1));
                }
            } catch (IOException | RuntimeException e) {
                failure = e;
                LOG.error("replica stopped applying the log: entries {}..{} failed to apply to the local store ({});"
                        + " it will retry from there when restarted", batch.get(0).index(),
                        batch.get(batch.size() - 1).index(), e.toString(), e);
            }
        }
        for (Entry e : batch) {
            Throwable failed = failure;
            if (failed == null) {
                listener.applied(e.term(), e.index());
                if (e.done() != null) {
                    String refusal = refused.get(e.index());
                    e.done().complete(refusal == null ? Message.EMPTY : Message.valueOf(refusal));
                }
            } else if (e.done() != null) {
                e.done().completeExceptionally(new IOException("replica cannot apply log entry " + e.index() + ": "
                        + failed.getMessage(), failed));
            }
        }
    }

    /**
     * Applies the batch; an upload that its loader finds malformed is refused (its index and the
     * loader's message into {@code refused}) and the batch applied again without it.
     */
    private void applyRefusing(List<Work> work, Map<Long, String> refused) {
        List<Work> remaining = new ArrayList<>(work);
        while (true) {
            loading = null;
            try {
                apply(remaining);
                return;
            } catch (LoadException e) {
                Work failed = loading;
                if (failed == null || e.getMessage() == null
                        || !e.getMessage().startsWith(WholeUpload.NAME + ":")) {
                    throw e;
                }
                LOG.warn("upload at log index {} refused: {}", failed.index(), e.getMessage());
                refused.put(failed.index(), e.getMessage());
                remaining.remove(failed);
            }
        }
    }

    /** The upload being loaded, while {@link #apply(List, boolean)} loads one. Applier thread only. */
    private Work loading;

    /**
     * Applies the change sets in order as one store transaction, a large addition through the
     * store's bulk write path ({@link BulkApply}); if that transaction fails after taking the bulk
     * path (a full temporary disk for its sort runs, say), it is rolled back and applied again
     * statement by statement (an upload has no other path than the bulk loader: it is loaded again).
     */
    private void apply(List<Work> changeSets) {
        boolean bulk = false;
        try {
            bulk = apply(changeSets, true);
        } catch (RuntimeException e) {
            if (!bulkTried || e instanceof LoadException && loading != null) {
                throw e;
            }
            LOG.warn("applying a change set through the bulk loader failed ({}); applying it statement by statement",
                    e.toString());
            bulkFallbacks++;
            apply(changeSets, false);
        }
        if (bulk) {
            bulkApplied++;
        }
    }

    int bulkApplied() {
        return bulkApplied;
    }

    /** Store transactions applied statement by statement after their bulk attempt failed (for tests). */
    int bulkFallbacks() {
        return bulkFallbacks;
    }

    private boolean apply(List<Work> work, boolean allowBulk) {
        bulkTried = false;
        boolean bulk = false;
        try (SailConnection c = store.connection()) {
            c.begin(IsolationLevels.READ_COMMITTED);
            for (Work w : work) {
                if (w.upload() != null) {
                    bulkTried = true;
                    loading = w;
                    long start = System.nanoTime();
                    WholeUpload.loadInto(c, w.upload(), store.tempDir());
                    LOG.info("log index {}: loaded an upload of {} bytes ({} compressed) in {} ms", w.index(),
                            w.upload().rawBytes(), w.upload().compressed().length, (System.nanoTime() - start) / 1_000_000);
                    loading = null;
                    bulk = true;
                }
                ChangeSet changes = w.changes();
                for (ChangeSet.NamespaceChange ns : changes.namespaces()) {
                    switch (ns.kind()) {
                        case SET -> c.setNamespace(ns.prefix(), ns.name());
                        case REMOVE -> c.removeNamespace(ns.prefix());
                        case CLEAR -> c.clearNamespaces();
                    }
                }
                for (Statement st : changes.removed()) {
                    c.removeStatements(st.getSubject(), st.getPredicate(), st.getObject(),
                            new Resource[] {st.getContext()});
                }
                if (allowBulk && BulkApply.eligible(changes.added())) {
                    bulkTried = true;
                    if (BulkApply.add(c, changes.added(), store.tempDir())) {
                        bulk = true;
                        continue;
                    }
                }
                for (Statement st : changes.added()) {
                    c.addStatement(st.getSubject(), st.getPredicate(), st.getObject(), new Resource[] {st.getContext()});
                }
            }
            c.commit();
        }
        return bulk;
    }

    @Override
    public void close() {
        closed = true;
        thread.interrupt();
        synchronized (lock) {
            lock.notifyAll();
        }
    }
}
