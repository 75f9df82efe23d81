package dev.basalt.replication;

import static dev.basalt.replication.ReplicatedClusterTest.assertConverged;
import static dev.basalt.replication.ReplicatedClusterTest.writeBatch;
import static dev.basalt.replication.ReplicatedClusterTest.writeBatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Path;

import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.server.raftlog.RaftLog;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Network partitions of a three-node cluster whose nodes talk only through {@link LinkProxy}s: a node
 * cut off from the others (every link to and from it drops its bytes, the node itself keeps running
 * and takes client writes) acknowledges no write, neither as a follower nor as a leader that lost its
 * majority; the majority goes on; after healing, the cut-off node converges to the majority's
 * statements, and a write the minority leader took but could not commit is on no replica, also when
 * the old leader's append of the new leader's entries is held back at the heal while heartbeats go on.
 */
class PartitionTest {
    /** Commit timeout of the cluster: a write that no majority acknowledges fails after it. */
    private static final long COMMIT_TIMEOUT_MILLIS = 3_000;

    @TempDir
    Path dir;

    @Test
    void anIsolatedFollowerAcknowledgesNoWriteAndConvergesAfterHealing() throws Exception {
        try (InProcessCluster cluster = InProcessCluster.linked(dir, 3, COMMIT_TIMEOUT_MILLIS).startAll()) {
            int leader = awaitLeader(cluster);
            write(cluster, leader, "before", 2);
            assertConverged(cluster);
            int cut = (leader + 1) % 3;
            cluster.isolate(cut);
            String cutBefore = StatementChecksum.of(cluster.node(cut));
            long cutApplied = cluster.sail(cut).appliedIndex();

            write(cluster, leader, "during", 5);
            RepositoryException refused = assertThrows(RepositoryException.class,
                    () -> writeBatches(cluster.node(cut), "isolated", 1));
            assertTrue(String.valueOf(refused.getMessage()).contains("not acknowledged"), refused.getMessage());
            assertThrows(Exception.class, () -> cluster.sail(cut).linearizableIndex(COMMIT_TIMEOUT_MILLIS),
                    "a cut-off replica cannot confirm a linearizable read");
            assertEquals(cutBefore, StatementChecksum.of(cluster.node(cut)), "the cut-off replica changed");
            assertEquals(cutApplied, cluster.sail(cut).appliedIndex());
            assertTrue(cluster.droppedFrom(cut) > 0, "the cut-off replica sent nothing: the cut was not tested");

            cluster.heal();
            assertConverged(cluster);
            assertTrue(holds(cluster, cut, "during-4"), "the healed replica lacks the majority's writes");
        }
    }

    @Test
    void aLeaderCutOffFromItsMajorityAcknowledgesNoWriteAndLosesIt() throws Exception {
        leaderCutOffThenHealed(false);
    }

    /**
     * After healing, the new leader sends the old leader its entries from the old leader's first
     * uncommitted index on, in one request, and heartbeats on a channel of their own. Ratis's
     * default follower append ("compose") registers the entries and appends them on another thread;
     * a heartbeat that comes before that thread has run passed the log check against the
     * registered entries and moved the commit index to the log's flush index, which still counted
     * the old leader's uncommitted entry, so the old leader applied its write no majority had (80
     * statements against 70, seen in 2 of 15 runs on a loaded machine). Here the append is held back
     * ({@link FollowerAppendDelay}) from the heal until the old leader has committed past that entry
     * (or 10 s passed): on the compose path that happens on the stale entry and the test fails; with
     * synchronous appends, as {@link ReplicaNode} configures Ratis, nothing can be held, the commit
     * comes with the new leader's entries, and the write is on no replica.
     */
    @Test
    void aHealedLeaderNeverAppliesItsUncommittedEntryWhileTheNewLeadersEntriesAreOnTheirWay() throws Exception {
        leaderCutOffThenHealed(true);
    }

