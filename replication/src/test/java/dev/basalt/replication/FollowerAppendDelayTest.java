package dev.basalt.replication;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.ratis.client.RaftClient;
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
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.util.TimeDuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FollowerAppendDelay} still reaches the Ratis on the class path: on a plain three-server
 * Ratis group (Ratis's no-op state machine, no Basalt) with compose on, a held follower's log does
 * not grow while the other two commit a write, and grows once the hold is released; with
 * synchronous appends ({@link ReplicaNode#appendSynchronously}) there is nothing to hold. If a Ratis
 * upgrade moves the private chain the hold reaches into, this test fails, rather than
 * {@code PartitionTest}'s held-append case passing without testing anything. Run by JUnit's one
 * thread.
 */
class FollowerAppendDelayTest {
    @TempDir
    Path dir;

    @Test
    void aHeldFollowerAppendsNothingUntilReleasedOnRatisComposePath() throws Exception {
        try (Group group = new Group(dir, true)) {
            int leader = group.awaitLeaderAndAllInStep();
            int held = (leader + 1) % 3;
            RaftServer.Division follower = group.division(held);
            long nextBefore = follower.getRaftLog().getNextIndex();
            long index;
            try (FollowerAppendDelay delay = FollowerAppendDelay.hold(follower)) {
                assertTrue(delay.holding(), "compose is on, yet nothing is held");
                RaftClientReply reply = group.client.io().send(Message.valueOf("held"));
                assertTrue(reply.isSuccess(), () -> "the write was not committed by the two others: " + reply);
                index = reply.getLogIndex();
                Thread.sleep(500);
                long next = follower.getRaftLog().getNextIndex();
                if (next > index) {
                    fail("the held follower appended entry " + index + " (its log went from " + nextBefore + " to "
                            + next + "): FollowerAppendDelay no longer holds appends on "
                            + FollowerAppendDelay.ratisJar() + ", so PartitionTest's held-append case cannot"
                            + " reproduce the race it is for; see FollowerAppendDelay's class comment");
                }
            }
            long deadline = System.currentTimeMillis() + 30_000;
            while (follower.getRaftLog().getNextIndex() <= index && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(follower.getRaftLog().getNextIndex() > index,
                    "the follower did not append entry " + index + " within 30 s of the release");
        }
    }

    @Test
    void aFollowerAppendingSynchronouslyHasNothingToHold() throws Exception {
        try (Group group = new Group(dir, false)) {
            int leader = group.awaitLeaderAndAllInStep();
            try (FollowerAppendDelay delay = FollowerAppendDelay.hold(group.division((leader + 1) % 3))) {
                assertFalse(delay.holding());
            }
        }
    }

    /** Three Ratis servers with no-op state machines on free loopback ports, and a client. */
    private static final class Group implements AutoCloseable {
        final List<RaftServer> servers = new ArrayList<>();
        final RaftClient client;
        final RaftGroup group;

        Group(Path dir, boolean compose) throws IOException {
            List<RaftPeer> peers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                peers.add(RaftPeer.newBuilder().setId("f" + i).setAddress("127.0.0.1:" + freePort()).build());
            }
            group = RaftGroup.valueOf(RaftGroupId.valueOf(UUID.randomUUID()), peers);
            RaftProperties common = new RaftProperties();
            RaftServerConfigKeys.Rpc.setTimeoutMin(common, TimeDuration.valueOf(600, TimeUnit.MILLISECONDS));
            RaftServerConfigKeys.Rpc.setTimeoutMax(common, TimeDuration.valueOf(1200, TimeUnit.MILLISECONDS));
            if (compose) {
                RaftServerConfigKeys.Log.setAppendEntriesComposeEnabled(common, true);
            } else {
                ReplicaNode.appendSynchronously(common);
            }
            try {
                for (int i = 0; i < 3; i++) {
                    RaftProperties p = new RaftProperties(common);
                    RaftServerConfigKeys.setStorageDir(p, List.of(dir.resolve("f" + i).toFile()));
                    String address = peers.get(i).getAddress();
                    GrpcConfigKeys.Server.setPort(p, Integer.parseInt(address.substring(address.indexOf(':') + 1)));
                    RaftServer server = RaftServer.newBuilder().setServerId(RaftPeerId.valueOf("f" + i)).setGroup(group)
                            .setStateMachine(new BaseStateMachine()).setProperties(p)
                            .setOption(RaftStorage.StartupOption.FORMAT).build();
                    servers.add(server);
                    server.start();
                }
                client = RaftClient.newBuilder().setProperties(common).setRaftGroup(group).build();
            } catch (IOException | RuntimeException e) {
                close();
                throw e;
            }
        }

        private static int freePort() throws IOException {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                return socket.getLocalPort();
            }
        }

        RaftServer.Division division(int i) throws IOException {
            return servers.get(i).getDivision(group.getGroupId());
        }

        /** The leader's index, once a write went through and every server's log ends at the same index. */
        int awaitLeaderAndAllInStep() throws Exception {
            RaftClientReply first = client.io().send(Message.valueOf("first"));
            assertTrue(first.isSuccess(), () -> "no write committed: " + first);
            long deadline = System.currentTimeMillis() + 30_000;
            while (System.currentTimeMillis() < deadline) {
                int leader = -1;
                boolean inStep = true;
                for (int i = 0; i < 3; i++) {
                    RaftServer.Division d = division(i);
                    leader = d.getInfo().isLeader() ? i : leader;
                    inStep &= d.getRaftLog().getNextIndex() > first.getLogIndex();
                }
                if (leader >= 0 && inStep) {
                    return leader;
                }
                Thread.sleep(20);
            }
            throw new AssertionError("no leader with every log past index " + first.getLogIndex() + " within 30 s");
        }

        @Override
        public void close() throws IOException {
            if (client != null) {
                client.close();
            }
            for (RaftServer s : servers) {
                s.close();
            }
        }
    }
}
