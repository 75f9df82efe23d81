package dev.basalt.replication;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.sail.SailConnection;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.helpers.SailWrapper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.BasaltStore;
import dev.basalt.store.StoreBackup;

/**
 * A Basalt store replicated over a Raft group (docs/replication.md). Connections read the local
 * store; a transaction's writes are recorded as a {@link dev.basalt.replication.log.ChangeSet} (a
 * transaction that reads begins a local transaction for its view, see {@link ReplicatedConnection}) and,
 * at commit, submitted as one log entry, which the {@link StoreStateMachine} of every replica (this
 * one included) applies in log order. The local store is written by the state machine only, so all
 * replicas hold the same statements after the same entries. {@code commit()} returns once a majority
 * has the entry and this replica has applied it; {@link #appliedIndex()} and {@link #awaitApplied}
 * give read-your-writes across replicas.
 *
 * <p>The Raft log, snapshots and the applied index live under {@code <dataDir>/replication/}.
 * Isolation levels: NONE, READ_COMMITTED and SNAPSHOT_READ (the default); a change set is computed
 * on the transaction's snapshot and applied as it stands at its place in the log, so SNAPSHOT and
 * SERIALIZABLE, which need write conflicts detected, are not offered.
 *
 * <p>Thread-safe like the Basalt store it wraps: connections are opened and used from any threads;
 * the replica node is created in {@link #init()} and published through a volatile field.
 */
