package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.SailConnection;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.SailReadOnlyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.JournalMode;

/** Read-only connections on past commit points: by counter, by time, with SPARQL, and released ones. */
class ReadAsOfTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI S = VF.createIRI("http://example.org/s");
    private static final IRI P = VF.createIRI("http://example.org/p");
    @TempDir
    File dir;

    static long newest(BasaltStore sail) {
        List<CommitPoint> commits = sail.getRetainedCommits();
        return commits.get(commits.size() - 1).counter();
    }

    @Test
    void wormKeepsEveryCommitPointReadable() throws Exception {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setJournalMode(JournalMode.WORM);
        SailRepository repo = TestRepos.open(dir, config);
        BasaltStore sail = (BasaltStore) repo.getSail();
        try {
            long[] commits = new long[3];
            Instant[] times = new Instant[3];
            for (int i = 0; i < 3; i++) {
                try (RepositoryConnection c = repo.getConnection()) {
                    c.add(S, P, VF.createLiteral(i));
                    if (i == 1) {
                        c.setNamespace("v1", "http://example.org/v1#");
                    }
                }
                commits[i] = newest(sail);
                times[i] = Instant.now();
                Thread.sleep(5);
            }
            try (RepositoryConnection c = repo.getConnection()) {
                c.clear();
            }
            for (int i = 0; i < 3; i++) {
                try (SailConnection past = sail.getConnectionAsOf(commits[i])) {
                    assertEquals(i + 1, past.size(), "size as of commit " + commits[i]);
                    assertEquals(i >= 1, past.getNamespace("v1") != null);
                    assertEquals(i + 1, past.getStatements(S, P, null, false).stream().count());
                }
                try (SailConnection past = sail.getConnectionAsOf(times[i])) {
                    assertEquals(i + 1, past.size(), "size as of " + times[i]);
                }
            }
            try (SailConnection past = sail.getConnectionAsOf(commits[1])) {
                assertThrows(SailReadOnlyException.class, past::begin);
                assertTrue(past.hasStatement(S, P, VF.createLiteral(1), false));
                assertFalse(past.hasStatement(S, P, VF.createLiteral(2), false));
                var query = new org.eclipse.rdf4j.query.parser.sparql.SPARQLParser()
                        .parseQuery("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", null);
                try (var result = past.evaluate(query.getTupleExpr(), null,
                        new org.eclipse.rdf4j.query.impl.EmptyBindingSet(), false)) {
                    assertEquals("2", result.next().getValue("n").stringValue());
                }
            }
            try (RepositoryConnection c = repo.getConnection()) {
                assertEquals(0, c.size(), "the live store is unaffected");
            }
            assertEquals(QueryLanguage.SPARQL, QueryLanguage.SPARQL);
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void releasedCommitPointIsAClearError() {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setHistoryRetention(Duration.ZERO);
        SailRepository repo = TestRepos.open(dir, config);
        BasaltStore sail = (BasaltStore) repo.getSail();
        try {
            try (RepositoryConnection c = repo.getConnection()) {
                c.add(S, P, VF.createLiteral(1));
            }
            long first = newest(sail);
            for (int i = 0; i < 3; i++) {
                try (RepositoryConnection c = repo.getConnection()) {
                    c.add(S, P, VF.createLiteral(10 + i));
                }
            }
            SailException e = assertThrows(SailException.class, () -> sail.getConnectionAsOf(first));
            assertTrue(e.getMessage().contains("not retained"), e.getMessage());
            try (SailConnection now = sail.getConnectionAsOf(newest(sail))) {
                assertEquals(4, now.size());
            }
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void retentionWindowKeepsRecentCommitsInRwMode() {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setHistoryRetention(Duration.ofHours(1));
        SailRepository repo = TestRepos.open(dir, config);
        BasaltStore sail = (BasaltStore) repo.getSail();
        try {
            try (RepositoryConnection c = repo.getConnection()) {
                c.add(S, P, VF.createLiteral(1));
            }
            long first = newest(sail);
            try (RepositoryConnection c = repo.getConnection()) {
                c.remove(S, P, VF.createLiteral(1));
            }
            try (SailConnection past = sail.getConnectionAsOf(first)) {
                assertEquals(1, past.size());
            }
        } finally {
            repo.shutDown();
        }
    }
}
