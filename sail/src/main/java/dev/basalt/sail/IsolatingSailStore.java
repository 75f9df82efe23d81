package dev.basalt.sail;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.model.ModelFactory;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.BackingSailSource;
import org.eclipse.rdf4j.sail.base.SailDataset;
import org.eclipse.rdf4j.sail.base.SailSink;
import org.eclipse.rdf4j.sail.base.SailSource;
import dev.basalt.sail.read.StatementSet;
import dev.basalt.sail.write.BulkWrite;
import dev.basalt.sail.write.GrowingBranch;
import dev.basalt.sail.write.StoreWriter;
import dev.basalt.sail.write.UnisolatedSink;
import dev.basalt.sail.write.WriteThroughTransaction;

/**
 * The {@link org.eclipse.rdf4j.sail.base.SailStore} that {@link BasaltStoreConnection}s use: it gives each connection's
 * transaction its own RDF4J branch and keeps no shared layer of its own, so a commit is in the
 * journal, durably, when {@code commit()} returns.
 *
 * <ul>
 * <li>{@code fork()} returns a new branch (see {@link Rdf4jInternals#fork}) over the backing source: the
 * connection's pending changes, in change sets that spill; SNAPSHOT and SERIALIZABLE per
 * connection. The branch flushes into the backing store's sink when the connection commits,
 * inside the connection's commit group (see {@link StoreWriter}). The explicit branch is wrapped
 * in a {@link GrowingBranch}: past {@code largeTransactionThreshold} additions the transaction
 * writes through into the store instead ({@link WriteThroughTransaction}), until
 * {@link #endTransaction} commits or discards it.</li>
 * <li>{@code dataset(level)} pins the newest commit point until the dataset is closed.</li>
 * <li>{@code sink(level)} is only asked for by connections at isolation NONE: an
 * {@link UnisolatedSink} that writes the operation's changes straight into the store's write
 * transaction, in batches, inside a commit group of the connection that lasts until the sink is
 * flushed (commit) or closed (rollback), so a half-done operation is never committed.</li>
 * <li>{@code prepare()}, {@code flush()} and {@code close()} of a source do nothing: nothing is
 * ever pending here.</li>
 * </ul>
 *
 * Each connection has its own instance ({@link #forConnection()}); it names the connection as
 * the owner of its commit groups (see {@link StoreWriter}).
 *
 * <p>RDF4J's {@code SnapshotSailStore} is deliberately not used: its shared branch defers writing
 * committed changes to the store until no dataset is open, which under a steady read load means
 * never.
 *
 * <p>Thread rules: one instance per connection, used by that connection's threads one at a time (its
 * transaction fields are volatile because RDF4J may fork and flush in another thread than the one that
 * began the transaction); the backing store it wraps is shared and thread-safe.
 */
final class IsolatingSailStore extends SailStoreBase {
    private final BasaltSailStore backing;
    private final ModelFactory changeSets;
    private final long largeTransactionThreshold;
    private final long largeTransactionIdleSeconds;
    /** The isolation level of the connection's transaction being begun or under way. */
    private volatile IsolationLevel level;
    /** The connection's transaction under way, once its explicit branch exists. */
    private volatile WriteThroughTransaction transaction;
    /** The explicit branch of that transaction. */
    private volatile GrowingBranch branch;

    /**
     * @param largeTransactionThreshold   explicit additions at which a transaction writes through; 0 never
     * @param largeTransactionIdleSeconds how long such a transaction may hold the writer idle while
     *                                    another connection waits to commit
     */
    IsolatingSailStore(BasaltSailStore backing, ModelFactory changeSets, long largeTransactionThreshold,
            long largeTransactionIdleSeconds) {
        super(backing.getValueFactory(), backing.latest());
        this.backing = backing;
        this.changeSets = changeSets;
        this.largeTransactionThreshold = largeTransactionThreshold;
        this.largeTransactionIdleSeconds = largeTransactionIdleSeconds;
        sources(new Source(backing.getExplicitSailSource(), StatementSet.EXPLICIT),
                new Source(backing.getInferredSailSource(), StatementSet.INFERRED));
    }

