package dev.basalt.replication;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.client.RaftClientConfigKeys;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.replication.log.LogEntries;
import dev.basalt.replication.log.UploadEntry;

/**
 * One member of the Raft group: the Ratis server (log, elections, replication over gRPC) driving
 * a {@link StoreStateMachine}, and a Ratis client (its RPC carries this node's commits to a leader
 * elsewhere; linearizable reads and membership changes). The node hands each entry to the leader
 * wherever it runs ({@link EntrySubmitter}: to its own server in process when it leads, else over
 * the network), so a commit on a follower is forwarded;
 * {@link #commit} returns once the entry is committed by a majority and applied here. Concurrent
 * small commits share log entries ({@link GroupCommitter}).
 *
 * <p>Thread-safe: any number of threads may commit at once (entries are ordered by the log).
 */
final class ReplicaNode implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaNode.class);
    /**
     * The largest log entry the Raft limits below are sized for (a piece of a split transaction is at
     * most {@link ReplicationSettings#MAX_PIECE_BYTES} plus a header).
     */
    static final int MAX_ENTRY_BYTES = 16 << 20;
    private static final long RETRY_SLEEP_MILLIS = 100;
    /** How long the leader waits before it retries a failed follower: 10 times 1 ms, 100 times 100 ms, then 1 s. */
    static final String APPENDER_RETRY_POLICY = "1ms,10, 100ms,100, 1s,1000000";

    private final ReplicationSettings settings;
    private final StoreStateMachine stateMachine;
    private final RaftServer server;
    private final RaftClient client;
    private final CommitRetryPolicy retryPolicy;
    private final EntrySubmitter submitter;
    private final GroupCommitter groups;

    private ReplicaNode(ReplicationSettings settings, StoreStateMachine stateMachine, RaftServer server,
            RaftClient client, CommitRetryPolicy retryPolicy) {
        this.settings = settings;
        this.stateMachine = stateMachine;
        this.server = server;
        this.client = client;
        this.retryPolicy = retryPolicy;
        long attemptMillis = attemptMillis(settings);
        this.submitter = new EntrySubmitter(server, group(settings).getGroupId(), client.getClientRpc(), attemptMillis,
                Math.max(RETRY_SLEEP_MILLIS, settings.commitTimeoutMillis() - attemptMillis), RETRY_SLEEP_MILLIS);
        // an entry on its way longer than one client attempt is retrying (a dead or frozen leader):
        // the change sets behind it go in an entry of their own, to the leader the client knows now
        this.groups = new GroupCommitter("basalt-group-commit-" + settings.nodeId(), this::submit,
                settings.pieceBytes(), settings.commitTimeoutMillis(), attemptMillis(settings));
    }

    /**
     * Starts the Raft server with its log under {@code raftDir}; it replays the log into the store.
     * The first start in a JVM warms Ratis's leader path first ({@link LeaderPathWarmUp}).
     */
    static ReplicaNode start(ReplicationSettings settings, Path raftDir, StoreStateMachine stateMachine)
            throws IOException {
        // before the node stands for election: its first leadership in this JVM then starts warm
        LeaderPathWarmUp.runOnce(settings, raftDir.resolveSibling(raftDir.getFileName() + "-warm-up"));
        RaftGroup group = group(settings);
        RaftProperties properties = properties(settings, raftDir);
        RaftServer server = RaftServer.newBuilder()
                .setServerId(RaftPeerId.valueOf(settings.nodeId()))
                .setGroup(group)
                .setStateMachine(stateMachine)
                .setProperties(properties)
                .setOption(RaftStorage.StartupOption.RECOVER)
                .build();
        try {
            server.start();
        } catch (IOException | RuntimeException e) {
            // a server that failed to start (its port taken, say) still holds its storage's lock:
            // released, the node can be started again in this process
            try {
                server.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        // one attempt waits at most a third of the commit timeout (1 to 3 s), and the retries stop
        // when the commit timeout is spent, however the attempts fail
        long attemptMillis = attemptMillis(settings);
        RaftProperties clientProperties = new RaftProperties(properties);
        RaftClientConfigKeys.Rpc.setRequestTimeout(clientProperties,
                TimeDuration.valueOf(attemptMillis, TimeUnit.MILLISECONDS));
        CommitRetryPolicy retryPolicy = new CommitRetryPolicy(
                Math.max(RETRY_SLEEP_MILLIS, settings.commitTimeoutMillis() - attemptMillis), RETRY_SLEEP_MILLIS);
        RaftClient client = RaftClient.newBuilder()
                .setProperties(clientProperties)
                .setRaftGroup(group)
                .setRetryPolicy(retryPolicy)
                .build();
        LOG.info("replica {} of cluster '{}' listening for Raft on port {}, peers {}", settings.nodeId(),
                settings.cluster(), settings.raftPort(), settings.peersString());
        return new ReplicaNode(settings, stateMachine, server, client, retryPolicy);
    }

    /** How long one attempt of the Raft client waits: a third of the commit timeout, 1 to 3 s. */
    static long attemptMillis(ReplicationSettings settings) {
        return Math.max(1_000, Math.min(3_000, settings.commitTimeoutMillis() / 3));
    }

    static RaftGroup group(ReplicationSettings settings) {
        UUID id = UUID.nameUUIDFromBytes(("basalt-replication:" + settings.cluster()).getBytes(StandardCharsets.UTF_8));
        return RaftGroup.valueOf(RaftGroupId.valueOf(id), peers(settings.peers()));
    }

    private static List<RaftPeer> peers(Map<String, String> addresses) {
        List<RaftPeer> peers = new ArrayList<>();
        for (Map.Entry<String, String> p : addresses.entrySet()) {
            peers.add(RaftPeer.newBuilder().setId(p.getKey()).setAddress(p.getValue()).build());
        }
        return peers;
    }

    /**
     * Changes the group's membership to {@code peers} (id to host:port) through Ratis's
     * configuration change, sent to the leader; a new member must be running (started with the new
     * list) and is brought up to date by the leader before the change commits.
     */
    void setPeers(Map<String, String> peers) throws IOException {
        RaftClientReply reply = client.admin().setConfiguration(peers(peers));
        if (!reply.isSuccess()) {
            throw new IOException("membership change to " + peers.keySet() + " refused: " + reply.getException(),
                    reply.getException());
        }
    }

    /** The Raft server's settings of this replica (package-private for the test that pins them). */
    static RaftProperties properties(ReplicationSettings settings, Path raftDir) {
        RaftProperties p = new RaftProperties();
        RaftServerConfigKeys.setStorageDir(p, List.of(raftDir.toFile()));
        GrpcConfigKeys.Server.setPort(p, settings.raftPort());
        // elections: a follower's timeout is drawn from a wide range (30 % of the setting up to all of
        // it), a leader steps down after all of it without a majority. The range's low end starts a
        // failover early (the first survivor to time out) and sets the heartbeat interval (half of it);
        // its high end keeps a leader whose one live follower answers late on a loaded machine (1.2-1.5
        // s seen at load 45-52 on 2 cores, and a first leadership in a JVM taking up to 1 s to start its
        // appenders): docs/replication.md, "Failover"
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, TimeDuration.valueOf(settings.electionTimeoutMinMillis(),
                TimeUnit.MILLISECONDS));
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, TimeDuration.valueOf(settings.electionTimeoutMillis(),
                TimeUnit.MILLISECONDS));
        // A leader that heard from no majority for an election timeout steps down, and Ratis then keeps
        // it from standing for election for 10 s by default. With one node dead, a pause of the other
        // survivor (a collection, a loaded machine) is enough for that; the leader's log is then often
        // ahead of the survivor's (entries it appended meanwhile), so the survivor cannot win either,
        // and there was no leader for those 10 s: failovers of 16-41 s where the election itself took
        // 1-2 s. Pre-vote (Ratis's default) already keeps a node that was cut off from disrupting a
        // leader elsewhere, so it waits one election timeout.
        RaftServerConfigKeys.LeaderElection.setLeaderStepDownWaitTime(p, TimeDuration.valueOf(
                settings.electionTimeoutMillis(), TimeUnit.MILLISECONDS));
        // A leader retries a follower that failed after a wait that grows with its errors; Ratis's
        // default ("1ms,10, 1s,20, 5s,1000") waits 5 s between attempts once a follower has failed 30
        // times, which a dead node does within seconds. A replica restarted after a crash then waited
        // 2.5-23 s (median 12 s over the 50 restarts of a 50-kill FailoverIT run) for the leader's
        // first entries while the cluster ran on two healthy nodes; retrying every second at most
        // brings it back about as soon as it listens.
        RaftServerConfigKeys.Log.Appender.setRetryPolicy(p, APPENDER_RETRY_POLICY);
        SizeInBytes entryMax = SizeInBytes.valueOf(MAX_ENTRY_BYTES + (1 << 20));
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, entryMax);
        RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(MAX_ENTRY_BYTES + (2 << 20)));
        // an entry larger than a segment gets a segment of its own
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(settings.segmentBytes()));
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf(Math.min(settings.segmentBytes(), 4L << 20)));
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(2 * MAX_ENTRY_BYTES));
        appendSynchronously(p);
        // Ratis's commit-index metadata entries (a log entry of every node's own, appended and synced
        // whenever the commit index moves) only let a restarted node apply entries before it hears
        // from a leader. Raft's safety does not rest on them, and a replica gains nothing from them: its
        // store already holds everything up to its applied index, and what lies beyond waits for the
        // leader either way. Off, they no longer double the log appends and syncs of every commit on
        // every node (docs/replication.md, "Durability").
        RaftServerConfigKeys.Log.setLogMetadataEnabled(p, false);
        // read-only requests (linearizableIndex) confirm leadership by Ratis's read-index protocol
        RaftServerConfigKeys.Read.setOption(p, RaftServerConfigKeys.Read.Option.LINEARIZABLE);
        if (settings.snapshotEvery() > 0) {
            RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
            RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, settings.snapshotEvery());
            RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
            RaftServerConfigKeys.Log.setPurgePreservationLogNum(p, settings.retainEntries());
            RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
            RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.min(settings.snapshotEvery(), 1024));
        }
        return p;
    }

    /**
     * A follower appends what its leader sends in the thread that received it, not on Ratis's
     * chained append path ({@code raft.server.log.append-entries.compose.enabled}, on by default in
     * Ratis 3.3), because of a race on that path that applies an entry no majority has.
     *
     * <p><b>The race.</b> On the compose path a follower registers the received entries' terms and
     * indices and appends them on another thread, one request after the other (RATIS-2235 made the
     * appends run on one chain; RATIS-2387 made the chain optional). A heartbeat's log check also
     * accepts an entry that is registered but not yet appended (RATIS-2242). A heartbeat arriving
     * between the registration and the append therefore passes, and the follower moves its commit
     * index to {@code min(leader commit, heartbeat's previous index, flush index)}; the flush index
     * still counts a deposed leader's own uncommitted entries, which the pending append is about to
     * truncate, so the state machine applies the stale entry at that index: a write the client was
     * told failed, on one replica only (seen as 80 statements against 70 in {@code PartitionTest};
     * docs/benchmarks-replication.md). With synchronous appends the truncation and the append happen
     * under the log's lock before any later request can commit past them. No Ratis issue reporting
     * this race was found (searched on 2026-11-29); the three named above are the changes it comes
     * from.
     *
     * <p>Do not turn compose on again unless {@code FollowerAppendDelayTest} passes (the fault
     * injection still reaches Ratis's chain) and {@code PartitionTest}'s held-append case passes with
     * it on; {@code ReplicaNodePropertiesTest} fails if this setting changes.
     */
    static void appendSynchronously(RaftProperties p) {
        RaftServerConfigKeys.Log.setAppendEntriesComposeEnabled(p, false);
    }

    /**
     * Submits one encoded change set (or upload entry) and returns its log index once a majority has
     * it and this replica has applied it. Change sets go through group commit; an upload entry goes
     * alone. One larger than the settings' piece size goes as parts and a
     * commit entry (docs/replication.md, "Large transactions"); if a part fails, an abort entry is
     * sent (best effort) and the commit fails.
     *
     * @throws IOException if no majority acknowledged it within the commit timeout (the entry may
     *                     still commit later: the outcome is unknown), if the replicas refused a split
     *                     transaction, or if applying it failed
     */
    long commit(byte[] changeSet) throws IOException {
        if (changeSet.length <= settings.pieceBytes()) {
            // an upload goes alone: a group holds change sets only, and its members share one outcome
            return awaitApplied(UploadEntry.isUpload(changeSet) ? submit(changeSet) : groups.submit(changeSet));
        }
        return commitRest(ThreadLocalRandom.current().nextLong(), 0, changeSet);
    }

    /**
     * Commits the rest of split transaction {@code transaction} whose first {@code partsSent} parts
     * were appended already ({@link UploadStream}; 0 for a transaction split here): {@code rest} goes
     * as further parts and the commit entry. As {@link #commit}, an abort is sent if a part fails.
     */
    long commitRest(long transaction, int partsSent, byte[] rest) throws IOException {
        List<byte[]> pieces = LogEntries.split(rest, transaction, partsSent, settings.pieceBytes());
        for (int i = 0; i < pieces.size() - 1; i++) {
            try {
                submit(pieces.get(i));
            } catch (IOException e) {
                abort(transaction);
                throw new IOException("part " + (partsSent + i + 1) + " of " + (partsSent + pieces.size())
                        + " of a transaction of " + (partsSent == 0 ? rest.length + " bytes" : "more than "
                        + rest.length + " bytes") + ": " + e.getMessage(), e);
            }
        }
        return awaitApplied(submit(pieces.get(pieces.size() - 1)));
    }

    /** Sends the abort entry of split transaction {@code transaction}, best effort (a failure is logged). */
    void abort(long transaction) {
        try {
            submit(LogEntries.abort(transaction));
        } catch (IOException e) {
            LOG.warn("could not abort split transaction {} ({}); the replicas drop its parts after {} entries",
                    Long.toHexString(transaction), e.getMessage(), StoreStateMachine.EXPIRE_ENTRIES);
        }
    }

    /**
     * Appends one log entry through the leader ({@link EntrySubmitter}: in process when this node
     * leads); returns its index once a majority has it (not yet applied here). A reply with content
     * is a refusal by the state machine.
     */
    long submit(byte[] entry) throws IOException {
        return submitter.send(entry);
    }

    private long awaitApplied(long index) throws IOException {
        try {
            if (!stateMachine.awaitApplied(index, settings.commitTimeoutMillis())) {
                Throwable failure = stateMachine.failure();
                throw new IOException("log entry " + index + " is committed but this replica has not applied it"
                        + (failure != null ? ": " + failure.getMessage() : " within "
                        + settings.commitTimeoutMillis() + " ms"));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting to apply committed log entry " + index);
        }
        return index;
    }

    /**
     * The leader's applied index, read through Ratis's linearizable read (read index): at least the
     * index of every write acknowledged before this call.
     */
    long leaderAppliedIndex() throws IOException {
        RaftClientReply reply = client.io().sendReadOnly(Message.EMPTY);
        retryPolicy.forget(reply.getCallId());
        if (!reply.isSuccess()) {
            throw new IOException("linearizable read refused: " + reply.getException(), reply.getException());
        }
        return StoreStateMachine.decodeIndex(reply.getMessage());
    }

    /**
     * Asks the leader to hand leadership to {@code nodeId} (before that node's machine is upgraded,
     * say, or in tests); returns once the transfer completed or failed.
     */
    void transferLeadership(String nodeId, long timeoutMillis) throws IOException {
        RaftClientReply reply = client.admin().transferLeadership(RaftPeerId.valueOf(nodeId), timeoutMillis);
        if (!reply.isSuccess()) {
            throw new IOException("leadership not transferred to " + nodeId + ": " + reply.getException(),
                    reply.getException());
        }
    }

    /** This node's member of the Raft group (its log, its role), for diagnoses and fault-injection tests. */
    RaftServer.Division division() throws IOException {
        return server.getDivision(group(settings).getGroupId());
    }

    /** The leader's id as this node knows it, or null. */
    String leaderId() throws IOException {
        var info = division().getInfo();
        var leader = info.getLeaderId();
        return leader == null ? null : leader.toString();
    }

    /** LEADER, FOLLOWER, CANDIDATE or LISTENER. */
    String role() throws IOException {
        return division().getInfo().getCurrentRole().name();
    }

    /**
     * One line for a diagnosis: this node's Raft view (role, leader, term, the log's commit index
     * and next index, Ratis's applied index, the followers' match indices when it leads), the
     * store's applied index, the applier and the group commit.
     */
    String describe() {
        StringBuilder b = new StringBuilder(settings.nodeId()).append(": ");
        try {
            RaftServer.Division division = division();
            var info = division.getInfo();
            var log = division.getRaftLog();
            b.append("role=").append(info.getCurrentRole()).append(", leader=").append(info.getLeaderId())
                    .append(", term=").append(info.getCurrentTerm()).append(", commitIndex=")
                    .append(log.getLastCommittedIndex()).append(", logNext=").append(log.getNextIndex())
                    .append(", ratisApplied=").append(info.getLastAppliedIndex());
            if (info.isLeader()) {
                b.append(", followerMatch=").append(java.util.Arrays.toString(info.getFollowerMatchIndices()));
            }
        } catch (IOException | RuntimeException e) {
            b.append("raft=").append(e);
        }
        b.append(", applied=").append(stateMachine.appliedIndex()).append(", ").append(stateMachine.describe())
                .append(", ").append(groups.describe()).append(", attempts in process/remote=")
                .append(java.util.Arrays.toString(submitter.attempts()));
        return b.toString();
    }

    /** Log entries this node's group commit sent, and the change sets in them. */
    long[] groupCounts() {
        return groups.counts();
    }

    /** Attempts handed to this node's own Raft server, and attempts sent to another node. */
    long[] submitAttempts() {
        return submitter.attempts();
    }

    StoreStateMachine stateMachine() {
        return stateMachine;
    }

    ReplicationSettings settings() {
        return settings;
    }

    /** True if this node is the leader of the group now. */
    boolean isLeader() throws IOException {
        return division().getInfo().isLeader();
    }

    @Override
    public void close() throws IOException {
        groups.close();
        try {
            client.close();
        } finally {
            server.close();
        }
    }

    /** The replicas' state machine refused a transaction: no replica applied it; {@link #reason()} says why. */
    static final class Refused extends IOException {
        private static final long serialVersionUID = 1L;
        private final String reason;

        Refused(String reason) {
            super("the replicas refused the transaction: " + reason);
            this.reason = reason;
        }

        String reason() {
            return reason;
        }
    }
}
