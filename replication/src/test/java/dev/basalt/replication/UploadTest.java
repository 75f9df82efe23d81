package dev.basalt.replication;

import static dev.basalt.replication.ReplicatedClusterTest.assertConverged;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.Rio;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.replication.log.LogEntries;

/**
 * N-Triples uploads through a replicated repository travel as upload entries (their compressed bytes)
 * and are loaded by every replica's bulk loader: every replica ends with the same statements, blank
 * nodes included; writes after the upload in the same transaction apply after it; a read inside the
 * transaction sees the upload; a malformed upload is refused on every replica and leaves every
 * replica applying later writes; an upload larger than a piece sends its first parts while its body
 * is still read, and a rollback aborts them.
 */
class UploadTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    Path dir;

    /** An N-Triples document of {@code lines} statements, larger than the upload threshold for 12,000 and more. */
    private static String document(String tag, int lines) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            String s = i % 10 == 0 ? "_:b" + (i % 70) : "<http://example.org/" + tag + "/s" + (i / 4) + ">";
            String o = switch (i % 5) {
                case 0 -> "\"caf\\u00E9 \\\"" + i + "\\\"\\n\"@fr";
                case 1 -> "\"" + i + "\"^^<http://www.w3.org/2001/XMLSchema#integer>";
                case 2 -> "_:o" + (i % 50);
                case 3 -> "<http://example.org/" + tag + "/o" + i + ">";
                default -> "\"a fairly long plain literal to make the document larger, number " + i + "\"";
            };
            sb.append(s).append(" <http://example.org/p").append(i % 7).append("> ").append(o).append(" .\n");
        }
        return sb.toString();
    }

    private static byte[] bytes(String doc) {
        byte[] b = doc.getBytes(StandardCharsets.UTF_8);
        assertTrue(b.length > WholeUpload.MIN_BYTES, "document below the upload threshold");
        return b;
    }

    @Test
    void anUploadIsLoadedAlikeByEveryReplicaWithTheWritesAfterIt() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 60_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            int follower = (leader + 1) % 3;
            String doc = document("u", 16_000);
            Model parsed = Rio.parse(new StringReader(doc), "", RDFFormat.NTRIPLES);
            IRI extra = VF.createIRI("http://example.org/extra");
            Statement removed = VF.createStatement(VF.createIRI("http://example.org/u/s3"), VF.createIRI("http://example.org/p6"),
                    VF.createIRI("http://example.org/u/o13"));
            assertTrue(parsed.contains(removed));
            long groupedBefore = cluster.sail(follower).groupCounts()[1];
            try (RepositoryConnection c = cluster.node(follower).getConnection()) {
                c.begin();
                c.add(new ByteArrayInputStream(bytes(doc)), "", RDFFormat.NTRIPLES);
                c.add(extra, extra, VF.createLiteral("after the upload"));
                c.remove(removed);
                c.commit();
            }
            assertEquals(groupedBefore, cluster.sail(follower).groupCounts()[1],
                    "an upload entry went through group commit, where a group would hold it with change sets");
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                assertTrue(cluster.sail(i).bulkApplied() >= 1, "n" + i + " did not load the upload");
                try (RepositoryConnection c = cluster.node(i).getConnection()) {
                    assertEquals(parsed.size(), c.size(), "n" + i + ": the upload, one added and one removed");
                    assertTrue(c.hasStatement(extra, extra, VF.createLiteral("after the upload"), false), "n" + i);
                    assertFalse(c.hasStatement(removed, false), "n" + i + ": the removal after the upload");
                    Set<BNode> blanks = new HashSet<>();
                    c.getStatements(null, null, null, false).forEach(st -> {
                        if (st.getSubject() instanceof BNode b) {
                            blanks.add(b);
                        }
                        if (st.getObject() instanceof BNode b) {
                            blanks.add(b);
                        }
                    });
                    assertEquals(labels(parsed), blanks.size(), "n" + i + ": one node per label");
                }
            }
        }
    }

    private static int labels(Model parsed) {
        Set<String> labels = new HashSet<>();
        parsed.forEach(st -> {
            if (st.getSubject() instanceof BNode b) {
                labels.add(b.getID());
            }
            if (st.getObject() instanceof BNode b) {
                labels.add(b.getID());
            }
        });
        return labels.size();
    }

    @Test
    void aReadInsideTheTransactionSeesTheUpload() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 60_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            String doc = document("r", 14_000);
            try (RepositoryConnection c = cluster.node(leader).getConnection()) {
                c.begin();
                c.add(new ByteArrayInputStream(bytes(doc)), "", RDFFormat.NTRIPLES);
                assertEquals(14_000, c.size(), "the transaction's view");
                c.remove((org.eclipse.rdf4j.model.Resource) null, VF.createIRI("http://example.org/p0"), null);
                c.commit();
            }
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                try (RepositoryConnection c = cluster.node(i).getConnection()) {
                    assertEquals(12_000, c.size(), "n" + i + ": the upload less the statements of p0");
                    assertFalse(c.hasStatement(null, VF.createIRI("http://example.org/p0"), null, false), "n" + i);
                }
            }
        }
    }

    @Test
    void aMalformedUploadIsRefusedOnEveryReplica() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 60_000, 0).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            String doc = document("m", 15_000) + "<http://example.org/broken> <http://example.org/p> .\n";
            try (RepositoryConnection c = cluster.node(leader).getConnection()) {
                c.begin();
                c.add(new ByteArrayInputStream(bytes(doc)), "", RDFFormat.NTRIPLES);
                RDFParseException e = assertThrows(RDFParseException.class, c::commit);
                assertTrue(String.valueOf(e.getMessage()).contains("upload:15001"), e.getMessage());
            }
            try (RepositoryConnection c = cluster.node((leader + 2) % 3).getConnection()) {
                c.add(VF.createIRI("urn:after"), VF.createIRI("urn:p"), VF.createLiteral(1));
            }
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                assertEquals("LEADER".equals(cluster.sail(i).role()) || "FOLLOWER".equals(cluster.sail(i).role()), true,
                        "n" + i + " stopped: " + cluster.sail(i).describe());
                try (RepositoryConnection c = cluster.node(i).getConnection()) {
                    assertEquals(1, c.size(), "n" + i + ": nothing of the malformed upload");
                }
            }
        }
    }

    @Test
    void anUploadsPartsGoToTheLogWhileItsBodyIsReadAndARollbackAbortsThem() throws Exception {
        try (InProcessCluster cluster = new InProcessCluster(dir, 3, 60_000, 0).pieceBytes(16 << 10).startAll()) {
            int leader = cluster.awaitLeader(20_000);
            assertTrue(leader >= 0, "no leader elected");
            int follower = (leader + 1) % 3;
            String doc = document("s", 16_000);
            byte[] body = bytes(doc);
            long start = cluster.sail(leader).raftLog().getLastCommittedIndex();
            // the body's last bytes are handed over only once parts of it are committed in the log
            int[] partsBeforeTheEnd = {-1};
            java.io.InputStream slow = new java.io.FilterInputStream(new ByteArrayInputStream(body)) {
                private int given;

                @Override
                public int read(byte[] b, int off, int len) throws java.io.IOException {
                    if (given + len >= body.length && partsBeforeTheEnd[0] < 0) {
                        partsBeforeTheEnd[0] = awaitKinds(cluster.sail(leader), start, LogEntries.PART, 2, 20_000);
                    }
                    int n = super.read(b, off, len);
                    given += Math.max(n, 0);
                    return n;
                }
            };
            try (RepositoryConnection c = cluster.node(follower).getConnection()) {
                c.begin();
                c.add(slow, "", RDFFormat.NTRIPLES);
                c.commit();
            }
            assertTrue(partsBeforeTheEnd[0] >= 2, "parts committed before the body's end: " + partsBeforeTheEnd[0]);
            assertConverged(cluster);
            java.util.List<Byte> kinds = kinds(cluster.sail(leader), start);
            assertTrue(kinds.contains(LogEntries.COMMIT), "no commit entry: " + kinds);
            int size;
            try (RepositoryConnection c = cluster.node(leader).getConnection()) {
                size = (int) c.size();
            }
            assertEquals(Rio.parse(new StringReader(doc), "", RDFFormat.NTRIPLES).size(), size);

            // an upload rolled back after its parts went out: an abort, and nothing applied anywhere
            long before = cluster.sail(leader).raftLog().getLastCommittedIndex();
            try (RepositoryConnection c = cluster.node(follower).getConnection()) {
                c.begin();
                c.add(new ByteArrayInputStream(bytes(document("x", 16_000))), "", RDFFormat.NTRIPLES);
                c.rollback();
            }
            assertTrue(awaitKinds(cluster.sail(leader), before, LogEntries.ABORT, 1, 20_000) == 1,
                    "no abort entry after the rollback: " + kinds(cluster.sail(leader), before));
            try (RepositoryConnection c = cluster.node((leader + 2) % 3).getConnection()) {
                c.add(VF.createIRI("urn:after"), VF.createIRI("urn:p"), VF.createLiteral(1));
            }
            assertConverged(cluster);
            for (int i = 0; i < 3; i++) {
                try (RepositoryConnection c = cluster.node(i).getConnection()) {
                    assertEquals(size + 1, c.size(), "n" + i + ": the first upload and the write after the rollback");
                    assertFalse(c.hasStatement(VF.createIRI("http://example.org/x/s1"), null, null, false), "n" + i);
                }
            }
        }
    }

    /** Waits until {@code sail}'s log holds {@code count} committed entries of {@code kind} after {@code from}; returns how many it holds. */
    private static int awaitKinds(ReplicatedSail sail, long from, byte kind, int count, long millis) {
        long deadline = System.currentTimeMillis() + millis;
        while (true) {
            int n;
            try {
                n = (int) kinds(sail, from).stream().filter(k -> k == kind).count();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            if (n >= count || System.currentTimeMillis() > deadline) {
                return n;
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return n;
            }
        }
    }

    /** The first bytes of the state machine entries committed in {@code sail}'s log after index {@code from}. */
    private static java.util.List<Byte> kinds(ReplicatedSail sail, long from) throws Exception {
        org.apache.ratis.server.raftlog.RaftLog log = sail.raftLog();
        java.util.List<Byte> kinds = new java.util.ArrayList<>();
        for (long i = from + 1; i <= log.getLastCommittedIndex(); i++) {
            var e = log.get(i);
            if (e != null && e.hasStateMachineLogEntry()) {
                byte[] data = e.getStateMachineLogEntry().getLogData().toByteArray();
                kinds.add(data.length == 0 ? 0 : data[0]);
            }
        }
        return kinds;
    }
}
