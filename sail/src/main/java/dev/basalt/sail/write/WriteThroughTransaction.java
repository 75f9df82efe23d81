package dev.basalt.sail.write;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.sail.SailException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.ReadView;

/**
 * One isolated transaction of a connection, as far as its size matters. It starts small: its
 * changes stay in RDF4J's branch (see {@link GrowingBranch}). Once its explicit additions reach
 * {@code threshold} it is <em>promoted</em>: it takes the store writer's group for its connection
 * (see {@link StoreWriter}), hands everything its branch holds to the store's open write
 * transaction, and from then on writes its further changes there in batches, as an update at
 * isolation NONE does ({@link UnisolatedSink}). It commits as one commit point when the
 * connection commits, and a rollback, a failed operation or a closed connection discards all of
 * it: the store's write transaction is never committed half-way.
 *
 * <p>While promoted:
 * <ul>
 * <li>its own reads see everything it wrote, through a live view of the write transaction
 * ({@link #reads()}, {@link ReadView});</li>
 * <li>other connections keep reading the last committed snapshot, and their commits wait until
 * this transaction ends (one writer at a time);</li>
 * <li>isolation holds: promotion happens only while nothing was committed since the transaction
 * began (at SNAPSHOT and SERIALIZABLE; so the snapshot it reads and the state it writes on are
 * the same), and afterwards nothing else can commit. So SERIALIZABLE has nothing left to check.
 * If another commit came first, the transaction stays in its branch for good.</li>
 * </ul>
 * Promotion never waits: if another connection holds the writer, the transaction tries again after
 * {@link WriteBatch#SIZE} more additions.
 *
 * <p>A promoted transaction that stays idle (no operation of its connection under way) for longer
 * than {@code largeTransactionIdleSeconds} while another connection waits to commit loses the
 * writer ({@link StoreWriter.Preemptible}): its writes are rolled back and every further
 * operation, and its commit, fail with {@link #PREEMPTED}. Without this, an application whose
 * large transaction waits for another transaction's commit would wait forever.
 *
 * <p>Thread rules: a connection's transaction is used by one thread at a time (the connection's
 * contract); the writer group it holds is owned by the connection, not by a thread, so commit and
 * rollback may come from another thread than the one that promoted it. The count of open live
 * leases is read by the sink's gate in the same thread. A waiting committer checks idleness
 * ({@link #preemptIfIdle()}) from its own thread under the writer's monitor; operations mark
 * themselves under this object's monitor ({@link #enter()}, {@link #exit()}), which is never held
 * while taking the writer's.
 */
public final class WriteThroughTransaction implements StoreWriter.Preemptible {
    /** What a transaction whose writer group was taken from it says from then on. */
    static final String PREEMPTED = "this large transaction was rolled back: it held the Basalt store's writer without "
            + "an operation for longer than largeTransactionIdleSeconds while another connection waited to commit; "
            + "roll it back and run it again (commit it before waiting for other transactions)";
    private static final Logger LOG = LoggerFactory.getLogger(WriteThroughTransaction.class);
    private final StoreWriter writer;
    private final ReadSource latest;
    private final Object owner;
    private final IsolationLevel level;
    private final long threshold;
    private final long idleNanos;
    /** The newest commit counter when the transaction began. */
    private final long startCounter;
    private long additions;
    private long nextTry;
    private boolean givenUp;
    private volatile boolean promoted;
    private volatile boolean ended;
    private LiveReads reads;
    /** Why handing the branch over failed, or null: the transaction can then only be rolled back. */
    private RuntimeException broken;
    /** Operations of the connection under way in this transaction (guarded by this). */
    private int active;
    /** When the last operation ended, System.nanoTime() (guarded by this). */
    private long lastActive = System.nanoTime();
    /** The writer group was taken from this transaction while it was idle (guarded by this). */
    private boolean preempted;

    /**
     * @param owner     the connection's owner object of writer groups
     * @param threshold explicit additions at which to promote; 0 never promotes
     * @param idleSeconds how long the promoted transaction may hold the writer without an operation
     *                    while another connection waits to commit
     */
    public WriteThroughTransaction(StoreWriter writer, ReadSource latest, Object owner, IsolationLevel level, long threshold,
            long idleSeconds) {
        this.writer = writer;
        this.latest = latest;
        this.owner = owner;
        this.level = level;
        this.threshold = threshold;
        this.idleNanos = idleSeconds * 1_000_000_000L;
        this.nextTry = threshold;
        try (ReadSource.Lease lease = latest.acquire()) {
            this.startCounter = lease.view().commitCounter();
        }
    }

