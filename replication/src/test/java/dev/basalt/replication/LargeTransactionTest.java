package dev.basalt.replication;

import static dev.basalt.replication.ReplicatedClusterTest.assertConverged;
import static dev.basalt.replication.ReplicatedClusterTest.writeBatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.replication.log.ChangeSet;
import dev.basalt.replication.log.ChangeSetCodec;
import dev.basalt.replication.log.LogEntries;

/**
 * Transactions larger than one log entry's piece size: committed as parts and a commit entry, applied
 * whole on every replica; a committer that dies between parts leaves nothing applied anywhere and
 * blocks nobody; a replica restarted while parts are staged replays them from the log and applies the
 * transaction when its commit comes. The default tests use a 4 KiB piece size; the long one commits a
 * transaction larger than 16 MiB (the single-entry limit) with the default piece size.
 */
class LargeTransactionTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final int PIECE = 4096;

    @TempDir
    Path dir;

    @Test
    void aTransactionOfManyPiecesIsAppliedWholeOnEveryReplica() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 20_000, 0).pieceBytes(PIECE).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            int follower = (leader + 1) % 3;
            long before = cluster.sail(follower).appliedIndex();
            write(cluster.node(follower), "big", 3_000);
            assertTrue(cluster.sail(follower).appliedIndex() - before > 10, "the transaction was not split");
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                try (RepositoryConnection c = cluster.node(i).getConnection()) {
                    assertEquals(3_000, c.size(), "n" + i);
                }
            }
        }
    }

    @Test
    void aCommitterDyingBetweenPartsLeavesNothingAndARestartedReplicaReplaysStagedParts() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 20_000, 0).pieceBytes(PIECE).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            ReplicatedSail sail = cluster.sail(leader);
            // a committer that sends 5 parts of "orphan" and dies: no commit, no abort
            List<byte[]> orphan = LogEntries.split(encoded("orphan", 2_000), 1, PIECE);
            assertTrue(orphan.size() > 6);
            for (byte[] part : orphan.subList(0, 5)) {
                sail.submit(part);
            }
            // another transaction split the same way, whose parts are staged when a follower restarts
            List<byte[]> late = LogEntries.split(encoded("late", 2_000), 2, PIECE);
            for (byte[] part : late.subList(0, late.size() - 1)) {
                sail.submit(part);
            }
            writeBatches(cluster.node(leader), "small", 3);
            int restarted = (leader + 1) % 3;
            assertTrue(cluster.sail(restarted).awaitApplied(sail.appliedIndex(), 20_000));
            cluster.stop(restarted);
            cluster.start(restarted);
            sail.submit(late.get(late.size() - 1));
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                assertFalse(holds(cluster.node(i), "orphan-0"), "n" + i + " applied part of a transaction never committed");
                assertTrue(holds(cluster.node(i), "late-1999"), "n" + i + " lacks the transaction committed after its restart");
                try (RepositoryConnection c = cluster.node(i).getConnection()) {
                    assertEquals(2_000 + 30, c.size(), "n" + i);
                }
            }
        }
    }

    /**
     * A large addition is applied through the bulk loader on every replica and arrives unchanged
     * (language tags, datatypes, non-ASCII text, graphs); one with a blank node, or with an IRI that
     * N-Quads would not carry unchanged, is applied statement by statement, keeping the node's label
     * and the IRI; one the loader refuses (a malformed language tag) is applied
     * statement by statement after the bulk attempt failed.
     */
    @Test
    void aLargeAdditionIsAppliedThroughTheBulkLoaderUnchanged() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 60_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            int n = BulkApply.MIN_STATEMENTS;
            IRI p = VF.createIRI("http://example.org/p");
            IRI g = VF.createIRI("http://example.org/g");
            try (RepositoryConnection c = cluster.node(leader).getConnection()) {
                c.begin();
                for (int i = 0; i < n; i++) {
                    c.add(subject("bulk", i), p, VF.createLiteral(i));
                }
                c.add(subject("bulk", 0), p, VF.createLiteral("chat \u00e9t\u00e9 \"quoted\"\n", "fr"), g);
                c.add(subject("bulk", 0), p, VF.createLiteral("2026-11-29", VF.createIRI(
                        "http://www.w3.org/2001/XMLSchema#date")));
                c.commit();
            }
            for (int i = 0; i < 3; i++) {
                assertTrue(cluster.sail(i).awaitApplied(cluster.sail(leader).appliedIndex(), 30_000), "n" + i);
                assertEquals(1, cluster.sail(i).bulkApplied(), "n" + i + " did not take the bulk path");
            }
            try (RepositoryConnection c = cluster.node(leader).getConnection()) {
                c.begin();
                for (int i = 0; i < n; i++) {
                    c.add(subject("blank", i), p, VF.createBNode("b" + (i % 7)));
                }
                c.commit();
                c.begin();
                for (int i = 0; i < n; i++) {
                    c.add(subject("refused", i), p, VF.createLiteral("text " + i, "not a tag"));
                }
                c.commit();
                c.begin();
                for (int i = 0; i < n; i++) {
                    c.add(subject("iri", i), p, VF.createLiteral(i));
                }
                c.add(subject("bulk", 1), p, VF.createIRI("http://example.org/with space"));
                c.commit();
            }
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                assertEquals(1, cluster.sail(i).bulkApplied(), "n" + i);
                try (RepositoryConnection c = cluster.node(i).getConnection()) {
                    assertEquals(4L * n + 3, c.size(), "n" + i);
                    assertTrue(c.hasStatement(subject("bulk", 0), p,
                            VF.createLiteral("chat \u00e9t\u00e9 \"quoted\"\n", "fr"), false, g), "n" + i);
                    assertTrue(c.hasStatement(subject("bulk", 0), p, VF.createLiteral("2026-11-29",
                            VF.createIRI("http://www.w3.org/2001/XMLSchema#date")), false), "n" + i);
                    assertTrue(c.hasStatement(subject("bulk", n - 1), p, VF.createLiteral(n - 1), false), "n" + i);
                    assertTrue(c.hasStatement(subject("blank", 3), p, VF.createBNode("b3"), false), "n" + i);
                    assertTrue(c.hasStatement(subject("refused", 5), p, VF.createLiteral("text 5", "not a tag"), false),
                            "n" + i);
                    assertTrue(c.hasStatement(subject("bulk", 1), p, VF.createIRI("http://example.org/with space"),
                            false), "n" + i);
                }
            }
        }
    }

    @Test
    @Tag("long")
    void aTransactionLargerThanSixteenMebibytesCommitsThroughTheLeader() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 300_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            int statements = 400_000;
            assertTrue(encoded("huge", statements).length > ReplicaNode.MAX_ENTRY_BYTES);
            write(cluster.node(leader), "huge", statements);
            assertConverged(cluster);
            try (RepositoryConnection c = cluster.node((leader + 1) % 3).getConnection()) {
                assertEquals(statements, c.size());
            }
        }
    }

    private static IRI subject(String tag, int i) {
        return VF.createIRI("http://example.org/", tag + "-" + i);
    }

    private static byte[] encoded(String tag, int statements) {
        ChangeSet changes = new ChangeSet();
        for (int i = 0; i < statements; i++) {
            changes.add(VF.createStatement(subject(tag, i), VF.createIRI("http://example.org/value"),
                    VF.createLiteral("a literal long enough to fill pieces quickly, number " + i)));
        }
        return ChangeSetCodec.encode(changes);
    }

    private static void write(Repository repo, String tag, int statements) {
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin();
            for (int i = 0; i < statements; i++) {
                c.add(subject(tag, i), VF.createIRI("http://example.org/value"),
                        VF.createLiteral("a literal long enough to fill pieces quickly, number " + i));
            }
            c.commit();
        }
    }

    private static boolean holds(Repository repo, String subject) {
        try (RepositoryConnection c = repo.getConnection()) {
            return c.hasStatement(VF.createIRI("http://example.org/", subject), null, null, false);
        }
    }
}