public final class ReplicatedSail extends SailWrapper implements LocalStore {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicatedSail.class);
    public static final String REPLICATION_DIR = "replication";
    static final List<IsolationLevel> LEVELS = List.of(IsolationLevels.NONE, IsolationLevels.READ_COMMITTED,
            IsolationLevels.SNAPSHOT_READ);

    private final ReplicationSettings settings;
    private volatile ReplicaNode node;
    private volatile ReplicaMBean.Registration mbean;
    /** Transactions begun on this sail's connections, and those of them that began a local transaction. */
    final LongAdder transactionsBegun = new LongAdder();
    final LongAdder localTransactionsBegun = new LongAdder();

    /** A replicated sail whose Basalt store is set later ({@link #setBaseSail}), as RDF4J stacks sails. */
    public ReplicatedSail(ReplicationSettings settings) {
        this.settings = settings;
    }

    public ReplicatedSail(BasaltStore store, ReplicationSettings settings) {
        this(settings);
        setBaseSail(store);
    }

    public ReplicationSettings settings() {
        return settings;
    }

    @Override
    public void init() throws SailException {
        super.init();
        Path dir = replicationDir();
        try {
            Files.createDirectories(dir);
            StoreStateMachine stateMachine = new StoreStateMachine(this, new AppliedIndex(dir.resolve("applied-index")));
            node = ReplicaNode.start(settings, dir.resolve("raft"), stateMachine);
            mbean = ReplicaMBean.register(this);
        } catch (IOException | RuntimeException e) {
            super.shutDown();
            throw new SailException("cannot start replica " + settings.nodeId() + " (Raft port " + settings.raftPort()
                    + ", log in " + dir + "): " + e.getMessage(), e);
        }
    }

    private Path replicationDir() {
        File dataDir = getBaseSail().getDataDir();
        if (dataDir == null) {
            throw new SailException("a replicated store needs a data directory (its Raft log lives there)");
        }
        return dataDir.toPath().resolve(REPLICATION_DIR);
    }

    @Override
    public void shutDown() throws SailException {
        ReplicaNode n = node;
        node = null;
        if (mbean != null) {
            mbean.close();
            mbean = null;
        }
        try {
            if (n != null) {
                n.close();
            }
        } catch (IOException e) {
            LOG.warn("closing replica {}: {}", settings.nodeId(), e.getMessage());
        } finally {
            super.shutDown();
        }
    }

    @Override
    public SailConnection getConnection() throws SailException {
        return new ReplicatedConnection(this, super.getConnection());
    }

    @Override
    public List<IsolationLevel> getSupportedIsolationLevels() {
        return LEVELS;
    }

    @Override
    public IsolationLevel getDefaultIsolationLevel() {
        return IsolationLevels.SNAPSHOT_READ;
    }

    /** The last log index applied to this replica's store. */
    public long appliedIndex() {
        return node().stateMachine().appliedIndex();
    }

    /** Waits until log entry {@code index} is applied here; false on timeout. */
    public boolean awaitApplied(long index, long timeoutMillis) throws InterruptedException {
        return node().stateMachine().awaitApplied(index, timeoutMillis);
    }

    /**
     * One line for a diagnosis: Raft role, leader, term, commit index, applied indices, the applier's
     * and the group commit's state (see {@code ReplicaNode#describe}); answers even when the replica
     * stopped applying the log.
     */
    public String describe() {
        ReplicaNode n = node;
        return n == null ? settings.nodeId() + ": not running" : n.describe();
    }

    /** True if this replica is the Raft leader now. */
    public boolean isLeader() throws IOException {
        return node().isLeader();
    }

    /** Snapshots this replica installed in place of its store since it started (for tests). */
    int snapshotsInstalled() {
        return node().stateMachine().snapshotsInstalled();
    }

    /** Hands leadership to node {@code nodeId} (see {@code ReplicaNode#transferLeadership}). */
    void transferLeadership(String nodeId, long timeoutMillis) throws IOException {
        node().transferLeadership(nodeId, timeoutMillis);
    }

    /** This replica's Raft log, for tests that inspect its entries. */
    org.apache.ratis.server.raftlog.RaftLog raftLog() throws IOException {
        return node().division().getRaftLog();
    }

    /** Log entries this node's commits were sent in, and the transactions in them (group commit). */
    long[] groupCounts() {
        return node().groupCounts();
    }

    /** Attempts to append an entry handed to this node's own Raft server, and sent to another node (for tests). */
    long[] submitAttempts() {
        return node().submitAttempts();
    }

    /** Store transactions this replica applied through the bulk loader since it started (for tests). */
    int bulkApplied() {
        return node().stateMachine().bulkApplied();
    }

    int bulkFallbacks() {
        return node().stateMachine().bulkFallbacks();
    }

    /** See {@link ReplicaMXBean#linearizableIndex}. */
    public long linearizableIndex(long timeoutMillis) throws IOException, InterruptedException {
        ReplicaNode n = node();
        long index = n.leaderAppliedIndex();
        return n.stateMachine().awaitApplied(index, timeoutMillis) ? index : -1;
    }

    /** LEADER, FOLLOWER, CANDIDATE, or STOPPED if the replica stopped applying the log. */
    public String role() throws IOException {
        ReplicaNode n = node;
        if (n == null || n.stateMachine().failure() != null) {
            return "STOPPED";
        }
        return n.role();
    }

    /** The leader's id as this replica knows it, or null. */
    public String leaderId() throws IOException {
        return node().leaderId();
    }

    /**
     * Changes the cluster's membership to {@code peers} ({@code id=host:port,...}); see
     * docs/replication.md, "Add a node".
     */
    public void setPeers(String peers) throws IOException {
        node().setPeers(ReplicationSettings.parsePeers(peers));
    }

    /** This replica's member of the Raft group (for fault-injection tests). */
    org.apache.ratis.server.RaftServer.Division raftDivision() throws IOException {
        return node().division();
    }

    /** Appends one raw log entry (for fault-injection tests: a split transaction's parts alone). */
    long submit(byte[] entry) throws IOException {
        return node().submit(entry);
    }

    /**
     * Starts sending an upload entry whose header is {@code header} while its body is still read
     * (see {@link UploadStream}).
     */
    UploadStream uploadStream(byte[] header) {
        return new UploadStream(node(), header);
    }

    /** Commits one encoded change set through the log; see {@link ReplicaNode#commit}. */
    long commit(byte[] entry) throws IOException {
        return node().commit(entry);
    }

    private ReplicaNode node() {
        ReplicaNode n = node;
        if (n == null) {
            throw new SailException("replica " + settings.nodeId() + " is not running");
        }
        Throwable failure = n.stateMachine().failure();
        if (failure != null) {
            throw new SailException("replica " + settings.nodeId() + " stopped applying the log: "
                    + failure.getMessage() + "; restart it to resume", failure);
        }
        return n;
    }

    private BasaltStore store() {
        return (BasaltStore) getBaseSail();
    }

    @Override
    public ValueFactory valueFactory() {
        return store().getValueFactory();
    }

    @Override
    public SailConnection connection() {
        return store().getConnection();
    }

    @Override
    public Path tempDir() {
        return store().getDataDir().toPath();
    }

    @Override
    public void backup(Path target) {
        store().backup(target, -1);
    }

    @Override
    public void replaceWith(Path backup) throws IOException {
        BasaltStore store = store();
        Path journal = store.getDataDir().toPath().resolve(BasaltStore.JOURNAL_FILE);
        Path previous = journal.resolveSibling(BasaltStore.JOURNAL_FILE + ".replaced");
        store.shutDown();
        Files.move(journal, previous, StandardCopyOption.REPLACE_EXISTING);
        try {
            StoreBackup.restore(backup, journal, store.getConfig().toStoreConfig());
        } catch (RuntimeException e) {
            Files.move(previous, journal, StandardCopyOption.REPLACE_EXISTING);
            store.init();
            throw new IOException("cannot install snapshot " + backup + ": " + e.getMessage(), e);
        }
        store.init();
        Files.delete(previous);
    }

    @Override
    public void setBaseSail(Sail baseSail) {
        if (!(baseSail instanceof BasaltStore)) {
            throw new IllegalArgumentException("a replicated store wraps a Basalt store, not "
                    + baseSail.getClass().getName());
        }
        super.setBaseSail(baseSail);
    }
}
