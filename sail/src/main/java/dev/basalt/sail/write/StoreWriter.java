package dev.basalt.sail.write;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;

import org.eclipse.rdf4j.sail.SailException;

import dev.basalt.sail.inference.Reasoner;
import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.quads.QuadOrder;
import dev.basalt.sail.read.ReadView;

/**
 * Maps the sail's sinks onto the store's one write transaction.
 *
 * <p>Every sink write runs in the open {@link WriteSession}, which is begun by the first write,
 * and every write happens inside a <em>commit group</em>. A connection's commit opens a group
 * around RDF4J's flush of its inferred and explicit branches; inside the group flushes do not
 * commit (outside one, a sink's {@code flush()} commits whatever is open), and the group's end
 * commits the session once, durably, before the connection's {@code commit()} returns. So a
 * transaction's explicit and inferred changes (and its new terms and namespaces) become one commit
 * point, atomically, with one fsync. If any part of a group fails, everything written in it is
 * rolled back at its end.
 *
 * <p>A group belongs to an <em>owner</em>, the connection's {@code IsolatingSailStore}: groups of
 * one owner nest (the outermost end commits), and every other owner waits until the group ends.
 * Every writer of the session holds a group: RDF4J branches write only while their connection
 * commits, and an update at isolation NONE holds a group of its connection from its first batch
 * written until its sink is flushed or closed (see {@link UnisolatedSink}), possibly across many
 * calls and threads, which is why ownership is not tied to a thread. Groups are taken before any
 * RDF4J branch lock, so no thread waits for the writer while holding a branch lock. A thread that
 * would wait for a group it holds itself for another owner (two connections written alternately
 * in one thread while one has a NONE update writing through) gets a {@link SailException} instead
 * of a deadlock.
 *
 * <p>A large isolated transaction ({@link WriteThroughTransaction}) holds a group of its connection
 * from the moment it outgrows its RDF4J branch until it commits or rolls back; it takes the group
 * only with {@link #tryBeginGroup}, so growing never waits for another writer, and reads what it
 * wrote through {@link #readView}.
 *
 * <p>{@link #write} serves the thread that holds the open group (the committing connection's
 * branch flush) and refuses every other caller; owners that write across threads use
 * {@link #writeAs}. After {@link #close()} every commit, including the end of a group begun
 * before, fails loudly: what the group wrote was rolled back by the close.
 *
 * <p>Thread-safe: the session and the group state are only touched under this object's monitor,
 * by one thread at a time.
 */
public final class StoreWriter {
    private final Store store;
    private final Lexicon lexicon;
    private final List<QuadOrder> orders;
    private final Runnable afterCommit;
    /** Keeps the store's closure at every commit (see {@link WriteSession#commit}), or null. */
    private final Reasoner reasoner;
    private WriteSession session;
    private Object owner;
    private Thread ownerThread;
    private int groupDepth;
    private boolean groupFailed;
    private boolean closed;
    /** Writes run so far; a live view compares it to notice that the session changed. */
    private volatile long writes;
    /** The holder of the open group if another owner may take it while it is idle, else null. */
    private Preemptible preemptible;
    /** Owners whose group was taken from them (see {@link Preemptible}), until they forget it. */
    private final Set<Object> preempted = Collections.newSetFromMap(new IdentityHashMap<>());

    /**
     * A group holder that may lose its group to a waiting owner when it has been idle too long: a
     * large transaction ({@link WriteThroughTransaction}) holds the group between its operations,
     * so a waiting commit would otherwise wait for it forever if the application makes it wait for
     * that very commit.
     */
    interface Preemptible {
        /** True if the holder is idle past its limit; it is then refused from now on. Called under the writer's monitor. */
        boolean preemptIfIdle();
    }

    /** How often a waiting owner checks whether a preemptible holder has become idle. */
    private static final long PREEMPT_CHECK_MILLIS = 500;
    /** One daemon thread for {@link #writeInBackground}, started on first use. */
    private ExecutorService background;

