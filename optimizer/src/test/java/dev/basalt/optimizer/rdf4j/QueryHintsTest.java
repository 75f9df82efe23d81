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
}
