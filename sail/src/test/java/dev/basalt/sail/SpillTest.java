package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * A transaction far larger than its spill threshold: its pending changes move to disk, reads in
 * the transaction see them, commit writes them all, rollback leaves nothing, and the spill files
 * are gone afterwards. (The 5,000,000-statement run under -Xmx1g is {@link SpillLargeTransactionTest}.)
 */
class SpillTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final int N = 200_000;

    @TempDir
    File dir;

    private SailRepository open() {
        BasaltStoreConfig c = TestRepos.fastConfig();
        c.setSpillThreshold(10_000);
        // the spill path itself: transactions stay in their branches however large
        c.setLargeTransactionThreshold(0);
        return TestRepos.open(dir, c);
    }

    private static BasaltStore sail(SailRepository repo) {
        return (BasaltStore) repo.getSail();
    }

    private long spillFiles() throws IOException {
        Path spill = dir.toPath().resolve(BasaltStore.SPILL_DIR);
        if (!Files.isDirectory(spill)) {
            return 0;
        }
        try (Stream<Path> s = Files.list(spill)) {
            return s.count();
        }
    }

    @Test
    void largeTransactionSpillsReadsItsOwnChangesAndCommits() throws IOException {
        SailRepository repo = open();
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin(IsolationLevels.SNAPSHOT_READ);
            for (int i = 0; i < N; i++) {
                c.add(SpillData.statement(i));
            }
            assertTrue(sail(repo).changeSetModels().spillCount() > 0, "the pending changes spilled");
            assertTrue(spillFiles() > 0);

            // reads in the transaction see the spilled additions
            assertTrue(c.hasStatement(SpillData.statement(12_345), false));
            assertTrue(c.hasStatement(SpillData.statement(N - 1), false));
            assertFalse(c.hasStatement(SpillData.statement(N), false));
            List<Statement> ofSubject = c.getStatements(SpillData.subject(77), null, null, false).stream().toList();
            assertEquals(SpillData.perSubject(77, N), ofSubject.size());
            IRI g = SpillData.graph(3);
            assertEquals(SpillData.inGraph(3, N), c.size(g));
            assertEquals(N, c.size());

            // ... and spilled removals
            c.remove(SpillData.statement(12_345));
            c.remove(SpillData.subject(78), null, null);
            assertFalse(c.hasStatement(SpillData.statement(12_345), false));
            assertFalse(c.hasStatement(SpillData.subject(78), null, null, false));
            long expected = N - 1 - SpillData.perSubject(78, N);
            assertEquals(expected, c.size());
            c.commit();

            assertEquals(expected, c.size());
            assertTrue(c.hasStatement(SpillData.statement(0), false));
            assertTrue(c.hasStatement(SpillData.statement(199_999), false));
            assertFalse(c.hasStatement(SpillData.statement(12_345), false));
            assertEquals(SpillData.inGraph(3, N) - (SpillData.isInGraph(12_345, 3) ? 1 : 0)
                    - countInGraphOfSubject(78, 3), c.size(g));
        }
        assertEquals(0, sail(repo).changeSetModels().openSpillStores(), "the committed change set was released");
        assertEquals(0, spillFiles());
        repo.shutDown();
    }

    private static long countInGraphOfSubject(int subject, int graph) {
        long n = 0;
        for (int i = 0; i < N; i++) {
            if (SpillData.subjectOf(i) == subject && SpillData.graphOf(i) == graph) {
                n++;
            }
        }
        return n;
    }

    @Test
    void rolledBackSpilledTransactionLeavesNothing() throws IOException {
        SailRepository repo = open();
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(VF.createIRI("urn:kept"), VF.createIRI("urn:p"), VF.createLiteral(1));
            c.begin();
            for (int i = 0; i < N / 4; i++) {
                c.add(SpillData.statement(i));
            }
            c.remove(VF.createIRI("urn:kept"), null, null);
            assertTrue(sail(repo).changeSetModels().openSpillStores() > 0);
            c.rollback();
            assertEquals(0, sail(repo).changeSetModels().openSpillStores(), "rollback deleted the spill store at once");
            assertEquals(0, spillFiles());
            assertEquals(1, c.size());
            assertFalse(c.hasStatement(SpillData.statement(0), false));
        }
        repo.shutDown();
    }

    @Test
    void spilledRemovalsOfCommittedStatementsCommit() {
        SailRepository repo = open();
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin(IsolationLevels.NONE);
            for (int i = 0; i < 30_000; i++) {
                c.add(SpillData.statement(i));
            }
            c.commit();
            assertEquals(30_000, c.size());
            long before = sail(repo).changeSetModels().spillCount();
            c.begin();
            for (int i = 0; i < 30_000; i += 2) {
                c.remove(SpillData.statement(i));
            }
            assertTrue(sail(repo).changeSetModels().spillCount() > before, "the removals spilled");
            assertFalse(c.hasStatement(SpillData.statement(0), false));
            assertTrue(c.hasStatement(SpillData.statement(1), false));
            c.commit();
            assertEquals(15_000, c.size());
            assertFalse(c.hasStatement(SpillData.statement(2), false));
            assertTrue(c.hasStatement(SpillData.statement(3), false));
        }
        assertEquals(0, sail(repo).changeSetModels().openSpillStores());
        repo.shutDown();
    }

    @Test
    void connectionClosedWithOpenSpilledTransactionDeletesItsFiles() throws IOException {
        SailRepository repo = open();
        RepositoryConnection c = repo.getConnection();
        c.begin();
        for (int i = 0; i < 20_000; i++) {
            c.add(SpillData.statement(i));
        }
        assertTrue(spillFiles() > 0);
        c.close();
        assertEquals(0, spillFiles());
        try (RepositoryConnection r = repo.getConnection()) {
            assertEquals(0, r.size());
        }
        repo.shutDown();
    }
}
