package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.helpers.collectors.StatementPatternCollector;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.plan.OrderingPolicy;

class QueryHintsTest {
    private static TupleExpr parse(String where) {
        return new SPARQLParser().parseQuery("PREFIX hint: <" + QueryHints.NAMESPACE
                + "> PREFIX : <http://example.org/> SELECT * WHERE { " + where + " }", null).getTupleExpr();
    }

    @Test
    void hintIsReplacedAndItsModeReturnedAgainOnTheNextEvaluation() {
        TupleExpr query = parse("?x :p ?y . [] hint:optimizer \"runtime\" . ?y :q ?z");
        QueryHints.Stripped s = QueryHints.strip(query);
        assertEquals(OrderingPolicy.Mode.RUNTIME, s.mode());
        assertEquals(2, StatementPatternCollector.process(s.expr()).size());
        // a prepared query is evaluated again (RDF4J clones the tree per evaluation): the hint is still known
        assertEquals(OrderingPolicy.Mode.RUNTIME, QueryHints.strip(query.clone()).mode());
    }

    @Test
    void queryWithoutHintsIsReturnedAsIs() {
        TupleExpr query = parse("?x :p ?y");
        QueryHints.Stripped s = QueryHints.strip(query);
        assertSame(query, s.expr());
        assertEquals(1, StatementPatternCollector.process(s.expr()).size());
        assertNull(s.mode());
    }

    @Test
    void staticHintInsideAnOptionalGroup() {
        QueryHints.Stripped s = QueryHints.strip(parse("?x :p ?y OPTIONAL { ?y :q ?z . [] hint:optimizer \"static\" }"));
        assertEquals(OrderingPolicy.Mode.STATIC, s.mode());
        for (StatementPattern sp : StatementPatternCollector.process(s.expr())) {
            assertTrue(!sp.getPredicateVar().getValue().stringValue().startsWith(QueryHints.NAMESPACE));
        }
    }

    @Test
    void joinsHintChoosesTheJoinsAndKeepsTheOrdering() {
        QueryHints.Stripped s = QueryHints.strip(parse("?x :p ?y . [] hint:joins \"nested-loop\" . ?y :q ?z"));
        assertEquals(OrderingPolicy.Joins.NESTED_LOOP, s.joins());
        assertNull(s.mode());
        assertEquals(OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.NESTED_LOOP), s.policy());
        QueryHints.Stripped both = QueryHints.strip(parse(
                "?x :p ?y . [] hint:joins \"hash-merge\" . [] hint:optimizer \"static\""));
        assertEquals(OrderingPolicy.DEFAULT.withMode(OrderingPolicy.Mode.STATIC)
                .withJoins(OrderingPolicy.Joins.HASH_MERGE), both.policy());
        assertEquals(OrderingPolicy.DEFAULT, QueryHints.strip(parse("?x :p ?y")).policy());
        var bad = assertThrows(QueryEvaluationException.class,
                () -> QueryHints.strip(parse("?x :p ?y . [] hint:joins \"hash\"")));
        assertTrue(bad.getMessage().contains("\"nested-loop\" or \"hash-merge\""), bad.getMessage());
    }

    @Test
    void unknownHintValueOrNameOrConflictFailsNamingIt() {
        var bad = assertThrows(QueryEvaluationException.class,
                () -> QueryHints.strip(parse("?x :p ?y . [] hint:optimizer \"fast\"")));
        assertTrue(bad.getMessage().contains("\"fast\""), bad.getMessage());
        var unknown = assertThrows(QueryEvaluationException.class,
                () -> QueryHints.strip(parse("?x :p ?y . [] hint:joinOrder \"runtime\"")));
        assertTrue(unknown.getMessage().contains(QueryHints.NAMESPACE + "joinOrder"), unknown.getMessage());
        var conflict = assertThrows(QueryEvaluationException.class, () -> QueryHints
                .strip(parse("?x :p ?y . [] hint:optimizer \"static\" . [] hint:optimizer \"runtime\"")));
        assertTrue(conflict.getMessage().contains("conflicting"), conflict.getMessage());
    }

    @Test
    void asOfHintsGiveTheCommitPointByCounterOrTime() {
        QueryHints.Stripped byCounter = QueryHints.strip(parse("?x :p ?y . [] hint:asOfCommit 42"));
        assertEquals(QueryHints.AsOf.commit(42), byCounter.asOf());
        assertEquals(1, StatementPatternCollector.process(byCounter.expr()).size());
        assertEquals(QueryHints.AsOf.commit(42), QueryHints.strip(byCounter.expr().clone()).asOf());
        QueryHints.Stripped byTime = QueryHints.strip(parse(
                "?x :p ?y . [] hint:asOfTime \"2026-11-25T17:00:00+01:00\"^^<http://www.w3.org/2001/XMLSchema#dateTime>"));
        assertEquals(QueryHints.AsOf.time(java.time.Instant.parse("2026-11-25T16:00:00Z")), byTime.asOf());
        QueryHints.Stripped list = QueryHints.strip(parse("?c ?p ?o . [] hint:commitPoints true"));
        assertTrue(list.commitPoints());
        assertNull(list.asOf());
        assertNull(QueryHints.strip(parse("?x :p ?y")).asOf());
    }

    @Test
    void badAsOfHintsFailNamingTheHint() {
        var negative = assertThrows(QueryEvaluationException.class,
                () -> QueryHints.strip(parse("?x :p ?y . [] hint:asOfCommit -3")));
        assertTrue(negative.getMessage().contains("asOfCommit") && negative.getMessage().contains("-3"),
                negative.getMessage());
        var badTime = assertThrows(QueryEvaluationException.class,
                () -> QueryHints.strip(parse("?x :p ?y . [] hint:asOfTime \"yesterday\"")));
        assertTrue(badTime.getMessage().contains("asOfTime"), badTime.getMessage());
        var both = assertThrows(QueryEvaluationException.class,
                () -> QueryHints.strip(parse("?x :p ?y . [] hint:asOfCommit 3 . [] hint:asOfCommit 4")));
        assertTrue(both.getMessage().contains("commit point 3") && both.getMessage().contains("commit point 4"),
                both.getMessage());
        assertThrows(QueryEvaluationException.class,
                () -> QueryHints.strip(parse("?x :p ?y . [] hint:asOfCommit 3 . [] hint:commitPoints true")));
    }
}