    /**
     * The leader cut off: its write is refused, the majority elects another and takes 5 writes, the
     * cut-off leader applies nothing meanwhile; healed (with the old leader's appends held back until
     * it commits past its uncommitted entry, if {@code holdAppends}), it follows the new leader, every
     * replica holds the same statements, the majority's writes and not the refused one.
     */
    private void leaderCutOffThenHealed(boolean holdAppends) throws Exception {
        try (InProcessCluster cluster = InProcessCluster.linked(dir, 3, COMMIT_TIMEOUT_MILLIS).startAll()) {
            write(cluster, awaitLeader(cluster), "before", 2);
            assertConverged(cluster);
            int old;
            String oldBefore;
            RaftLog oldLog;
            long stale;
            for (int attempt = 1;; attempt++) {
                int cut = awaitLeader(cluster);
                cluster.isolate(cut);
                oldBefore = StatementChecksum.of(cluster.node(cut));
                RepositoryException refused = assertThrows(RepositoryException.class,
                        () -> writeBatches(cluster.node(cut), "minority", 1));
                assertTrue(String.valueOf(refused.getMessage()).contains("not acknowledged"), refused.getMessage());
                old = cut;
                oldLog = cluster.sail(old).raftDivision().getRaftLog();
                stale = uncommittedWrite(oldLog);
                if (!holdAppends || stale >= 0) {
                    break;
                }
                // the cut-off leader stepped down (no majority for an election timeout) before the
                // write reached it, so its log holds no uncommitted write (its uncommitted entries, if
                // any, are Raft's own): heal and cut the leader off again
                if (attempt == 3) {
                    fail(ClusterDiagnostics.of(cluster, "three cut-off leaders stepped down before the write reached"
                            + " them; no uncommitted entry to test"));
                }
                cluster.heal();
                assertConverged(cluster);
            }
            int next = awaitLeaderOtherThan(cluster, old, 20_000);
            if (next < 0) {
                fail(ClusterDiagnostics.of(cluster, "the majority elected no leader within 20 s"));
            }
            write(cluster, next, "majority", 5);
            assertEquals(oldBefore, StatementChecksum.of(cluster.node(old)), "the minority applied a write");

            if (holdAppends) {
                try (FollowerAppendDelay delay = FollowerAppendDelay.hold(cluster.sail(old).raftDivision())) {
                    cluster.heal();
                    long deadline = System.currentTimeMillis() + 10_000;
                    while (oldLog.getLastCommittedIndex() < stale && System.currentTimeMillis() < deadline) {
                        Thread.sleep(10);
                    }
                    // what the old leader commits it applies: give its applier the time to
                    cluster.sail(old).awaitApplied(stale, 5_000);
                }
            } else {
                cluster.heal();
            }
            awaitFollowing(cluster, old, next);
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                assertFalse(holds(cluster, i, "minority-0"), "n" + i + " holds the write no majority acknowledged");
                assertTrue(holds(cluster, i, "majority-4"), "n" + i + " lacks the majority's writes");
            }
        }
    }

    /**
     * Two nodes left (the third stopped) and the link between them cut for a moment: the leader,
     * hearing from no majority for an election timeout, steps down, with a write appended that it
     * could not commit, so its log is ahead of the follower's and only it can win the next
     * election. Ratis's default then kept it from standing for 10 s after stepping down, and there
     * was no leader for that long (FailoverIT's slow failovers: a survivor elected after 1.9 s, then
     * both followers without a leader at 8 s, a write acknowledged after 18.6 s). A leader must be
     * back within a few seconds of the heal.
     */
    @Test
    void aLeaderThatLostItsOnlyFollowerForAMomentLeadsAgainWithinSeconds() throws Exception {
        try (InProcessCluster cluster = InProcessCluster.linked(dir, 3, COMMIT_TIMEOUT_MILLIS).startAll()) {
            int leader = awaitLeader(cluster);
            write(cluster, leader, "before", 1);
            assertConverged(cluster);
            int stopped = (leader + 1) % 3;
            int follower = (leader + 2) % 3;
            cluster.stop(stopped);
            RaftLog leaderLog = cluster.sail(leader).raftDivision().getRaftLog();
            RaftLog followerLog = cluster.sail(follower).raftDivision().getRaftLog();
            cluster.cut(leader, follower);
            Thread unacknowledged = new Thread(() -> {
                try {
                    writeBatches(cluster.node(leader), "unacknowledged", 1);
                } catch (RuntimeException expected) {
                    // no majority while the link is cut
                }
            }, "unacknowledged-write");
            unacknowledged.start();
            long deadline = System.currentTimeMillis() + 20_000;
            while (cluster.sail(leader).isLeader() && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            if (cluster.sail(leader).isLeader()) {
                fail(ClusterDiagnostics.of(cluster, "the leader cut off from its only follower did not step down"));
            }
            Assumptions.assumeTrue(leaderLog.getNextIndex() > followerLog.getNextIndex(),
                    () -> ClusterDiagnostics.of(cluster, "the leader stepped down before the write reached it: both"
                            + " logs end alike, either can win"));
            long healed = System.nanoTime();
            cluster.heal();
            int next = cluster.awaitLeader(30_000);
            long millis = (System.nanoTime() - healed) / 1_000_000;
            if (next < 0 || millis > 6_000) {
                fail(ClusterDiagnostics.of(cluster, "a leader " + (next < 0 ? "was not elected within 30 s"
                        : "was elected " + millis + " ms") + " after healing (at most 6 s)"));
            }
            unacknowledged.join(30_000);
            write(cluster, next, "after", 1);
        }
    }

    /** The index of the last entry of {@code log} above its commit index that holds a write, or -1. */
    private static long uncommittedWrite(RaftLog log) throws IOException {
        for (long i = log.getNextIndex() - 1; i > log.getLastCommittedIndex(); i--) {
            LogEntryProto entry = log.get(i);
            if (entry != null && entry.hasStateMachineLogEntry()) {
                return i;
            }
        }
        return -1;
    }

    /** Waits until node {@code follower} names {@code leader} as its leader and leads no more, else fails. */
    private static void awaitFollowing(InProcessCluster cluster, int follower, int leader) throws Exception {
        String leaderId = "n" + leader;
        long deadline = System.currentTimeMillis() + 20_000;
        while (!leaderId.equals(cluster.sail(follower).leaderId()) && System.currentTimeMillis() < deadline) {
            Thread.sleep(50);
        }
        if (cluster.sail(follower).isLeader()) {
            fail(ClusterDiagnostics.of(cluster, "the old leader did not step down after healing"));
        }
    }

    private static int awaitLeader(InProcessCluster cluster) throws Exception {
        int leader = cluster.awaitLeader(20_000);
        if (leader < 0) {
            fail(ClusterDiagnostics.of(cluster, "no leader elected within 20 s"));
        }
        return leader;
    }

    /**
     * Writes {@code count} transactions through node {@code node}, each sent again while it is not
     * acknowledged, for at most 60 s in all; still unacknowledged then, the test fails with the
     * cluster's state. The cluster runs with a 3 s commit timeout so that the writes it must refuse
     * are refused quickly, but the writes that must succeed are not what is tested here, and on a
     * loaded machine a commit legitimately takes longer: in a fresh JVM every node's first apply
     * loads the store's write path (a thread dump of such a failure showed the three appliers
     * loading classes 3 s into their first commit), and at a load average of 50 on two cores an
     * election or an apply alone can take seconds. Writes are idempotent, so a transaction
     * acknowledged late and sent again leaves the same statements.
     */
    private static void write(InProcessCluster cluster, int node, String tag, int count) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        for (int t = 0; t < count; t++) {
            while (true) {
                try {
                    writeBatch(cluster.node(node), tag, t);
                    break;
                } catch (RepositoryException e) {
                    if (System.currentTimeMillis() > deadline
                            || !String.valueOf(e.getMessage()).contains("not acknowledged")) {
                        throw new AssertionError(ClusterDiagnostics.of(cluster, "write " + tag + "-" + t + " through n"
                                + node + " failed: " + e.getMessage()), e);
                    }
                    Thread.sleep(100);
                }
            }
        }
    }

    private static int awaitLeaderOtherThan(InProcessCluster cluster, int excluded, long millis) throws Exception {
        long deadline = System.currentTimeMillis() + millis;
        do {
            for (int i = 0; i < cluster.size(); i++) {
                if (i != excluded && cluster.sail(i).isLeader()) {
                    return i;
                }
            }
            Thread.sleep(50);
        } while (System.currentTimeMillis() < deadline);
        return -1;
    }

    private static boolean holds(InProcessCluster cluster, int node, String subject) {
        IRI s = SimpleValueFactory.getInstance().createIRI("http://example.org/", subject);
        try (RepositoryConnection c = cluster.node(node).getConnection()) {
            return c.hasStatement(s, null, null, false);
        }
    }
}
