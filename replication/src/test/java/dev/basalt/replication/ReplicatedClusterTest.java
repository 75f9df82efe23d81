package dev.basalt.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigInteger;
import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three replicas in one JVM: writes through the leader and through a follower (statements, SPARQL
 * UPDATE, namespaces) reach every replica; a stopped replica catches up from the log, or from a
 * snapshot once the log is purged; a new, empty replica added to the membership joins by snapshot;
 * a minority never acknowledges a write.
 */
class ReplicatedClusterTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";

    @TempDir
    Path dir;

    private static IRI ex(String local) {
        return VF.createIRI(EX, local);
    }

    @Test
    void writesThroughLeaderAndFollowerReachEveryReplica() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 20_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            int follower = (leader + 1) % 3;
            try (RepositoryConnection c = cluster.node(leader).getConnection()) {
                c.begin();
                c.add(ex("a"), ex("p"), VF.createLiteral("from the leader"));
                c.add(ex("a"), ex("p"), VF.createLiteral(BigInteger.valueOf(42)));
                c.add(VF.createBNode("b1"), ex("q"), VF.createLiteral("chat", "fr"), ex("g"));
                c.add(VF.createTriple(ex("a"), ex("p"), ex("b")), ex("says"), ex("c"));
                c.setNamespace("ex", EX);
                c.commit();
            }
            // the leader handed its entry to its own Raft server (no gRPC), unless leadership moved meanwhile
            long[] leaderAttempts = cluster.sail(leader).submitAttempts();
            assertTrue(leaderAttempts[0] > 0 && leaderAttempts[1] == 0 || cluster.awaitLeader(20_000) != leader,
                    "leader's attempts in process/remote: " + leaderAttempts[0] + "/" + leaderAttempts[1]);
            try (RepositoryConnection c = cluster.node(follower).getConnection()) {
                c.add(ex("f"), ex("p"), VF.createLiteral("from a follower"));
                c.prepareUpdate("PREFIX ex: <" + EX + "> DELETE { ?s ex:p 42 } INSERT { ?s ex:p 43 } WHERE { ?s ex:p 42 };"
                        + "INSERT DATA { GRAPH ex:g2 { ex:x ex:y ex:z } }; DELETE WHERE { ex:a ex:p \"from the leader\" }")
                        .execute();
                // effective changes only: a statement added then removed in one transaction leaves nothing
                c.begin();
                c.add(ex("gone"), ex("p"), ex("o"));
                c.remove(ex("gone"), null, null);
                c.commit();
            }
            // the follower's commits were forwarded to the leader
            assertTrue(cluster.sail(follower).submitAttempts()[1] > 0 || cluster.awaitLeader(20_000) == follower,
                    "a follower's commit went to the leader");
            // the follower's commit returned after it applied its entries: read-your-writes there
            try (RepositoryConnection c = cluster.node(follower).getConnection()) {
                assertTrue(c.hasStatement(ex("a"), ex("p"), VF.createLiteral(BigInteger.valueOf(43)), false));
                assertFalse(c.hasStatement(ex("a"), ex("p"), VF.createLiteral("from the leader"), false));
                assertTrue(c.hasStatement(ex("x"), ex("y"), ex("z"), false, ex("g2")));
            }
            assertConverged(cluster);
            try (RepositoryConnection c = cluster.node((leader + 2) % 3).getConnection()) {
                assertEquals(EX, c.getNamespace("ex"));
                assertEquals(5, c.size());
                assertFalse(c.hasStatement(ex("gone"), null, null, false));
            }
        }
    }

    /**
     * Eight writers committing at once through the leader and a follower: their transactions share
     * log entries (group commit) and every one of them is on every replica, once.
     */
    @Test
    void concurrentTransactionsShareLogEntriesAndAllArrive() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 20_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            int writers = 8;
            int transactions = 25;
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
            List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
            for (int w = 0; w < writers; w++) {
                Repository target = cluster.node(w % 2 == 0 ? leader : (leader + 1) % 3);
                int writer = w;
                done.add(pool.submit(() -> {
                    for (int t = 0; t < transactions; t++) {
                        try (RepositoryConnection c = target.getConnection()) {
                            c.begin();
                            for (int i = 0; i < 10; i++) {
                                c.add(ex("w" + writer + "-" + t), ex("p" + i), VF.createLiteral(i));
                            }
                            c.commit();
                        }
                    }
                    return null;
                }));
            }
            for (java.util.concurrent.Future<?> f : done) {
                f.get();
            }
            pool.shutdown();
            assertConverged(cluster);
            long[] counts = cluster.sail(leader).groupCounts();
            assertEquals(writers / 2 * transactions, counts[1]);
            assertTrue(counts[0] < counts[1], "no transactions shared an entry: " + counts[0] + " entries");
            for (int i = 0; i < 3; i++) {
                try (RepositoryConnection c = cluster.node(i).getConnection()) {
                    assertEquals(writers * transactions * 10, c.size(), "n" + i);
                }
            }
        }
    }

    /**
     * A transaction that only writes is executed once, by the log's apply (no local transaction is
     * begun for it); one that reads sees its own pending writes, recorded before the read and after.
     */
    @Test
    void writeOnlyTransactionsRunOnceAndReadsSeeTheTransactionsWrites() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 20_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            ReplicatedSail sail = cluster.sail(leader);
            try (RepositoryConnection c = cluster.node(leader).getConnection()) {
                c.begin();
                c.add(ex("w"), ex("p"), VF.createLiteral(1));
                c.add(ex("w"), ex("p"), VF.createLiteral(2), ex("g"));
                c.remove(ex("w"), ex("p"), VF.createLiteral(2), ex("g"));
                c.setNamespace("w", EX + "w/");
                assertEquals(EX + "w/", c.getNamespace("w"), "a recorded namespace unseen");
                c.commit();
                c.add(ex("w"), ex("p"), VF.createLiteral(3));
                c.prepareUpdate("INSERT DATA { <" + EX + "w> <" + EX + "p> 4 . GRAPH <" + EX + "g> { <" + EX
                        + "w> <" + EX + "q> 5 } }").execute();
                c.begin();
                c.add(ex("dropped"), ex("p"), VF.createLiteral(1));
                c.rollback();
                assertEquals(0, sail.localTransactionsBegun.sum(), "a write-only transaction began a local one");
                assertTrue(sail.transactionsBegun.sum() >= 4, "transactions begun: " + sail.transactionsBegun.sum());

                c.begin();
                c.add(ex("r"), ex("p"), VF.createLiteral(1));
                c.setNamespace("r", EX + "r/");
                assertTrue(c.hasStatement(ex("r"), ex("p"), VF.createLiteral(1), false), "a pending add unseen");
                assertEquals(EX + "r/", c.getNamespace("r"));
                c.add(ex("r"), ex("p"), VF.createLiteral(2));
                assertEquals(2, c.getStatements(ex("r"), null, null, false).stream().count());
                c.remove(ex("r"), null, null);
                c.add(ex("r"), ex("p"), VF.createLiteral(3));
                assertEquals(1, c.getStatements(ex("r"), null, null, false).stream().count());
                c.commit();
                assertEquals(1, sail.localTransactionsBegun.sum());
                // statements written earlier in the same request are seen by a later operation's WHERE
                c.prepareUpdate("INSERT DATA { <" + EX + "u> <" + EX + "p> 1 , 2 } ; DELETE WHERE { <" + EX
                        + "u> <" + EX + "p> ?o } ; INSERT DATA { <" + EX + "u> <" + EX + "p> 3 }").execute();
                assertEquals(2, sail.localTransactionsBegun.sum());
            }
            assertConverged(cluster);
            try (RepositoryConnection c = cluster.node((leader + 1) % 3).getConnection()) {
                assertEquals(List.of("1", "3", "4", "5"), objects(c, ex("w"), null));
                assertEquals(List.of("5"), objects(c, ex("w"), ex("g")));
                assertEquals(List.of("3"), objects(c, ex("r"), null));
                assertEquals(List.of("3"), objects(c, ex("u"), null));
                assertFalse(c.hasStatement(ex("dropped"), null, null, false));
                assertEquals(EX + "w/", c.getNamespace("w"));
                assertEquals(EX + "r/", c.getNamespace("r"));
            }
        }
    }

    /** The objects of {@code subject}'s statements in {@code graph} (null: every graph), sorted. */
    private static List<String> objects(RepositoryConnection c, IRI subject, IRI graph) {
        var statements = graph == null ? c.getStatements(subject, null, null, false)
                : c.getStatements(subject, null, null, false, graph);
        return statements.stream().map(st -> st.getObject().stringValue()).sorted().toList();
    }

    @Test
    void stoppedReplicaCatchesUpFromTheLog() throws Exception {
        catchUp(0, 0);
    }

    @Test
    void replicaBehindThePurgedLogInstallsASnapshot() throws Exception {
        catchUp(10, 1);
    }

    /**
     * Stops a follower, commits 40 transactions without it, restarts it: with snapshots every
     * {@code snapshotEvery} entries (0: none, the log is kept whole) it installs
     * {@code snapshotsExpected} snapshots and ends equal to the others.
     */
    private void catchUp(long snapshotEvery, int snapshotsExpected) throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 20_000, snapshotEvery).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            int stopped = (leader + 1) % 3;
            writeBatches(cluster.node(leader), "before", 3);
            cluster.stop(stopped);
            writeBatches(cluster.node(leader), "while-down", 40);
            cluster.start(stopped);
            assertConverged(cluster);
            assertEquals(snapshotsExpected, cluster.sail(stopped).snapshotsInstalled());
            try (RepositoryConnection c = cluster.node(stopped).getConnection()) {
                assertEquals(43 * 10, c.size());
            }
        }
    }

    @Test
    void aNewEmptyReplicaJoinsBySnapshot() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 20_000, 10).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            writeBatches(cluster.node(leader), "before", 30);
            int added = cluster.addNode();
            cluster.sail((leader + 1) % 3).setPeers(cluster.peers());
            writeBatches(cluster.node(added), "after", 5);
            assertConverged(cluster);
            assertEquals(1, cluster.sail(added).snapshotsInstalled(), "the log before it was purged");
            try (RepositoryConnection c = cluster.node(added).getConnection()) {
                assertEquals(35 * 10, c.size());
            }
        }
    }

    @Test
    void aMinorityNeverAcknowledgesAWrite() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 3_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            writeBatches(cluster.node(leader), "majority", 1);
            int alone = (leader + 1) % 3;
            cluster.stop(leader);
            cluster.stop((leader + 2) % 3);
            String before = StatementChecksum.of(cluster.node(alone));
            RepositoryException refused = assertThrows(RepositoryException.class,
                    () -> writeBatches(cluster.node(alone), "minority", 1));
            assertTrue(String.valueOf(refused.getMessage()).contains("not acknowledged"), refused.getMessage());
            assertEquals(before, StatementChecksum.of(cluster.node(alone)));
        }
    }

    /** Writes {@code count} transactions of 10 statements each, tagged by {@code tag}. */
    static void writeBatches(Repository repo, String tag, int count) {
        for (int t = 0; t < count; t++) {
            writeBatch(repo, tag, t);
        }
    }

    /** Transaction {@code t} of {@link #writeBatches}: 10 statements about {@code <tag>-<t>}. */
    static void writeBatch(Repository repo, String tag, int t) {
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin();
            for (int i = 0; i < 10; i++) {
                c.add(ex(tag + "-" + t), ex("member"), VF.createLiteral(i));
            }
            c.commit();
        }
    }

    /** Waits for every running replica to apply the leader's last entry, then compares checksums. */
    static void assertConverged(InProcessCluster cluster) throws Exception {
        int leader = cluster.awaitLeader(20_000);
        if (leader < 0) {
            fail(ClusterDiagnostics.of(cluster, "no leader within 20 s"));
        }
        long index = cluster.sail(leader).appliedIndex();
        String expected = StatementChecksum.of(cluster.node(leader));
        for (int i = 0; i < cluster.size(); i++) {
            if (cluster.node(i) != null && !cluster.sail(i).awaitApplied(index, 30_000)) {
                fail(ClusterDiagnostics.of(cluster, "replica n" + i + " did not apply " + index + " within 30 s"));
            }
            if (cluster.node(i) != null) {
                String actual = StatementChecksum.of(cluster.node(i));
                if (!expected.equals(actual)) {
                    fail(ClusterDiagnostics.of(cluster, "replica n" + i + " holds " + actual + " after applying " + index
                            + ", the leader n" + leader + " " + expected));
                }
            }
        }
        assertNotEquals("0:", expected.substring(0, 2));
    }
}
