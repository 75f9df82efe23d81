package dev.basalt.replication;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftGroupMemberId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;
import org.apache.ratis.util.LifeCycle;
import org.apache.ratis.util.MD5FileUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Raft state machine of one replica: applies each committed log entry, in log order, to the
 * local Basalt store (on every node, the leader included), through a {@link BatchApplier} that
 * applies the entries waiting at a time as one store transaction and then records the last one's
 * index in the {@link AppliedIndex} file. Entries at or below that index are skipped, so a
 * restart, which Ratis begins at the latest snapshot, does not apply anything twice; a replayed entry
 * would be harmless anyway (change sets are idempotent).
 *
 * <p><b>Snapshots.</b> {@link #takeSnapshot()} writes a hot backup of the store's newest commit
 * point (which holds exactly the entries up to the last applied index: Ratis waits for every applied
 * entry before it asks, and the applier holds the store alone meanwhile) as {@code snapshot.<term>_<index>} with an MD5 file; Ratis then may
 * purge the log up to it and streams it to a replica that needs entries no longer in the log, where
 * {@link #reinitialize()} replaces the store's journal with it.
 *
 * <p>No snapshot is taken while pieces of a split transaction are staged (they live in the log and in
 * memory only, not in the store); Ratis asks again later.
 *
 * <p><b>Failure.</b> If applying an entry fails (a full disk, say), the replica stops applying:
 * that entry and every later one answer with the failure, {@link #failure()} reports it, and the
 * store stays at the last good entry until the node is restarted, when the replay resumes there.
 *
 * <p>Thread rules: Ratis calls {@code applyTransaction}, {@code takeSnapshot}, {@code reinitialize}
 * and {@code notifyTermIndexUpdated} from its one state machine updater thread
 * ({@code notifyLeaderReady} too; {@code notifyLeaderChanged} from whichever Ratis thread changes the
 * leader: its fields are volatile or atomic); the store is written
 * on the applier's thread; {@link #awaitApplied} and {@link #appliedIndex()} may be called from any
 * thread.
 */
final class StoreStateMachine extends BaseStateMachine {
    private static final Logger LOG = LoggerFactory.getLogger(StoreStateMachine.class);

    private final LocalStore store;
    private final AppliedIndex appliedFile;
    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final Object appliedChanged = new Object();
    private volatile BatchApplier applier;
    private volatile long applied = -1;
    private volatile int snapshotsInstalled;
    /** When this server was last elected (System.nanoTime), and how many times it was in this JVM. */
    private volatile long electedNanos;
    private final AtomicInteger leaderships = new AtomicInteger();

    /** Split transactions whose last part lies this many entries behind are dropped (see StagedTransactions). */
    static final long EXPIRE_ENTRIES = 100_000;

    private final long expireEntries;

    StoreStateMachine(LocalStore store, AppliedIndex appliedFile) {
        this(store, appliedFile, EXPIRE_ENTRIES);
    }

    StoreStateMachine(LocalStore store, AppliedIndex appliedFile, long expireEntries) {
        this.expireEntries = expireEntries;
        this.store = store;
        this.appliedFile = appliedFile;
    }

    @Override
    public void initialize(RaftServer server, RaftGroupId groupId, RaftStorage raftStorage) throws IOException {
        long storeApplied = appliedFile.read();
        getLifeCycle().startAndTransition(() -> {
            super.initialize(server, groupId, raftStorage);
            storage.init(raftStorage);
            applier = new BatchApplier("basalt-apply-" + server.getId(), store, appliedFile, storeApplied,
                    this::updateApplied, expireEntries);
        }, IOException.class);
        // the store's reads include every entry up to its applied index from the start, before the log's
        // replay (which waits for a leader's commit index: replicas keep no commit index of their own
        // in the log) reaches past it
        synchronized (appliedChanged) {
            applied = Math.max(applied, storeApplied);
        }
        LOG.info("replica {}: store holds log entries up to {}, latest snapshot {}", server.getId(), storeApplied,
                storage.getLatestSnapshot());
    }

    @Override
    public StateMachineStorage getStateMachineStorage() {
        return storage;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
        LogEntryProto entry = trx.getLogEntry();
        CompletableFuture<Message> done = new CompletableFuture<>();
        applier.submit(new BatchApplier.Entry(entry.getTerm(), entry.getIndex(),
                entry.getStateMachineLogEntry().getLogData().toByteArray(), done));
        return done;
    }

    /**
     * Notes when this server is elected (Ratis calls this as the election passes, before it builds
     * the leader's state and appenders), for {@link #notifyLeaderReady}.
     */
    @Override
    public void notifyLeaderChanged(RaftGroupMemberId member, RaftPeerId leader) {
        if (member.getPeerId().equals(leader)) {
            electedNanos = System.nanoTime();
            leaderships.incrementAndGet();
        }
    }

    /**
     * Logs how long this leadership took from the election to its first entry committed (the leader's
     * appenders started, a majority answered, the entry applied here): until then the new leader takes
     * no writes, and a first leadership in a JVM took longest (docs/replication.md, "Failover").
     */
    @Override
    public void notifyLeaderReady() {
        long elected = electedNanos;
        if (elected != 0) {
            LOG.info("replica {}: leader ready {} ms after its election (its first entry of the term committed;"
                    + " leadership {} in this JVM)", getId(), (System.nanoTime() - elected) / 1_000_000, leaderships);
        }
    }

    @Override
    public void notifyTermIndexUpdated(long term, long index) {
        applier.submit(new BatchApplier.Entry(term, index, null, null));
    }

    private void updateApplied(long term, long index) {
        if (index > getLastAppliedTermIndex().getIndex()) {
            updateLastAppliedTermIndex(term, index);
        }
        synchronized (appliedChanged) {
            if (index > applied) {
                applied = index;
                appliedChanged.notifyAll();
            }
        }
    }

    /** Answers a read-only request (any content) with this replica's applied index, 8 bytes big-endian. */
    @Override
    public CompletableFuture<Message> query(Message request) {
        return CompletableFuture.completedFuture(Message.valueOf(
                UnsafeByteOperations.unsafeWrap(ByteBuffer.allocate(8).putLong(0, applied))));
    }

    static long decodeIndex(Message reply) {
        return reply.getContent().asReadOnlyByteBuffer().getLong();
    }

    /** The last log index this replica has applied (its reads include every entry up to it). */
    long appliedIndex() {
        return applied;
    }

    @Override
    public void close() throws IOException {
        BatchApplier a = applier;
        if (a != null) {
            a.close();
        }
        super.close();
    }

    /** Snapshots installed in place of the store since the replica started. */
    int snapshotsInstalled() {
        return snapshotsInstalled;
    }

    /** Store transactions applied through the bulk loader since the replica started. */
    int bulkApplied() {
        BatchApplier a = applier;
        return a == null ? 0 : a.bulkApplied();
    }

    int bulkFallbacks() {
        BatchApplier a = applier;
        return a == null ? 0 : a.bulkFallbacks();
    }

    /** The applier's state in one line (see {@link BatchApplier#describe}). */
    String describe() {
        BatchApplier a = applier;
        return a == null ? "applier{not started}" : a.describe();
    }

    /** Null while the replica applies the log, else why it stopped. */
    Throwable failure() {
        BatchApplier a = applier;
        return a == null ? null : a.failure();
    }

    /** Waits until entry {@code index} is applied here; false if {@code timeoutMillis} passed first. */
    boolean awaitApplied(long index, long timeoutMillis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        synchronized (appliedChanged) {
            while (applied < index) {
                long left = deadline - System.nanoTime();
                if (left <= 0 || failure() != null) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(appliedChanged, left);
            }
            return true;
        }
    }

    @Override
    public long takeSnapshot() throws IOException {
        return applier.exclusive(storeApplied -> {
            TermIndex last = getLastAppliedTermIndex();
            SingleFileSnapshotInfo latest = storage.getLatestSnapshot();
            long latestIndex = latest == null ? -1 : latest.getIndex();
            if (failure() != null || last.getIndex() <= latestIndex || last.getIndex() < storeApplied) {
                // the store is not exactly at `last` (failed, or replaying below what it already holds)
                return latestIndex;
            }
            if (applier.staging()) {
                // staged parts are in the log only: the log must not be purged past them
                LOG.info("no snapshot at log index {}: a split transaction's parts are staged", last.getIndex());
                return latestIndex;
            }
            File file = storage.getSnapshotFile(last.getTerm(), last.getIndex());
            Files.deleteIfExists(file.toPath());
            store.backup(file.toPath());
            FileInfo info = new FileInfo(file.toPath(), MD5FileUtil.computeAndSaveMd5ForFile(file));
            storage.updateLatestSnapshot(new SingleFileSnapshotInfo(info, last));
            LOG.info("snapshot of log index {} written to {}", last.getIndex(), file);
            return last.getIndex();
        });
    }

    /** Ratis pauses the state machine before it installs a snapshot, then calls {@link #reinitialize()}. */
    @Override
    public void pause() {
        if (getLifeCycleState() == LifeCycle.State.RUNNING) {
            getLifeCycle().transition(LifeCycle.State.PAUSING);
            getLifeCycle().transition(LifeCycle.State.PAUSED);
        }
    }

    @Override
    public void reinitialize() throws IOException {
        SingleFileSnapshotInfo snapshot = storage.loadLatestSnapshot();
        applier.exclusive(storeApplied -> {
            if (snapshot != null && snapshot.getIndex() > storeApplied) {
                install(snapshot, storeApplied);
            }
            return null;
        });
        if (getLifeCycleState() == LifeCycle.State.PAUSED) {
            getLifeCycle().transition(LifeCycle.State.STARTING);
            getLifeCycle().transition(LifeCycle.State.RUNNING);
        }
    }

    /** Called with the store held alone ({@link BatchApplier#exclusive}). */
    private void install(SingleFileSnapshotInfo snapshot, long storeApplied) throws IOException {
        File file = snapshot.getFile().getPath().toFile();
        if (snapshot.getFile().getFileDigest() != null) {
            MD5FileUtil.verifySavedMD5(file, snapshot.getFile().getFileDigest());
        }
        LOG.info("installing snapshot {} (log index {}) in place of the local store at index {}", file,
                snapshot.getIndex(), storeApplied);
        store.replaceWith(file.toPath());
        appliedFile.write(snapshot.getTerm(), snapshot.getIndex());
        applier.installed(snapshot.getIndex());
        snapshotsInstalled++;
        setLastAppliedTermIndex(snapshot.getTermIndex());
        updateApplied(snapshot.getTerm(), snapshot.getIndex());
    }
}
