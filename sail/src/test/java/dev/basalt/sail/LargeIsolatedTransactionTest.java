package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.repository.sail.SailRepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.write.WriteThroughTransaction;

/**
 * Isolated transactions past {@code largeTransactionThreshold} (lowered to {@value #THRESHOLD}) write
 * through into the store ({@link WriteThroughTransaction}): same contents as the branch path at every
 * isolation level, reads of their own writes, invisible to others until commit, other writers wait,
 * rollback and a malformed upload leave the store as it was, and SERIALIZABLE still detects conflicts.
 */
class LargeIsolatedTransactionTest {
    private static final int THRESHOLD = 1_000;
    private static final int N = 5_000;
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI EXTRA = VF.createIRI("http://example.org/extra");

    @TempDir
    File dir;
    private final List<SailRepository> opened = new ArrayList<>();

    private SailRepository open(String name, long threshold) {
        BasaltStoreConfig c = TestRepos.fastConfig();
        c.setLargeTransactionThreshold(threshold);
        SailRepository repo = TestRepos.open(new File(dir, name), c);
        opened.add(repo);
        return repo;
    }

    @AfterEach
    void shutDown() {
        opened.forEach(SailRepository::shutDown);
    }

    /** Begins a transaction and adds {@value #N} statements: it writes through from then on. */
    private static void beginLarge(RepositoryConnection c, IsolationLevel level) {
        c.begin(level);
        for (int i = 0; i < N; i++) {
            c.add(SpillData.statement(i));
        }
        assertTrue(writingThrough(c));
    }

    private static boolean writingThrough(RepositoryConnection c) {
        return ((BasaltStoreConnection) ((SailRepositoryConnection) c).getSailConnection()).isWritingThrough();
    }

    /** Some committed data, then one large transaction of adds, removes, a clear and a namespace. */
    private static boolean change(SailRepository repo, IsolationLevel level) {
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(SpillData.statement(N + 1));
            c.add(SpillData.statement(N + 2));
            c.add(VF.createStatement(EXTRA, EXTRA, EXTRA, VF.createIRI("http://example.org/gone")));
            c.begin(level);
            c.setNamespace("ex", "http://example.org/");
            for (int i = 0; i < N; i++) {
                c.add(SpillData.statement(i));
                if (i % 1_000 == 999) {
                    c.remove(SpillData.statement(i - 500));
                }
            }
            c.remove(SpillData.statement(N + 1));
            c.clear(VF.createIRI("http://example.org/gone"));
            c.remove(SpillData.subject(3), null, null);
            boolean through = writingThrough(c);
            c.commit();
            assertFalse(writingThrough(c));
            return through;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = { "READ_COMMITTED", "SNAPSHOT_READ", "SNAPSHOT", "SERIALIZABLE" })
    void sameContentsAsTheBranchPath(String levelName) {
        IsolationLevel level = IsolationLevels.valueOf(levelName);
        SailRepository large = open("large", THRESHOLD);
        SailRepository small = open("small", 0);
        assertTrue(change(large, level), "the transaction writes through");
        assertFalse(change(small, level), "threshold 0 keeps the branch");
        TestRepos.Dump expected = TestRepos.dump(small);
        assertEquals(expected, TestRepos.dump(large));
        assertTrue(expected.statements().size() > N / 2);
        try (RepositoryConnection c = large.getConnection()) {
            assertEquals(expected.statements().size(), c.size());
        }
    }

    @Test
    void readsItsOwnWritesAndIsInvisibleToOthersUntilCommit() throws Exception {
        SailRepository repo = open("store", THRESHOLD);
        try (RepositoryConnection c = repo.getConnection(); RepositoryConnection other = repo.getConnection()) {
            c.add(VF.createStatement(EXTRA, EXTRA, EXTRA));
            beginLarge(c, IsolationLevels.SNAPSHOT_READ);
            assertEquals(N + 1, c.size());
            assertTrue(c.hasStatement(SpillData.statement(N - 1), false));
            assertTrue(c.hasStatement(SpillData.statement(0), false), "added before the promotion");
            c.remove(SpillData.statement(N - 1));
            assertFalse(c.hasStatement(SpillData.statement(N - 1), false));
            String count = "SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }";
            long named = N - 1 - countDefaultGraph(N - 1);
            assertEquals(named, ((org.eclipse.rdf4j.model.Literal) c.prepareTupleQuery(count).evaluate().next()
                    .getValue("n")).longValue());
            // another connection reads the last commit, in this thread and in another one
            assertEquals(1, other.size());
            assertFalse(other.hasStatement(SpillData.statement(0), false));
            assertEquals(1L, CompletableFuture.supplyAsync(() -> {
                try (RepositoryConnection third = repo.getConnection()) {
                    return third.size();
                }
            }).get(30, TimeUnit.SECONDS));
            c.commit();
            assertEquals(N, other.size());
            assertTrue(other.hasStatement(SpillData.statement(0), false));
        }
    }

