package dev.basalt.sail;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import org.eclipse.rdf4j.sail.SailException;

import dev.basalt.store.Store;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.quads.QuadOrder;

/**
 * Maps the sail's sinks onto the store's one write transaction.
 *
 * <p>Every sink write runs in the open {@link WriteSession}, which is begun by the first write.
 * Outside a commit group a sink's {@code flush()} commits the session: one commit point per
 * flush. A connection's commit opens a <em>commit group</em> around RDF4J's flush of its
 * inferred and explicit branches; inside the group flushes do not commit, and the group's end
 * commits the session once, durably, before the connection's {@code commit()} returns. So a
 * transaction's explicit and inferred changes (and its new terms and namespaces) become one commit
 * point, atomically, with one fsync. Groups are serialized by a lock taken before any RDF4J branch
 * lock, and every writer of the session holds it: RDF4J branches write only while their
 * connection commits, and an update at isolation NONE takes a group of its own (see
 * {@link UnisolatedSink}). So no thread waits for the store's writer while holding a branch lock,
 * and no deadlock is possible. If a group fails, everything written in it is rolled back.
 *
 * <p>The session is only touched under this object's monitor, by one thread at a time.
 */
final class StoreWriter {
    private final Store store;
    private final Lexicon lexicon;
    private final List<QuadOrder> orders;
    private final Runnable afterCommit;
    private final ReentrantLock groups = new ReentrantLock(true);
    private WriteSession session;
    private int groupDepth;
    private boolean closed;

    StoreWriter(Store store, Lexicon lexicon, List<QuadOrder> orders, Runnable afterCommit) {
        this.store = store;
        this.lexicon = lexicon;
        this.orders = orders;
        this.afterCommit = afterCommit;
    }

    /** Runs a change in the open session, beginning one if needed; a failure rolls the session back. */
    synchronized void write(Consumer<WriteSession> change) {
        if (closed) {
            throw new SailException("the Basalt store is closed; the change was not applied");
        }
        if (session == null) {
            session = new WriteSession(store.begin(), lexicon, orders);
        }
        try {
            change.accept(session);
        } catch (RuntimeException e) {
            rollback();
            throw e;
        }
    }

    /** A sink's flush: commits now unless a commit group is open (then the group commits). */
    synchronized void flush() {
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

    void beginGroup() {
        groups.lock();
        synchronized (this) {
            groupDepth++;
        }
    }

    /** Ends a group: commits what it wrote if {@code success}, else rolls it back. */
    void endGroup(boolean success) {
        try {
            synchronized (this) {
                groupDepth--;
                if (groupDepth == 0) {
                    if (success) {
                        commit();
                    } else if (session != null) {
                        rollback();
                    }
                }
            }
        } finally {
            groups.unlock();
        }
    }

    private void commit() {
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

    /** Drops writes whose flush never came (an interrupted operation) and refuses further ones. */
    synchronized void close() {
        closed = true;
        rollback();
    }
}
