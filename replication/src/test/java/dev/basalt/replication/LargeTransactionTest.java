package dev.basalt.replication;

import static dev.basalt.replication.ReplicatedClusterTest.assertConverged;
import static dev.basalt.replication.ReplicatedClusterTest.writeBatches;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
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
     * Large additions are applied through the store's bulk write path on every replica and arrive
     * unchanged, whatever their terms hold: IRIs with spaces, control and non-ASCII characters,
     * language tags (a malformed one included), datatypes, literals of 100,000 characters, blank
     * nodes with their labels, triple terms, named graphs; every replica then holds exactly the
     * statements written.
     */
    @Test
    void largeAdditionsAreAppliedThroughTheBulkPathUnchanged() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 60_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            int n = BulkApply.MIN_STATEMENTS;
            Set<Statement> written = new HashSet<>();
            for (int t = 0; t < 2; t++) {
                List<Statement> data = awkwardStatements("t" + t + "-", n);
                written.addAll(data);
                try (RepositoryConnection c = cluster.node((leader + t) % 3).getConnection()) {
                    c.begin();
                    c.add(data);
                    c.commit();
                }
            }
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                // at least 2: a leader change during the commit may append a transaction twice (a
                // client retry at the new leader), harmlessly (change sets are idempotent)
                assertTrue(cluster.sail(i).bulkApplied() >= 2, "n" + i + " did not take the bulk path");
                assertEquals(0, cluster.sail(i).bulkFallbacks(), "n" + i + " fell back to statement by statement");
                try (RepositoryConnection c = cluster.node(i).getConnection()) {
                    Set<Statement> held = new HashSet<>();
                    c.getStatements(null, null, null, false).forEach(held::add);
                    assertEquals(written.size(), held.size(), "n" + i);
                    assertEquals(written, held, "n" + i);
                }
            }
        }
    }

    /** {@code n} statements whose terms text formats carry only escaped, or not at all. */
    private static List<Statement> awkwardStatements(String tag, int n) {
        List<Statement> out = new ArrayList<>(n);
        IRI p = VF.createIRI("http://example.org/p q\u00e9");
        String longText = "long \u00e9\u0001 ".repeat(12_500);
        for (int i = 0; i < n; i++) {
            IRI s = VF.createIRI("http://example.org/" + tag + "with space/\u00e9t\u00e9/\u0001\u007f<" + i + ">");
            Resource g = switch (i % 3) {
                case 0 -> null;
                case 1 -> VF.createIRI("http://example.org/g\u4e2d\"{" + (i % 5) + "}");
                default -> VF.createBNode(tag + "graph" + (i % 4));
            };
            Value o = switch (i % 9) {
                case 0 -> VF.createLiteral("chat \"quoted\"\n\t\u0000\u0007 " + i, "fr-CA");
                case 1 -> i % 1000 == 1 ? VF.createLiteral(longText + i) : VF.createLiteral("\r\n\\" + i);
                case 2 -> VF.createLiteral(i);
                case 3 -> VF.createLiteral("x" + i, VF.createIRI("http://example.org/dt with space\u00ff"));
                case 4 -> VF.createBNode(tag + "b" + (i % 13));
                case 5 -> VF.createTriple(s, p, VF.createLiteral("inner \u2603 " + i, "en"));
                case 6 -> VF.createIRI("urn:x-\u0085\u2028" + i);
                case 7 -> VF.createLiteral("text " + i, "not a tag");
                default -> VF.createLiteral("\ud83d\ude00 " + i, "zh-Hant-TW");
            };
            out.add(VF.createStatement(s, p, o, g));
        }
        return out;
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
