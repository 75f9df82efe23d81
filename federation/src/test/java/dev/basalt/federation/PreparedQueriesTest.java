package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.junit.jupiter.api.Test;

/**
 * {@link PreparedQueries}: a text is parsed and planned once while it is kept, each use gets its own copy
 * of the plan, the least recently used text leaves first, and {@link PreparedQueries#clear()} forgets
 * every plan.
 */
class PreparedQueriesTest {
    private final AtomicInteger planned = new AtomicInteger();
    private final PreparedQueries prepared = new PreparedQueries(query -> {
        planned.incrementAndGet();
        return query.getTupleExpr().toString().contains("label") ? query.getTupleExpr().clone() : null;
    }, 2);

    @Test
    void aTextIsPlannedOnceAndEachUseGetsItsOwnPlan() {
        String text = "SELECT * WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l }";
        PreparedQueries.Prepared first = prepared.prepare(text);
        PreparedQueries.Prepared again = prepared.prepare(text);
        assertSame(first, again);
        assertEquals(1, planned.get());
        assertEquals(1, prepared.hits());
        TupleExpr one = again.planCopy();
        TupleExpr two = again.planCopy();
        assertNotSame(one, two);
        assertEquals(one, two);
        assertNull(prepared.prepare("SELECT * WHERE { ?s ?p ?o }").planCopy(), "FedX answers it");
    }

    @Test
    void theLeastRecentlyUsedTextLeavesAndClearForgetsAll() {
        String a = "SELECT * WHERE { ?s <urn:a> ?o }";
        String b = "SELECT * WHERE { ?s <urn:b> ?o }";
        String c = "SELECT * WHERE { ?s <urn:c> ?o }";
        prepared.prepare(a);
        prepared.prepare(b);
        prepared.prepare(a); // b is now the least recently used
        prepared.prepare(c);
        assertEquals(3, planned.get());
        prepared.prepare(a);
        assertEquals(3, planned.get(), "a was kept");
        prepared.prepare(b);
        assertEquals(4, planned.get(), "b had left");
        prepared.clear();
        prepared.prepare(b);
        assertEquals(5, planned.get(), "cleared");
    }

    @Test
    void aQueryOfAKnownShapeReusesItsParseWithItsOwnConstants() {
        String form = "PREFIX bsbm: <http://example.org/v/> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>"
                + " SELECT DISTINCT ?p ?l WHERE { ?p bsbm:type <http://example.org/i/Type%d> ; bsbm:label ?l ;"
                + " bsbm:feature <http://example.org/i/F%d> ; bsbm:numeric ?n ; bsbm:date ?d"
                + " FILTER (?n > %d && ?d < \"2008-06-%02dT00:00:00\"^^xsd:dateTime && ?l != \"x%d\"@en) }"
                + " ORDER BY ?l LIMIT 10";
        for (int i = 1; i <= 4; i++) {
            String text = String.format(form, i, 10 + i, 100 + i, 10 + i, i);
            org.eclipse.rdf4j.query.parser.ParsedQuery got = prepared.prepare(text).parsed();
            org.eclipse.rdf4j.query.parser.ParsedQuery want = org.eclipse.rdf4j.query.parser.QueryParserUtil.parseQuery(
                    org.eclipse.rdf4j.query.QueryLanguage.SPARQL, text, null);
            assertEquals(want.getTupleExpr(), got.getTupleExpr(), text);
            assertEquals(text, got.getSourceString());
        }
        assertEquals(2, prepared.shapeHits(), "the third and fourth texts reused the first one's parse");
        // the same shape with two constants equal that were different: parsed, and right
        String same = String.format(form, 7, 7, 100, 10, 7).replace("/F7>", "/Type7>");
        assertEquals(org.eclipse.rdf4j.query.parser.QueryParserUtil.parseQuery(org.eclipse.rdf4j.query.QueryLanguage.SPARQL,
                same, null).getTupleExpr(), prepared.prepare(same).parsed().getTupleExpr());
        assertEquals(2, prepared.shapeHits());
    }

    @Test
    void aShapeWhoseReuseWouldDifferIsParsedEveryTime() {
        // the first text's constant <http://e/p> is also the prefixed name ex:p: putting another IRI in its
        // place would change the predicate too, which the check on the second text finds
        String form = "PREFIX ex: <http://e/> SELECT * WHERE { ?s ex:p <http://e/%s> }";
        for (String object : new String[] { "p", "q", "r", "s" }) {
            String text = String.format(form, object);
            assertEquals(org.eclipse.rdf4j.query.parser.QueryParserUtil.parseQuery(
                    org.eclipse.rdf4j.query.QueryLanguage.SPARQL, text, null).getTupleExpr(),
                    prepared.prepare(text).parsed().getTupleExpr(), text);
        }
        assertEquals(0, prepared.shapeHits());
    }

    @Test
    void shapesKeepWhatIsNotAConstant() {
        QueryShape a = QueryShape.of("PREFIX x: <http://x/> SELECT ?v1 WHERE { ?v1 x:p 12 ; x:q \"a\"@en } LIMIT 5");
        QueryShape b = QueryShape.of("PREFIX x: <http://x/> SELECT ?v1 WHERE { ?v1 x:p 13 ; x:q \"b\"@en } LIMIT 5");
        QueryShape c = QueryShape.of("PREFIX x: <http://x/> SELECT ?v1 WHERE { ?v1 x:p 13 ; x:q \"b\"@en } LIMIT 6");
        QueryShape d = QueryShape.of("PREFIX x: <http://y/> SELECT ?v1 WHERE { ?v1 x:p 13 ; x:q \"b\"@en } LIMIT 5");
        assertEquals(a.key(), b.key());
        assertEquals(2, b.constants().size());
        assertNotEquals(b.key(), c.key(), "LIMIT stays in the shape");
        assertNotEquals(b.key(), d.key(), "the prologue stays in the shape");
        assertNull(QueryShape.of("BASE <http://x/> SELECT * WHERE { ?s <p> ?o }"));
        assertNull(QueryShape.of("SELECT * WHERE { ?s ?p \"a\\\"b\" }"), "escapes: parsed as they are");
    }

    @Test
    void aMalformedTextFailsEveryTime() {
        assertThrows(MalformedQueryException.class, () -> prepared.prepare("SELECT WHERE {"));
        assertThrows(MalformedQueryException.class, () -> prepared.prepare("SELECT WHERE {"));
        assertEquals(0, planned.get());
    }
}
