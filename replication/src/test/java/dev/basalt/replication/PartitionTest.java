package dev.basalt.replication;

import static dev.basalt.replication.ReplicatedClusterTest.assertConverged;
import static dev.basalt.replication.ReplicatedClusterTest.writeBatch;
import static dev.basalt.replication.ReplicatedClusterTest.writeBatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;

import org.apache.ratis.server.raftlog.RaftLog;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Network partitions of a three-node cluster whose nodes talk only through {@link LinkProxy}s: a node
 * cut off from the others (every link to and from it drops its bytes, the node itself keeps running
 * and takes client writes) acknowledges no write, neither as a follower nor as a leader that lost its
 * majority; the majority goes on; after healing, the cut-off node converges to the majority's
 * statements, and a write the minority leader took but could not commit is on no replica.
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
        try (InProcessCluster cluster = InProcessCluster.linked(dir, 3, COMMIT_TIMEOUT_MILLIS).startAll()) {
            int old = awaitLeader(cluster);
            write(cluster, old, "before", 2);
            assertConverged(cluster);
            cluster.isolate(old);
            String oldBefore = StatementChecksum.of(cluster.node(old));

            RepositoryException refused = assertThrows(RepositoryException.class,
                    () -> writeBatches(cluster.node(old), "minority", 1));
            assertTrue(String.valueOf(refused.getMessage()).contains("not acknowledged"), refused.getMessage());
            int next = awaitLeaderOtherThan(cluster, old, 20_000);
            if (next < 0) {
                fail(ClusterDiagnostics.of(cluster, "the majority elected no leader within 20 s"));
            }
            write(cluster, next, "majority", 5);
            assertEquals(oldBefore, StatementChecksum.of(cluster.node(old)), "the minority applied a write");

            cluster.heal();
            awaitFollowing(cluster, old, next);
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                assertFalse(holds(cluster, i, "minority-0"), "n" + i + " holds the write no majority acknowledged");
                assertTrue(holds(cluster, i, "majority-4"), "n" + i + " lacks the majority's writes");
            }
        }
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
        try (InProcessCluster cluster = InProcessCluster.linked(dir, 3, COMMIT_TIMEOUT_MILLIS).startAll()) {
            int old = awaitLeader(cluster);
            write(cluster, old, "before", 2);
            assertConverged(cluster);
            cluster.isolate(old);
            assertThrows(RepositoryException.class, () -> writeBatches(cluster.node(old), "minority", 1));
            RaftLog oldLog = cluster.sail(old).raftDivision().getRaftLog();
            long stale = oldLog.getNextIndex() - 1;
            assertTrue(stale > oldLog.getLastCommittedIndex(), "the old leader's log holds no uncommitted entry");
            int next = awaitLeaderOtherThan(cluster, old, 20_000);
            if (next < 0) {
                fail(ClusterDiagnostics.of(cluster, "the majority elected no leader within 20 s"));
            }
            write(cluster, next, "majority", 5);

            try (FollowerAppendDelay delay = FollowerAppendDelay.hold(cluster.sail(old).raftDivision())) {
                cluster.heal();
                long deadline = System.currentTimeMillis() + 10_000;
                while (oldLog.getLastCommittedIndex() < stale && System.currentTimeMillis() < deadline) {
                    Thread.sleep(10);
                }
                // what the old leader commits it applies: give its applier the time to
                cluster.sail(old).awaitApplied(stale, 5_000);
            }
            awaitFollowing(cluster, old, next);
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                assertFalse(holds(cluster, i, "minority-0"), "n" + i + " holds the write no majority acknowledged");
                assertTrue(holds(cluster, i, "majority-4"), "n" + i + " lacks the majority's writes");
            }
        }
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