    public StoreWriter(Store store, Lexicon lexicon, List<QuadOrder> orders, Runnable afterCommit, Reasoner reasoner) {
        this.reasoner = reasoner;
        this.store = store;
        this.lexicon = lexicon;
        this.orders = orders;
        this.afterCommit = afterCommit;
    }

    /**
     * {@link #write} for a writer that must hold the group as {@code groupOwner}: refused if the
     * group was taken from it meanwhile (see {@link Preemptible}).
     */
    public synchronized void writeAs(Object groupOwner, Consumer<WriteSession> change) {
        if (owner != groupOwner) {
            throw new SailException(preempted.contains(groupOwner) ? WriteThroughTransaction.PREEMPTED
                    : "writing into the Basalt store without holding its writer");
        }
        apply(change);
    }

    /**
     * Runs a change in the open session for the thread that holds the open group (a connection
     * flushing its RDF4J branches inside its commit group); a failure rolls the session back.
     *
     * @throws SailException if no group is open or another thread holds it: such a write would be
     *                       committed or rolled back by a group it does not belong to
     */
    public synchronized void write(Consumer<WriteSession> change) {
        if (owner == null || ownerThread != Thread.currentThread()) {
            throw new SailException("writing into the Basalt store " + store + " without holding its commit group"
                    + (owner == null ? " (none is open)" : " (another thread holds it)")
                    + "; the change was not applied. Basalt's sinks are written only while their connection commits");
        }
        apply(change);
    }

    private void apply(Consumer<WriteSession> change) {
        if (closed) {
            throw new SailException("the Basalt store is closed; the change was not applied");
        }
        if (session == null) {
            session = newSession();
        }
        try {
            writes++;
            change.accept(session);
        } catch (RuntimeException e) {
            groupFailed |= groupDepth > 0;
            rollback();
            throw e;
        }
    }

    /** Begins a write transaction; no other commit can come between it and the counter read (one writer). */
    private WriteSession newSession() {
        WriteTransaction tx = store.begin();
        long base;
        try (Snapshot s = store.snapshot()) {
            base = s.commit().counter();
        } catch (RuntimeException e) {
            tx.rollback();
            throw e;
        }
        return new WriteSession(tx, base, lexicon, orders, reasoner);
    }

    /** The number of writes run so far: a live view made before the last write may lack a tree it created. */
    long writes() {
        return writes;
    }

    /**
     * A live view of the open session for {@code groupOwner}, which must hold the group (so no other
     * owner writes); the session is begun if none is open.
     *
     * @throws SailException if a write of the group failed (the session was rolled back)
     */
    synchronized ReadView readView(Object groupOwner, Snapshot base, LiveReads live) {
        if (owner != groupOwner) {
            throw new IllegalStateException("reading the write transaction without holding its group");
        }
        if (groupFailed) {
            throw new SailException("an earlier write of this transaction failed and its changes were discarded; "
                    + "roll the transaction back");
        }
        if (closed) {
            throw new SailException("the Basalt store is closed");
        }
        if (session == null) {
            session = newSession();
        }
        return session.readView(base, live);
    }

    /** Waits until every write handed to the background thread so far has run. */
    void awaitBackground() {
        ExecutorService b;
        synchronized (this) {
            b = background;
        }
        if (b != null) {
            CompletableFuture.runAsync(() -> { }, b).join();
        }
    }

