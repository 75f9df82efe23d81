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

/**
 * N-Triples uploads through a replicated repository travel as upload entries (their compressed bytes)
 * and are loaded by every replica's bulk loader: every replica ends with the same statements, blank
 * nodes included; writes after the upload in the same transaction apply after it; a read inside the
 * transaction sees the upload; a malformed upload is refused on every replica and leaves every
 * replica applying later writes.
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
        assertTrue(b.length > ReplicatedConnection.UPLOAD_MIN_BYTES, "document below the upload threshold");
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
}