    private static long countDefaultGraph(int n) {
        long k = 0;
        for (int i = 0; i < n; i++) {
            if (SpillData.graphOf(i) == 0) {
                k++;
            }
        }
        return k;
    }

    @Test
    void anIterationOpenWhileItsTransactionWritesSeesEachStatementOnce() {
        SailRepository repo = open("store", THRESHOLD);
        try (RepositoryConnection c = repo.getConnection()) {
            beginLarge(c, IsolationLevels.SNAPSHOT_READ);
            IRI s = SpillData.subject(7);
            int expected = c.getStatements(s, null, null, false).stream().toList().size();
            int seen = 0;
            try (var it = c.getStatements(s, null, null, false)) {
                int k = 0;
                while (it.hasNext()) {
                    it.next();
                    seen++;
                    // written at once: the read below flushes the connection's pending addition
                    Statement added = VF.createStatement(s, EXTRA, VF.createLiteral(k++));
                    c.add(added);
                    assertTrue(c.hasStatement(added, false));
                }
            }
            assertEquals(expected, seen);
            c.commit();
            assertEquals(expected * 2L, c.getStatements(s, null, null, false).stream().count());
        }
    }

    @Test
    void rollbackAndCloseDiscardEverything() {
        SailRepository repo = open("store", THRESHOLD);
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(SpillData.statement(N + 1));
            c.setNamespace("keep", "http://example.org/keep#");
        }
        TestRepos.Dump before = TestRepos.dump(repo);
        try (RepositoryConnection c = repo.getConnection()) {
            beginLarge(c, IsolationLevels.SERIALIZABLE);
            c.remove(SpillData.statement(N + 1));
            c.setNamespace("gone", "http://example.org/gone#");
            c.rollback();
            assertFalse(writingThrough(c));
        }
        assertEquals(before, TestRepos.dump(repo));
        try (RepositoryConnection c = repo.getConnection()) {
            beginLarge(c, IsolationLevels.SNAPSHOT_READ);
            // closed with the transaction open
        } catch (RepositoryException expected) {
            // RDF4J may report the open transaction; it is rolled back either way
        }
        assertEquals(before, TestRepos.dump(repo));
        // the writer is free again
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(SpillData.statement(0));
            assertEquals(before.statements().size() + 1, c.size());
        }
    }

    @Test
    void aMalformedUploadAtNinetyPercentLeavesTheStoreUnchanged() {
        SailRepository repo = open("store", THRESHOLD);
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(VF.createStatement(EXTRA, EXTRA, EXTRA));
        }
        TestRepos.Dump before = TestRepos.dump(repo);
        StringBuilder nt = new StringBuilder();
        for (int i = 0; i < N; i++) {
            if (i == N * 9 / 10) {
                nt.append("<http://example.org/broken> <http://example.org/p> \"unterminated .\n");
            }
            Statement st = SpillData.statement(i);
            nt.append(NTriplesUtil.toNTriplesString(st.getSubject())).append(' ')
                    .append(NTriplesUtil.toNTriplesString(st.getPredicate())).append(' ')
                    .append(NTriplesUtil.toNTriplesString(st.getObject())).append(" .\n");
        }
        // as RDF4J Server runs an upload: one transaction at the default isolation
        try (RepositoryConnection c = repo.getConnection()) {
            assertThrows(RDFParseException.class, () -> c.add(new StringReader(nt.toString()), RDFFormat.NTRIPLES));
        }
        assertEquals(before, TestRepos.dump(repo));
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin(IsolationLevels.SNAPSHOT);
            assertThrows(RDFParseException.class, () -> c.add(new StringReader(nt.toString()), RDFFormat.NTRIPLES));
            assertTrue(writingThrough(c));
            c.rollback();
        }
        assertEquals(before, TestRepos.dump(repo));
    }

    /** Another connection, in another thread, adds one statement in a transaction and commits; its size after. */
    private static CompletableFuture<Long> smallCommitInAnotherThread(SailRepository repo) {
        return CompletableFuture.supplyAsync(() -> {
            try (RepositoryConnection o = repo.getConnection()) {
                o.begin(IsolationLevels.SNAPSHOT_READ);
                o.add(VF.createStatement(EXTRA, EXTRA, EXTRA));
                o.commit();
                return o.size();
            }
        });
    }

    @Test
    void otherWritersWaitUntilTheLargeTransactionCommits() throws Exception {
        SailRepository repo = open("store", THRESHOLD);
        try (RepositoryConnection c = repo.getConnection()) {
            beginLarge(c, IsolationLevels.SNAPSHOT_READ);
            CompletableFuture<Long> other = smallCommitInAnotherThread(repo);
            assertThrows(TimeoutException.class, () -> other.get(500, TimeUnit.MILLISECONDS));
            c.commit();
            assertEquals(N + 1, other.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void anIdleLargeTransactionLosesTheWriterToAWaitingCommit() throws Exception {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setLargeTransactionThreshold(THRESHOLD);
        config.setLargeTransactionIdleSeconds(1);
        SailRepository repo = TestRepos.open(new File(dir, "idle"), config);
        opened.add(repo);
        try (RepositoryConnection c = repo.getConnection()) {
            beginLarge(c, IsolationLevels.SNAPSHOT_READ);
            // the application now waits for another transaction's commit: without preemption, forever
            CompletableFuture<Long> other = smallCommitInAnotherThread(repo);
            assertEquals(1L, other.get(60, TimeUnit.SECONDS));
            RepositoryException e = assertThrows(RepositoryException.class, () -> c.add(SpillData.statement(N)));
            assertTrue(e.getMessage().contains("largeTransactionIdleSeconds"), e.getMessage());
            assertThrows(RepositoryException.class, c::commit);
            c.rollback();
            assertFalse(writingThrough(c));
            assertEquals(1, c.size());
            // the connection's next transaction works
            beginLarge(c, IsolationLevels.SNAPSHOT_READ);
            c.commit();
            assertEquals(N + 1, c.size());
        }
    }

    @Test
    void aLargeInsertDataWritesThrough() {
        SailRepository repo = open("store", THRESHOLD);
        try (RepositoryConnection c = repo.getConnection()) {
            StringBuilder update = new StringBuilder("INSERT DATA {\n");
            List<Statement> data = new ArrayList<>();
            for (int i = 0; i < N; i++) {
                Statement st = VF.createStatement(SpillData.subject(i), EXTRA, VF.createLiteral("v" + i));
                data.add(st);
                update.append(NTriplesUtil.toNTriplesString(st.getSubject())).append(' ')
                        .append(NTriplesUtil.toNTriplesString(st.getPredicate())).append(' ')
                        .append(NTriplesUtil.toNTriplesString(st.getObject())).append(" .\n");
            }
            update.append('}');
            c.begin(IsolationLevels.SNAPSHOT_READ);
            c.prepareUpdate(QueryLanguage.SPARQL, update.toString()).execute();
            assertTrue(writingThrough(c));
            c.prepareUpdate(QueryLanguage.SPARQL, "DELETE { ?s <" + EXTRA + "> \"v7\" } WHERE { ?s <" + EXTRA + "> \"v7\" }").execute();
            c.commit();
            assertEquals(N - 1, c.size());
            assertFalse(c.hasStatement(data.get(7), false));
            assertTrue(c.hasStatement(data.get(8), false));
        }
    }

    @Test
    void serializableStillDetectsAConflictThatCameFirst() {
        SailRepository repo = open("store", THRESHOLD);
        try (RepositoryConnection c = repo.getConnection(); RepositoryConnection other = repo.getConnection()) {
            c.add(VF.createStatement(EXTRA, EXTRA, VF.createLiteral(1)));
            c.begin(IsolationLevels.SERIALIZABLE);
            assertEquals(1, c.getStatements(EXTRA, EXTRA, null, false).stream().count());
            other.add(VF.createStatement(EXTRA, EXTRA, VF.createLiteral(2)));
            for (int i = 0; i < N; i++) {
                c.add(SpillData.statement(i));
            }
            assertFalse(writingThrough(c), "a commit came after the transaction began: it stays in its branch");
            assertThrows(RepositoryException.class, c::commit);
            c.rollback();
            assertEquals(2, other.size());
        }
    }
}
