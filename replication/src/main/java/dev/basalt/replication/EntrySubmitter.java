package dev.basalt.replication;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.ratis.client.RaftClientRpc;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.exceptions.NotLeaderException;
import org.apache.ratis.protocol.exceptions.ResourceUnavailableException;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.thirdparty.com.google.protobuf.UnsafeByteOperations;

/**
 * Appends one log entry through the leader and answers its index once a majority has it. When this
 * node's own Raft server leads, the entry is handed to it in process (no gRPC round trip, no
 * protobuf copy of the entry on its way in); otherwise it goes to the leader through the Raft
 * client's RPC (a follower's commit is forwarded this way).
 *
 * <p><b>Every attempt of one entry is the same request.</b> The entry gets a call id of this node's
 * own client id once, and every attempt, in process or over the network, to whichever server leads
 * at the time, carries that client id and call id. A leader's retry cache answers a request it has
 * seen (pending, or applied: Ratis fills every server's retry cache as it applies an entry, and a new
 * leader takes requests only once it has applied every entry of earlier terms) with that entry's
 * outcome instead of appending it again. So a leader that steps down and answers "not leader" for an
 * entry already in its log costs no duplicate: the retry at the new leader finds the entry there.
 *
 * <p>Attempts are retried (no leader yet, "not leader", the leader not ready or stepping down, an
 * attempt timed out or its connection failed) every {@code sleepMillis} until {@code budgetMillis}
 * have passed since the first failure; then the outcome is unknown and the commit fails. A reply
 * with content is the state machine's refusal ({@link ReplicaNode.Refused}); a state machine
 * exception (the leader could not apply the entry) fails at once.
 *
 * <p>Thread-safe: any number of threads may submit at once (each waits for its own entry).
 */
final class EntrySubmitter {
    private final RaftServer server;
    private final RaftGroupId groupId;
    private final RaftClientRpc rpc;
    private final long attemptMillis;
    private final long budgetNanos;
    private final long sleepMillis;
    private final ClientId clientId = ClientId.randomId();
    private final AtomicLong calls = new AtomicLong();
    /** Attempts handed to the local server, and attempts sent over the network (for tests and diagnoses). */
    private final AtomicLong local = new AtomicLong();
    private final AtomicLong remote = new AtomicLong();

    EntrySubmitter(RaftServer server, RaftGroupId groupId, RaftClientRpc rpc, long attemptMillis, long budgetMillis,
            long sleepMillis) {
        this.server = server;
        this.groupId = groupId;
        this.rpc = rpc;
        this.attemptMillis = attemptMillis;
        this.budgetNanos = TimeUnit.MILLISECONDS.toNanos(budgetMillis);
        this.sleepMillis = sleepMillis;
    }

    /** Appends {@code entry} through the leader; its log index once a majority has it. */
    long send(byte[] entry) throws IOException {
        Message message = Message.valueOf(UnsafeByteOperations.unsafeWrap(entry));
        long callId = calls.incrementAndGet();
        RaftPeerId hint = null;
        long firstFailure = 0;
        while (true) {
            RaftPeerId target = hint != null ? hint : leader();
            RaftClientReply reply = null;
            Throwable failed;
            try {
                reply = attempt(target, callId, message);
                failed = retriable(reply);
            } catch (IOException e) {
                failed = e;
                if (target != null && !target.equals(server.getId())) {
                    rpc.handleException(target, e, true);
                }
            }
            if (failed == null) {
                if (!reply.isSuccess()) {
                    throw new IOException("replication log refused the commit: " + reply.getException(),
                            reply.getException());
                }
                if (!reply.getMessage().getContent().isEmpty()) {
                    throw new ReplicaNode.Refused(reply.getMessage().getContent().toStringUtf8());
                }
                return reply.getLogIndex();
            }
            hint = suggested(reply);
            long now = System.nanoTime();
            if (firstFailure == 0) {
                firstFailure = now;
            } else if (now - firstFailure >= budgetNanos) {
                throw new IOException("no majority acknowledged the entry within "
                        + TimeUnit.NANOSECONDS.toMillis(budgetNanos) + " ms of retries (last: " + failed
                        + "); the outcome is unknown", failed);
            }
            try {
                Thread.sleep(sleepMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted waiting for a majority; the outcome is unknown");
            }
        }
    }

    /** The leader as this node's server knows it (made known to the RPC: a member may have joined since), or null. */
    private RaftPeerId leader() {
        try {
            RaftServer.Division division = server.getDivision(groupId);
            RaftPeerId leader = division.getInfo().getLeaderId();
            if (leader != null && !leader.equals(server.getId())) {
                RaftPeer peer = division.getRaftConf().getPeer(leader);
                if (peer != null) {
                    rpc.addRaftPeers(List.of(peer));
                }
            }
            return leader;
        } catch (IOException e) {
            return null;
        }
    }

    /** One attempt at {@code target}: in process if it is this node (or no leader is known), else over the network. */
    private RaftClientReply attempt(RaftPeerId target, long callId, Message message) throws IOException {
        boolean here = target == null || target.equals(server.getId());
        RaftClientRequest request = RaftClientRequest.newBuilder()
                .setClientId(clientId)
                .setServerId(here ? server.getId() : target)
                .setGroupId(groupId)
                .setCallId(callId)
                .setMessage(message)
                .setType(RaftClientRequest.writeRequestType())
                .build();
        if (!here) {
            remote.incrementAndGet();
            return rpc.sendRequest(request);
        }
        local.incrementAndGet();
        try {
            return server.submitClientRequestAsync(request).get(attemptMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted waiting for a majority; the outcome is unknown");
        } catch (TimeoutException e) {
            throw new IOException("attempt not answered within " + attemptMillis + " ms", e);
        } catch (ExecutionException e) {
            throw new IOException("attempt failed: " + e.getCause(), e.getCause());
        }
    }

    /**
     * Why the reply calls for another attempt, or null if it is final (a success, a refusal or a
     * state machine failure).
     */
    private static Throwable retriable(RaftClientReply reply) {
        if (reply.isSuccess() || reply.getStateMachineException() != null) {
            return null;
        }
        if (reply.getNotLeaderException() != null || reply.getLeaderNotReadyException() != null
                || reply.getLeaderSteppingDownException() != null || reply.getTransferLeadershipException() != null
                || reply.getAlreadyClosedException() != null
                || reply.getException() instanceof ResourceUnavailableException) {
            return reply.getException();
        }
        return null;
    }

    /** The leader a "not leader" reply names (its peers made known to the RPC), or null. */
    private RaftPeerId suggested(RaftClientReply reply) {
        NotLeaderException notLeader = reply == null ? null : reply.getNotLeaderException();
        if (notLeader == null || notLeader.getSuggestedLeader() == null) {
            return null;
        }
        if (notLeader.getPeers() != null) {
            rpc.addRaftPeers(notLeader.getPeers());
        }
        RaftPeer leader = notLeader.getSuggestedLeader();
        rpc.addRaftPeers(List.of(leader));
        return leader.getId();
    }

    /** Attempts handed to this node's own server, and attempts sent to another node. */
    long[] attempts() {
        return new long[] {local.get(), remote.get()};
    }
}