    /** A view of the same store for one connection, the owner of that connection's commit groups. */
    IsolatingSailStore forConnection() {
        return new IsolatingSailStore(backing, changeSets, largeTransactionThreshold, largeTransactionIdleSeconds);
    }

    /** The connection begins an isolated transaction at {@code isolation}; its branches are forked next. */
    void beginTransaction(IsolationLevel isolation) {
        this.level = isolation;
        this.transaction = null;
        this.branch = null;
    }

    /**
     * The connection's transaction ends: a promoted transaction commits what it wrote if
     * {@code success} (the connection's commit flushed everything), else discards it.
     */
    void endTransaction(boolean success) {
        WriteThroughTransaction t = transaction;
        transaction = null;
        branch = null;
        if (t != null) {
            t.end(success);
        }
    }

    /**
     * Makes the connection's isolated transaction write through into the store now, for a bulk
     * write: its branch's changes are handed over first. False if it cannot (no isolated
     * transaction, an operation's sink still open, large transactions disabled, another connection
     * holds the writer, or another commit came after this transaction began).
     */
    boolean writeThroughNow() {
        GrowingBranch b = branch;
        return b != null && b.promoteNow();
    }

    /**
     * Runs a bulk write in the connection's transaction: into the promoted transaction's writes
     * (see {@link #writeThroughNow()}), or, at isolation NONE, as one operation committed at its
     * end. A failure leaves a promoted transaction able only to roll back.
     *
     * @return statements new to the store, or -1 if nothing was written because the store holds
     *         inferred statements that its reasoner does not own (written by an RDF4J inferencer
     *         stacked on it, which wants each statement: only the per-statement path tells it)
     */
    long bulkWrite(BulkWrite write) {
        StoreWriter writer = backing.writer();
        WriteThroughTransaction t = transaction;
        if (t == null) {
            writer.beginGroup(this);
            boolean ok = false;
            try {
                long added = bulkInSession(writer, write);
                ok = true;
                return added;
            } finally {
                writer.endGroup(this, ok);
            }
        }
        if (!t.isPromoted()) {
            throw new IllegalStateException("the transaction does not write through; call writeThroughNow() first");
        }
        t.enter();
        try {
            t.gate().beforeWrite();
            return bulkInSession(writer, write);
        } catch (RuntimeException e) {
            t.fail(e);
            throw e;
        } finally {
            t.exit();
        }
    }

    private long bulkInSession(StoreWriter writer, BulkWrite write) {
        long[] added = { -1 };
        writer.writeAs(this, session -> {
            if (session.keepsClosure() || !session.hasInferred()) {
                added[0] = session.bulk(write);
            }
        });
        return added[0];
    }

    /** True while the connection's transaction writes through into the store. */
    boolean isWritingThrough() {
        WriteThroughTransaction t = transaction;
        return t != null && t.isPromoted();
    }

    @Override
    public void close() throws SailException {
        backing.close();
    }

    private final class Source extends BackingSailSource {
        private final SailSource committed;
        private final StatementSet set;

        Source(SailSource committed, StatementSet set) {
            this.committed = committed;
            this.set = set;
        }

        @Override
        public SailSource fork() {
            SailSource branch = Rdf4jInternals.fork(committed, changeSets);
            if (set != StatementSet.EXPLICIT || level == null) {
                return branch;
            }
            WriteThroughTransaction t = new WriteThroughTransaction(backing.writer(), backing.latest(), IsolatingSailStore.this, level,
                    largeTransactionThreshold, largeTransactionIdleSeconds);
            transaction = t;
            GrowingBranch growing = new GrowingBranch(branch, t, set, backing.getValueFactory());
            IsolatingSailStore.this.branch = growing;
            return growing;
        }

        @Override
        public SailSink sink(IsolationLevel level) throws SailException {
            return new UnisolatedSink(backing.writer(), set, IsolatingSailStore.this);
        }

        @Override
        public SailDataset dataset(IsolationLevel level) throws SailException {
            return committed.dataset(level);
        }
    }
}
