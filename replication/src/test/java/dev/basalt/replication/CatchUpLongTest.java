package dev.basalt.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Catch-up at scale (tagged long; the same paths at small scale are in {@link ReplicatedClusterTest}):
 * a follower stopped while a million statements are written replays them from the log after its
 * restart; a new, empty replica added after a million statements, with the log purged behind a
 * snapshot, joins by installing that snapshot. Both end with the same statements as the leader
 * (count and order-independent hash over every statement). The times are logged ("catch-up:") for
 * docs/benchmarks-replication.md. {@code -Dbasalt.catchup.statements=N} changes the size.
 */
@Tag("long")
class CatchUpLongTest {
    private static final Logger LOG = LoggerFactory.getLogger(CatchUpLongTest.class);
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final int STATEMENTS = Integer.getInteger("basalt.catchup.statements", 1_000_000);
    private static final int PER_TRANSACTION = 10_000;

    @TempDir
    Path dir;

    @Test
    void aReplicaStoppedDuringAMillionStatementsReplaysTheLog() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 120_000, 0).startAll()) {
            int leader = cluster.awaitLeader(30_000);
            assertTrue(leader >= 0, "no leader elected");
            int stopped = (leader + 1) % 3;
            cluster.stop(stopped);
            long written = write(cluster.node(leader));
            long index = cluster.sail(leader).appliedIndex();
            long start = System.nanoTime();
            cluster.start(stopped);
            assertTrue(cluster.sail(stopped).awaitApplied(index, 1_800_000), "the restarted replica did not catch up");
            long caughtUp = (System.nanoTime() - start) / 1_000_000;
            assertEquals(0, cluster.sail(stopped).snapshotsInstalled(), "catch-up was meant to replay the log");
            String expected = StatementChecksum.unordered(cluster.node(leader));
            assertEquals(expected, StatementChecksum.unordered(cluster.node(stopped)));
            assertEquals(STATEMENTS + ":", expected.substring(0, expected.indexOf(':') + 1));
            LOG.info("catch-up: {} statements written with a follower down in {} ms; log replay on restart {} ms",
                    STATEMENTS, written, caughtUp);
        }
    }

    @Test
    void aNewReplicaJoinsByASnapshotOfAMillionStatements() throws Exception {
        // a snapshot every quarter of the transactions: the log before the last one is purged
        long snapshotEvery = Math.max(1, STATEMENTS / PER_TRANSACTION / 4);
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 120_000, snapshotEvery).startAll()) {
            int leader = cluster.awaitLeader(30_000);
            assertTrue(leader >= 0, "no leader elected");
            long written = write(cluster.node(leader));
            long start = System.nanoTime();
            int added = cluster.addNode();
            cluster.sail(leader).setPeers(cluster.peers());
            long index = cluster.sail(leader).appliedIndex();
            assertTrue(cluster.sail(added).awaitApplied(index, 1_800_000), "the new replica did not catch up");
            long caughtUp = (System.nanoTime() - start) / 1_000_000;
            assertTrue(cluster.sail(added).snapshotsInstalled() >= 1, "the new replica did not install a snapshot");
            String expected = StatementChecksum.unordered(cluster.node(leader));
            assertEquals(expected, StatementChecksum.unordered(cluster.node(added)));
            assertEquals(STATEMENTS + ":", expected.substring(0, expected.indexOf(':') + 1));
            LOG.info("catch-up: {} statements written in {} ms; a new replica joined by snapshot in {} ms",
                    STATEMENTS, written, caughtUp);
        }
    }

    /** Writes {@link #STATEMENTS} statements in transactions of {@link #PER_TRANSACTION}; returns the ms taken. */
    private static long write(Repository repo) {
        long start = System.nanoTime();
        try (RepositoryConnection c = repo.getConnection()) {
            for (int done = 0; done < STATEMENTS; done += PER_TRANSACTION) {
                c.begin();
                for (int i = done; i < Math.min(STATEMENTS, done + PER_TRANSACTION); i++) {
                    IRI s = VF.createIRI("http://example.org/item/", Integer.toString(i / 8));
                    IRI p = VF.createIRI("http://example.org/p", Integer.toString(i % 8));
                    c.add(s, p, i % 3 == 0 ? VF.createLiteral("label " + i) : VF.createLiteral(i));
                }
                c.commit();
            }
        }
        return (System.nanoTime() - start) / 1_000_000;
    }
}
