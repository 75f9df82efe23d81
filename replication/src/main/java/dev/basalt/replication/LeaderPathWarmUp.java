package dev.basalt.replication;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.grpc.GrpcConfigKeys;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.util.SizeInBytes;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Ratis's leader path once in this JVM before a replica's own Raft server starts, so that the
 * node's first leadership does not pay for it. Ratis builds a leader's state and its log appenders
 * only when an election passes; the first time in a JVM that loads and runs, interpreted, the
 * leader's classes (leader state, gRPC log appenders and their streams, the commit and reply paths)
 * and took up to 7.7 s on a loaded 2-core machine, against at most 0.2 s for a later leadership in
 * the same JVM: time out of the grace a new leader gets before it must hear from a majority, so such
 * leaders stepped down and failovers took over 5 s (docs/benchmarks-replication.md).
 *
 * <p>The warm-up starts a throwaway group of three Ratis servers in this process, on loopback ports
 * the operating system hands out and in a directory of its own beside the node's log, with the
 * replica's own Raft settings (its election timeout too: a cold JVM's first vote requests over gRPC
 * outlast a shorter one on a loaded machine; buffers scaled down) and a state machine that applies
 * nothing. It waits for a leader, commits {@link #ENTRIES} entries through Basalt's own submission
 * path ({@link EntrySubmitter}: half in process on the leader, half over gRPC from a follower),
 * closes the leader, waits for the other two to elect one (a failover: pre-vote, vote, a second
 * leader's appenders) and commits a few entries more; then it closes everything and deletes its
 * directory. It joins no real group and writes nothing the node keeps. It is best effort: a failure
 * or a warm-up longer than {@link #DEADLINE_MILLIS} is logged and the node starts anyway.
 *
 * <p>On by default; {@code -Dbasalt.replication.warmUp=false} turns it off (to measure what it buys).
 *
 * <p>Thread rules: {@link #runOnce} is synchronized and runs the warm-up at most once per JVM, on the
 * caller's thread (the first replica start), with {@link #WRITERS} daemon threads of its own that
 * commit the entries and end before it goes on; the throwaway servers' threads are Ratis's own and end
 * when they are closed, before it returns.
 */
final class LeaderPathWarmUp {
    private static final Logger LOG = LoggerFactory.getLogger(LeaderPathWarmUp.class);
    static final String PROPERTY = "basalt.replication.warmUp";
    /** Entries committed under the first leader; a few more under the second. */
    static final int ENTRIES = 64;
    static final long DEADLINE_MILLIS = 30_000;
    private static final int PEERS = 3;
    /** Threads committing at once (entries committed together share a log sync, as a busy replica's do). */
    private static final int WRITERS = 4;
    private static boolean ran;

    private LeaderPathWarmUp() {
    }

    /**
     * Warms the leader path in a directory {@code dir} (created, then deleted) unless this JVM did
     * already or the property turns it off; never throws.
     *
     * @return the milliseconds it took, or -1 if it did not run or failed
     */
    static synchronized long runOnce(ReplicationSettings settings, Path dir) {
        if (ran || !Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
            return -1;
        }
        ran = true;
        long start = System.nanoTime();
        try {
            Outcome o = run(settings, dir, ENTRIES, start + DEADLINE_MILLIS * 1_000_000L);
            long millis = (System.nanoTime() - start) / 1_000_000;
            LOG.info("replica {}: Ratis's leader path warmed in {} ms (a throwaway group of {} on loopback: a leader"
                    + " ready after {} ms, {} entries committed in {} ms; with it closed, the next ready after {} ms,"
                    + " {} entries in {} ms)", settings.nodeId(), millis, PEERS, o.millis()[0], o.entries()[0],
                    o.millis()[1], o.millis()[2], o.entries()[1], o.millis()[3]);
            return millis;
        } catch (IOException | RuntimeException e) {
            // past the deadline (a loaded machine) most of the path ran already: a partial warm-up
            LOG.warn("replica {}: warming Ratis's leader path stopped after {} ms; the node starts as warm as it got:"
                    + " {}", settings.nodeId(), (System.nanoTime() - start) / 1_000_000, e.toString());
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.warn("replica {}: interrupted warming Ratis's leader path", settings.nodeId());
            return -1;
        }
    }

    /**
     * The warm-up itself, in {@code dir} (deleted afterwards, whatever the outcome); returns the
     * entries committed under the first and the second leader and the phases' durations.
     */
    static Outcome run(ReplicationSettings settings, Path dir, int entries, long deadlineNanos)
            throws IOException, InterruptedException {
        Map<String, String> peers = new LinkedHashMap<>();
        for (int i = 0; i < PEERS; i++) {
            peers.put("warm-up-" + i, "127.0.0.1:" + freePort());
        }
        List<RaftServer> servers = new ArrayList<>();
        List<RaftClient> clients = new ArrayList<>();
        try {
            RaftGroup group = null;
            String cluster = "warm-up-" + settings.nodeId() + "-" + System.nanoTime();
            for (String id : peers.keySet()) {
                ReplicationSettings member = new ReplicationSettings(id, peers, cluster, settings.commitTimeoutMillis(),
                        0, 0, 1 << 20, 64 << 10, settings.electionTimeoutMillis());
                group = ReplicaNode.group(member);
                RaftServer server = RaftServer.newBuilder().setServerId(RaftPeerId.valueOf(id)).setGroup(group)
                        .setStateMachine(new Discard()).setProperties(properties(member, dir.resolve(id)))
                        .setOption(RaftStorage.StartupOption.FORMAT).build();
                servers.add(server);
                server.start();
            }
            long t0 = System.nanoTime();
            RaftServer leader = leader(servers, group, deadlineNanos);
            long t1 = System.nanoTime();
            int first = commit(leader, servers, group, clients, entries, deadlineNanos);
            long t2 = System.nanoTime();
            leader.close();
            servers.remove(leader);
            leader = leader(servers, group, deadlineNanos);
            long t3 = System.nanoTime();
            int second = commit(leader, servers, group, clients, Math.max(1, entries / 10), deadlineNanos);
            long t4 = System.nanoTime();
            return new Outcome(new int[] {first, second}, new long[] {(t1 - t0) / 1_000_000, (t2 - t1) / 1_000_000,
                (t3 - t2) / 1_000_000, (t4 - t3) / 1_000_000});
        } finally {
            for (RaftClient c : clients) {
                closeQuietly(c);
            }
            for (RaftServer s : servers) {
                closeQuietly(s);
            }
            delete(dir);
        }
    }

    /**
     * The replica's own Raft settings for one throwaway member: the same code paths (synchronous
     * appends, no metadata entries, linearizable reads, the appender's retry policy), smaller buffers
     * (the replica's are sized for 16 MiB entries and allocated per server), bound to loopback.
     */
    private static RaftProperties properties(ReplicationSettings member, Path dir) {
        RaftProperties p = ReplicaNode.properties(member, dir);
        RaftServerConfigKeys.Log.Appender.setBufferByteLimit(p, SizeInBytes.valueOf(1 << 20));
        RaftServerConfigKeys.Log.setWriteBufferSize(p, SizeInBytes.valueOf(2 << 20));
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf(64 << 10));
        GrpcConfigKeys.setMessageSizeMax(p, SizeInBytes.valueOf(4 << 20));
        GrpcConfigKeys.Server.setHost(p, "127.0.0.1");
        return p;
    }

    /**
     * Commits {@code entries} entries under {@code leader}: the even ones handed to it in process, the
     * odd ones sent from a follower over gRPC (Basalt's two submission paths). Returns the entries
     * committed.
     */
    private static int commit(RaftServer leader, List<RaftServer> servers, RaftGroup group, List<RaftClient> clients,
            int entries, long deadlineNanos) throws IOException, InterruptedException {
        RaftServer follower = servers.stream().filter(s -> s != leader).findFirst().orElseThrow();
        RaftClient client = RaftClient.newBuilder().setProperties(new RaftProperties()).setRaftGroup(group).build();
        clients.add(client);
        long attemptMillis = 3_000;
        EntrySubmitter local = new EntrySubmitter(leader, group.getGroupId(), client.getClientRpc(), attemptMillis,
                DEADLINE_MILLIS, 50);
        EntrySubmitter remote = new EntrySubmitter(follower, group.getGroupId(), client.getClientRpc(),
                attemptMillis, DEADLINE_MILLIS, 50);
        byte[] payload = ("warm-up entry of a Basalt replica's Raft leader path ".repeat(4))
                .getBytes(StandardCharsets.UTF_8);
        // several writers at once, as a replica's clients commit: entries appended together share a sync
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS, r -> {
            Thread t = new Thread(r, "basalt-warm-up-writer");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<Void>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    for (int i = writer; i < entries; i += WRITERS) {
                        if (System.nanoTime() > deadlineNanos) {
                            throw new IOException("not done within " + DEADLINE_MILLIS + " ms");
                        }
                        (i % 2 == 0 ? local : remote).send(payload);
                    }
                    return null;
                }));
            }
            for (Future<Void> f : done) {
                try {
                    f.get();
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                }
            }
        } finally {
            writers.shutdownNow();
        }
        return entries;
    }

    /** The member that leads and has committed its first entry of its term, once there is one. */
    private static RaftServer leader(List<RaftServer> servers, RaftGroup group, long deadlineNanos)
            throws IOException, InterruptedException {
        while (System.nanoTime() < deadlineNanos) {
            for (RaftServer s : servers) {
                var info = s.getDivision(group.getGroupId()).getInfo();
                if (info.isLeader() && info.isLeaderReady()) {
                    return s;
                }
            }
            Thread.sleep(10);
        }
        throw new IOException("the throwaway group elected no leader within " + DEADLINE_MILLIS + " ms");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void closeQuietly(AutoCloseable c) {
        try {
            c.close();
        } catch (Exception e) {
            LOG.debug("closing a warm-up server or client: {}", e.toString());
        }
    }

    private static void delete(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.delete(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (IOException | UncheckedIOException e) {
            LOG.warn("could not delete the warm-up directory {}: {}", dir, e.toString());
        }
    }

    /**
     * What a warm-up did: entries committed under the first and the second leader; milliseconds until
     * the first leader was ready, for its entries, until the second was ready, for its entries.
     */
    record Outcome(int[] entries, long[] millis) {
    }

    /** Applies nothing: answers every entry with an empty message (a success to {@link EntrySubmitter}). */
    private static final class Discard extends BaseStateMachine {
        @Override
        public CompletableFuture<Message> applyTransaction(TransactionContext trx) {
            var entry = trx.getLogEntry();
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
            return CompletableFuture.completedFuture(Message.EMPTY);
        }
    }
}
