package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.SailConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.JournalMode;

/** SPARQL queries on past commit points through the as-of query hints, and the commit point listing. */
class TimeTravelQueryTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI S = VF.createIRI("http://example.org/s");
    private static final IRI P = VF.createIRI("http://example.org/p");
    private static final String SELECT = "SELECT ?o WHERE { <http://example.org/s> <http://example.org/p> ?o %s } ORDER BY ?o";
    @TempDir
    File dir;

    private static long newest(BasaltStore sail) {
        List<CommitPoint> commits = sail.getRetainedCommits();
        return commits.get(commits.size() - 1).counter();
    }

    private static List<String> select(RepositoryConnection c, String hint) {
        return QueryResults.asList(c.prepareTupleQuery(String.format(SELECT, hint)).evaluate()).stream()
                .map(b -> b.getValue("o").stringValue()).toList();
    }

    @Test
    void hintReadsThePastCommitPointByCounterAndTimeInRwModeWithRetention() throws Exception {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setHistoryRetention(Duration.ofHours(1));
        check(config);
    }

    @Test
    void hintReadsThePastCommitPointInWormMode() throws Exception {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setJournalMode(JournalMode.WORM);
        check(config);
    }

    private void check(BasaltStoreConfig config) throws Exception {
        SailRepository repo = TestRepos.open(dir, config);
        BasaltStore sail = (BasaltStore) repo.getSail();
        int readers;
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(S, P, VF.createLiteral("old"));
            long old = newest(sail);
            Thread.sleep(5);
            Instant between = Instant.now();
            Thread.sleep(5);
            c.remove(S, P, null);
            c.add(S, P, VF.createLiteral("new"));
            assertEquals(List.of("new"), select(c, ""));
            readers = sail.storeStats().journal().openReaders(); // the newest commit point's reader, kept for reuse
            assertEquals(List.of("old"), select(c, ". [] <http://basalt.dev/hint#asOfCommit> " + old));
            assertEquals(List.of("old"), select(c, ". [] <http://basalt.dev/hint#asOfTime> \"" + between
                    + "\"^^<http://www.w3.org/2001/XMLSchema#dateTime>"));
            assertEquals(List.of("new"), select(c, ". [] <http://basalt.dev/hint#asOfCommit> " + newest(sail)));
            // the same prepared query evaluated twice, and in a transaction (reads the past, not the pending changes)
            var q = c.prepareTupleQuery(String.format(SELECT, ". [] <http://basalt.dev/hint#asOfCommit> " + old));
            assertEquals(1, QueryResults.asList(q.evaluate()).size());
            c.begin();
            c.add(S, P, VF.createLiteral("pending"));
            assertEquals(1, QueryResults.asList(q.evaluate()).size());
            c.rollback();
            // an update whose WHERE reads the past brings the deleted statement back
            c.prepareUpdate("INSERT { <http://example.org/s> <http://example.org/p> ?o } WHERE { "
                    + "[] <http://basalt.dev/hint#asOfCommit> " + old + " . <http://example.org/s> <http://example.org/p> ?o }")
                    .execute();
            assertEquals(List.of("new", "old"), select(c, ""));
            c.remove(S, P, VF.createLiteral("old"));
            String explained = c.prepareTupleQuery(String.format(SELECT, ". [] <http://basalt.dev/hint#asOfCommit> " + old))
                    .explain(Explanation.Level.Executed).toString();
            assertTrue(explained.contains("resultSizeActual=1"), explained);

            List<BindingSet> points = QueryResults.asList(c.prepareTupleQuery("""
                    PREFIX commit: <http://basalt.dev/commit#>
                    SELECT ?n ?time ?statements WHERE { [] <http://basalt.dev/hint#commitPoints> true .
                      ?c a commit:CommitPoint ; commit:counter ?n ; commit:time ?time ; commit:statements ?statements }
                    ORDER BY ?n""").evaluate());
            assertEquals(sail.getRetainedCommits().size(), points.size());
            BindingSet atOld = points.stream().filter(b -> b.getValue("n").stringValue().equals(String.valueOf(old)))
                    .findFirst().orElseThrow();
            assertEquals("1", atOld.getValue("statements").stringValue());
            assertTrue(Instant.parse(atOld.getValue("time").stringValue()).isBefore(between));
            assertEquals(List.of("new"), select(c, "")); // the newest commit point's reader again
        }
        try {
            assertEquals(readers, sail.storeStats().journal().openReaders(), "every read-as-of connection was closed");
        } finally {
            repo.shutDown();
        }
    }

    @Test
    void releasedOrFutureCommitPointIsAnErrorNamingTheReadableRange() {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setHistoryRetention(Duration.ZERO);
        SailRepository repo = TestRepos.open(dir, config);
        BasaltStore sail = (BasaltStore) repo.getSail();
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(S, P, VF.createLiteral(1));
            long first = newest(sail);
            c.add(S, P, VF.createLiteral(2));
            long now = newest(sail);
            var released = assertThrows(QueryEvaluationException.class,
                    () -> select(c, ". [] <http://basalt.dev/hint#asOfCommit> " + first));
            assertTrue(released.getMessage().contains("commit point " + first + " is no longer readable")
                    && released.getMessage().contains("the only readable commit point is " + now + " ("),
                    released.getMessage());
            var future = assertThrows(QueryEvaluationException.class,
                    () -> select(c, ". [] <http://basalt.dev/hint#asOfCommit> " + (now + 5)));
            assertTrue(future.getMessage().contains("has not been made yet"), future.getMessage());
            var early = assertThrows(QueryEvaluationException.class, () -> select(c,
                    ". [] <http://basalt.dev/hint#asOfTime> \"2001-01-01T00:00:00Z\"^^<http://www.w3.org/2001/XMLSchema#dateTime>"));
            assertTrue(early.getMessage().contains("at or before 2001-01-01T00:00:00Z"), early.getMessage());
            try (SailConnection past = sail.getConnectionAsOf(now)) {
                var refused = assertThrows(QueryEvaluationException.class, () -> past.evaluate(
                        new org.eclipse.rdf4j.query.parser.sparql.SPARQLParser().parseQuery(String.format(SELECT,
                                ". [] <http://basalt.dev/hint#asOfCommit> " + now), null).getTupleExpr(),
                        null, new org.eclipse.rdf4j.query.impl.EmptyBindingSet(), false));
                assertTrue(refused.getMessage().contains("cannot read commit point " + now), refused.getMessage());
            }
        } finally {
            repo.shutDown();
        }
    }
}
