package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.inferencer.InferencerConnection;
import org.eclipse.rdf4j.sail.SailConnection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.journal.CommitPoint;

/** Isolation smoke tests: interleaved writers in one thread, snapshot readers, atomic commits. */
@Timeout(60)
class IsolationTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI P = VF.createIRI("http://example.org/p");
    @TempDir
    File dir;
    private SailRepository repo;

    @BeforeEach
    void open() {
        repo = TestRepos.open(dir);
    }

    @AfterEach
    void close() {
        repo.shutDown();
    }

    private static IRI iri(String s) {
        return VF.createIRI("http://example.org/" + s);
    }

    @Test
    void twoWritersInOneThreadInterleaveWithoutDeadlock() {
        try (RepositoryConnection c1 = repo.getConnection(); RepositoryConnection c2 = repo.getConnection()) {
            c1.begin();
            c2.begin();
            c1.add(iri("a"), P, iri("1"));
            c2.add(iri("b"), P, iri("2"));
            c1.add(iri("a"), P, iri("3"));
            assertFalse(c2.hasStatement(iri("a"), P, iri("1"), false), "uncommitted changes are private");
            c1.commit();
            c2.add(iri("b"), P, iri("4"));
            c2.commit();
            assertEquals(4, c1.size());
        }
    }

    @Test
    void snapshotReaderKeepsItsViewWhileWriterCommits() throws Exception {
        try (RepositoryConnection w = repo.getConnection()) {
            w.add(iri("s"), P, iri("before"));
        }
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (RepositoryConnection reader = repo.getConnection()) {
            reader.begin(IsolationLevels.SNAPSHOT);
            assertEquals(1, reader.size());
            Future<?> writer = pool.submit(() -> {
                try (RepositoryConnection w = repo.getConnection()) {
                    w.add(iri("s"), P, iri("during"));
                }
            });
            writer.get(30, TimeUnit.SECONDS);
            assertEquals(1, reader.size(), "a SNAPSHOT transaction does not see a later commit");
            assertFalse(reader.hasStatement(iri("s"), P, iri("during"), false));
            reader.commit();
            assertEquals(2, reader.size());
            assertTrue(reader.hasStatement(iri("s"), P, iri("during"), false));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentWritersAllCommit() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> jobs = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                jobs.add(pool.submit(() -> {
                    for (int i = 0; i < 25; i++) {
                        try (RepositoryConnection c = repo.getConnection()) {
                            c.begin();
                            c.add(iri("t" + thread), P, VF.createLiteral(i));
                            c.size();
                            c.commit();
                        }
                    }
                }));
            }
            for (Future<?> f : jobs) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        try (RepositoryConnection c = repo.getConnection()) {
            assertEquals(100, c.size());
        }
    }

    @Test
    void explicitAndInferredChangesCommitAsOneCommitPoint() {
        BasaltStore sail = (BasaltStore) repo.getSail();
        List<CommitPoint> before = sail.getRetainedCommits();
        try (SailConnection c = sail.getConnection()) {
            c.begin();
            c.addStatement(iri("x"), P, iri("y"));
            ((InferencerConnection) c).addInferredStatement(iri("y"), P, iri("x"));
            c.setNamespace("ex", "http://example.org/");
            c.commit();
            assertEquals(1, c.size());
            assertEquals(2, c.getStatements(null, null, null, true).stream().count());
        }
        List<CommitPoint> after = sail.getRetainedCommits();
        long newest = after.get(after.size() - 1).counter();
        assertEquals(before.get(before.size() - 1).counter() + 1, newest, "one commit point for the transaction");
    }

    @Test
    void commitReachesTheStoreWhileAReaderIsOpen() {
        BasaltStore sail = (BasaltStore) repo.getSail();
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(iri("a"), P, iri("b"));
            try (var open = c.getStatements(null, null, null, false)) {
                long before = newestCommit(sail);
                try (RepositoryConnection w = repo.getConnection()) {
                    w.add(iri("c"), P, iri("d"));
                }
                assertEquals(before + 1, newestCommit(sail), "an open reader does not defer the commit");
                assertEquals(2, c.size());
            }
        }
    }

    private static long newestCommit(BasaltStore sail) {
        List<CommitPoint> commits = sail.getRetainedCommits();
        return commits.get(commits.size() - 1).counter();
    }

    @Test
    void explicitAddReplacesInferredCopy() {
        try (SailConnection c = repo.getSail().getConnection()) {
            c.begin();
            ((InferencerConnection) c).addInferredStatement(iri("x"), P, iri("y"));
            c.commit();
            c.begin();
            c.addStatement(iri("x"), P, iri("y"));
            c.commit();
            assertEquals(1, c.getStatements(null, null, null, true).stream().count());
        }
    }
}