    /**
     * Runs {@link #write} on the writer's background thread, for a NONE update that fills its next
     * batch meanwhile; the caller holds a group and waits for the result before its next write.
     */
    synchronized CompletableFuture<Void> writeInBackground(Object groupOwner, Consumer<WriteSession> change) {
        if (closed) {
            throw new SailException("the Basalt store is closed; the change was not applied");
        }
        if (background == null) {
            background = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "basalt-writer " + store);
                t.setDaemon(true);
                return t;
            });
        }
        return CompletableFuture.runAsync(() -> writeAs(groupOwner, change), background);
    }

    /** A sink's flush: commits now unless a commit group is open (then the group commits). */
    public synchronized void flush() {
        if (groupDepth == 0) {
            commit();
        }
    }

    /** Drops uncommitted writes of a sink that is closed without flushing (outside a group). */
    synchronized void discard() {
        if (groupDepth == 0 && session != null) {
            rollback();
        }
    }

    /**
     * Begins a group of {@code groupOwner}, waiting (uninterruptibly) while another owner's group
     * is open.
     *
     * @throws SailException if the other owner's group was begun in this very thread, which
     *                       would never end while this thread waits
     */
    public synchronized void beginGroup(Object groupOwner) {
        if (preempted.contains(groupOwner)) {
            throw new SailException(WriteThroughTransaction.PREEMPTED);
        }
        boolean interrupted = false;
        try {
            while (owner != null && owner != groupOwner) {
                if (preemptible != null && preemptible.preemptIfIdle()) {
                    preempt();
                    continue;
                }
                if (ownerThread == Thread.currentThread()) {
                    throw new SailException("another connection of this thread is writing into the Basalt store "
                            + "(an update at isolation NONE or a large transaction); end that update or transaction "
                            + "(commit or roll back that connection) before committing this one, or use the "
                            + "connections in separate threads");
                }
                try {
                    wait(preemptible != null ? PREEMPT_CHECK_MILLIS : 0);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        owner = groupOwner;
        ownerThread = Thread.currentThread();
        groupDepth++;
    }

    /**
     * Begins a group of {@code groupOwner} if no other owner's group is open; never waits.
     *
     * @return false if another owner holds the group
     */
    synchronized boolean tryBeginGroup(Object groupOwner, Preemptible holder) {
        if (closed || owner != null && owner != groupOwner || preempted.contains(groupOwner)) {
            return false;
        }
        if (groupDepth == 0) {
            preemptible = holder;
        }
        owner = groupOwner;
        ownerThread = Thread.currentThread();
        groupDepth++;
        return true;
    }

    /** Takes the group from its idle preemptible holder: what it wrote is rolled back. */
    private void preempt() {
        preempted.add(owner);
        rollback();
        owner = null;
        ownerThread = null;
        groupDepth = 0;
        groupFailed = false;
        preemptible = null;
        notifyAll();
    }

    /** The preempted owner's transaction has ended; its next one may write again. */
    synchronized void forgetPreempted(Object groupOwner) {
        preempted.remove(groupOwner);
    }

    /** Ends a group: the outermost end commits what the group wrote if no part of it failed, else rolls it back. */
    public synchronized void endGroup(Object groupOwner, boolean success) {
        if (owner != groupOwner && preempted.contains(groupOwner)) {
            // its writes were rolled back when the group was taken from it
            return;
        }
        if (owner != groupOwner || groupDepth == 0) {
            throw new IllegalStateException("ending a commit group that " + groupOwner + " does not hold");
        }
        groupFailed |= !success;
        if (--groupDepth > 0) {
            return;
        }
        boolean failed = groupFailed;
        groupFailed = false;
        preemptible = null;
        owner = null;
        ownerThread = null;
        notifyAll();
        if (failed) {
            rollback();
        } else {
            commit();
        }
    }

    private void commit() {
        if (closed) {
            throw new SailException("the Basalt store " + store + " was closed (the repository was shut down) before "
                    + "this transaction committed: its changes were rolled back and nothing was written. Open the "
                    + "repository again and repeat the transaction");
        }
        WriteSession s = session;
        if (s == null) {
            return;
        }
        session = null;
        CommitPoint p;
        try {
            p = s.commit();
        } catch (RuntimeException e) {
            s.rollback();
            throw new SailException("commit to " + store + " failed; the transaction was rolled back: " + e.getMessage(), e);
        }
        if (p != null) {
            afterCommit.run();
        }
    }

    private void rollback() {
        WriteSession s = session;
        session = null;
        if (s != null) {
            s.rollback();
        }
    }

    /**
     * Drops writes whose flush never came (an interrupted operation) and refuses further ones. A
     * group still open stays owned, so its end (and any later flush) fails with a
     * {@link SailException} instead of reporting a commit that wrote nothing.
     */
    public synchronized void close() {
        closed = true;
        rollback();
        if (background != null) {
            background.shutdown();
        }
    }
}