    public boolean isPromoted() {
        return promoted;
    }

    StoreWriter writer() {
        return writer;
    }

    Object owner() {
        return owner;
    }

    /** True if the transaction may still be promoted (large transactions enabled, not given up). */
    boolean mayPromote() {
        return threshold > 0 && !givenUp;
    }

    /**
     * A write of the promoted transaction failed part-way (a bulk write): from now on it can only
     * be rolled back, as after a failed hand-over.
     */
    public synchronized void fail(RuntimeException cause) {
        if (broken == null) {
            broken = cause;
        }
    }

    /** Counts explicit additions; true if the transaction should try to be promoted now. */
    boolean count(int n) {
        additions += n;
        return threshold > 0 && !givenUp && !promoted && additions >= nextTry;
    }

    /**
     * Promotes the transaction if the writer is free and isolation allows: takes the writer group,
     * runs {@code handOver} (which writes the branch's changes into the store's write transaction)
     * and switches reads to the live view.
     *
     * @return true if promoted
     * @throws SailException from {@code handOver}; the transaction can then only be rolled back
     */
    boolean promote(Runnable handOver) {
        if (!writer.tryBeginGroup(owner, this)) {
            nextTry = additions + WriteBatch.SIZE;
            return false;
        }
        ReadSource.Lease base = latest.acquire();
        boolean done = false;
        try {
            if (level.isCompatibleWith(IsolationLevels.SNAPSHOT) && base.view().commitCounter() != startCounter) {
                LOG.debug("a transaction of {} additions stays in its branch: commit point {} came after its start {}",
                        additions, base.view().commitCounter(), startCounter);
                givenUp = true;
                return false;
            }
            try {
                handOver.run();
            } catch (RuntimeException e) {
                givenUp = true;
                broken = e;
                throw e;
            }
            reads = new LiveReads(writer, owner, base);
            promoted = true;
            done = true;
            LOG.info("a transaction at {} writes through into the Basalt store from {} additions on", level, additions);
            return true;
        } finally {
            if (!done) {
                base.close();
                // nothing was written if the snapshot check failed; a failed hand-over is rolled back
                writer.endGroup(owner, broken == null);
            }
        }
    }

    /**
     * Refuses to go on after a failed promotion (its branch was partly handed over and discarded),
     * a failed bulk write, or once the writer was taken from it.
     */
    synchronized void ensureUsable() {
        if (preempted) {
            throw new SailException(PREEMPTED);
        }
        if (broken != null) {
            throw new SailException("a write of this large transaction into the Basalt store failed (" + broken.getMessage()
                    + "); its changes cannot be committed: roll the transaction back", broken);
        }
    }

    /** The gate of the transaction's sinks: full buffers are written only while no live read is open. */
    public UnisolatedSink.Gate gate() {
        return new UnisolatedSink.Gate() {
            @Override
            public boolean mayWrite() {
                LiveReads r = reads;
                return r == null || r.open() == 0;
            }

            @Override
            public void beforeWrite() {
                LiveReads r = reads;
                if (r != null) {
                    r.beforeWrite();
                }
            }
        };
    }

    /** Reads of the promoted transaction: live views of the store's write transaction. */
    ReadSource reads() {
        if (!promoted) {
            throw new IllegalStateException("the transaction has not been promoted");
        }
        return reads;
    }

    /** An operation of the connection begins: it must not be preempted meanwhile. */
    public synchronized void enter() {
        ensureUsable();
        active++;
    }

    /** The operation begun by {@link #enter()} ended. */
    public synchronized void exit() {
        active--;
        lastActive = System.nanoTime();
    }

    @Override
    public synchronized boolean preemptIfIdle() {
        if (!promoted || ended || preempted || active > 0 || System.nanoTime() - lastActive < idleNanos) {
            return false;
        }
        preempted = true;
        reads.kill();
        LOG.warn("a large transaction at {} of {} additions held the Basalt store's writer idle for more than {} s while "
                + "another connection waited to commit; it was rolled back", level, additions, idleNanos / 1_000_000_000L);
        return true;
    }

    /** Ends the transaction: commits what it wrote if {@code success}, else discards it. */
    public void end(boolean success) {
        if (!promoted || ended) {
            return;
        }
        ended = true;
        reads.end();
        boolean lost;
        synchronized (this) {
            lost = preempted;
        }
        if (lost) {
            writer.forgetPreempted(owner);
            if (success) {
                throw new SailException(PREEMPTED);
            }
            return;
        }
        writer.endGroup(owner, success);
    }
}
