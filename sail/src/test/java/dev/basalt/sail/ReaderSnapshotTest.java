package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryResult;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers read one committed commit point: an iteration's results do not change while other
 * connections commit (SNAPSHOT_READ and SNAPSHOT), a SNAPSHOT transaction keeps reading its
 * commit point across queries, a dataset created after a commit returned sees it, and once every
 * connection is closed no commit point stays pinned.
 */
class ReaderSnapshotTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI P = VF.createIRI("http://example.org/p");
    private static final int N = 2_000;

    @TempDir
    File dir;
    private SailRepository repo;

    @BeforeEach
    void open() {
        repo = TestRepos.open(dir);
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin();
            for (int i = 0; i < N; i++) {
                c.add(iri("s" + i), P, VF.createLiteral(i));
            }
            c.commit();
        }
    }

    @AfterEach
    void close() {
        repo.shutDown();
    }

    private static IRI iri(String local) {
        return VF.createIRI("http://example.org/", local);
    }

    @Test
    void iterationIsStableUnderCommitsAtSnapshotRead() {
        iterationIsStable(IsolationLevels.SNAPSHOT_READ);
    }

    @Test
    void iterationIsStableUnderCommitsAtSnapshot() {
        iterationIsStable(IsolationLevels.SNAPSHOT);
    }

    private void iterationIsStable(IsolationLevel level) {
        try (RepositoryConnection reader = repo.getConnection(); RepositoryConnection writer = repo.getConnection()) {
            reader.begin(level);
            Set<Integer> seen = new HashSet<>();
            try (RepositoryResult<Statement> it = reader.getStatements(null, P, null, false)) {
                int k = 0;
                while (it.hasNext()) {
                    seen.add(Integer.parseInt(it.next().getObject().stringValue()));
                    if (k++ % 200 == 0) {
                        writer.begin();
                        writer.remove(iri("s" + (N - 1 - k)), P, VF.createLiteral(N - 1 - k));
                        writer.add(iri("new" + k), P, VF.createLiteral(N + k));
                        writer.commit();
                    }
                }
            }
            assertEquals(N, seen.size(), "the iteration read one commit point");
            for (int i = 0; i < N; i++) {
                assertTrue(seen.contains(i));
            }
            try (TupleQueryResult r = reader.prepareTupleQuery("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").evaluate()) {
                int n = Integer.parseInt(r.next().getValue("n").stringValue());
                if (level == IsolationLevels.SNAPSHOT) {
                    assertEquals(N, n, "a SNAPSHOT transaction keeps its commit point for later queries");
                } else {
                    assertEquals(N, n, "removals and additions balance, so SNAPSHOT_READ counts the same");
                    assertFalse(reader.hasStatement(iri("s" + (N - 2)), P, VF.createLiteral(N - 2), false),
                            "a new query at SNAPSHOT_READ reads the newest commit point");
                }
            }
            reader.commit();
        }
    }

    @Test
    void aDatasetCreatedAfterCommitSeesIt() {
        try (RepositoryConnection a = repo.getConnection(); RepositoryConnection b = repo.getConnection();
                RepositoryResult<Statement> open = b.getStatements(null, null, null, false)) {
            for (int i = 0; i < 50; i++) {
                a.add(iri("x" + i), P, VF.createLiteral(i));
                assertTrue(b.hasStatement(iri("x" + i), P, VF.createLiteral(i), false));
                assertEquals(N + i + 1, b.size());
            }
        }
    }

    @Test
    void noCommitPointStaysPinnedAfterHeavyUse() {
        BasaltStore sail = (BasaltStore) repo.getSail();
        Random rnd = new Random(42);
        List<IsolationLevel> levels = List.of(IsolationLevels.NONE, IsolationLevels.READ_COMMITTED,
                IsolationLevels.SNAPSHOT_READ, IsolationLevels.SNAPSHOT, IsolationLevels.SERIALIZABLE);
        for (int round = 0; round < 40; round++) {
            IsolationLevel level = levels.get(round % levels.size());
            try (RepositoryConnection c = repo.getConnection(); RepositoryConnection d = repo.getConnection()) {
                c.begin(level);
                try (RepositoryResult<Statement> partly = c.getStatements(null, P, null, true)) {
                    partly.hasNext();
                }
                try (TupleQueryResult r = c.prepareTupleQuery(
                        "SELECT ?s WHERE { ?s <http://example.org/p> ?o FILTER(?o > " + rnd.nextInt(N) + ") } LIMIT 5")
                        .evaluate()) {
                    while (r.hasNext()) {
                        BindingSet b = r.next();
                        assertTrue(b.hasBinding("s"));
                    }
                }
                c.add(iri("r" + round), P, VF.createLiteral(round));
                d.add(iri("d" + round), P, VF.createLiteral(round));
                c.prepareUpdate("DELETE { ?s ?p ?o } WHERE { ?s ?p ?o FILTER(?s = <http://example.org/s" + round + ">) }")
                        .execute();
                if (rnd.nextBoolean()) {
                    try {
                        c.commit();
                    } catch (RuntimeException conflict) {
                        if (c.isActive()) {
                            c.rollback();
                        }
                    }
                } else {
                    c.rollback();
                }
                d.size();
            }
        }
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(iri("last"), P, VF.createLiteral(0)); // retires the cached view of the newest commit point
        }
        assertEquals(0, sail.storeStats().journal().openReaders(), "every dataset released its commit point");
    }
}
