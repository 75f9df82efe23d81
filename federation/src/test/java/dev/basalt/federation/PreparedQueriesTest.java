package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
        assertEquals(3, prepared.shapeHits(), "the second to fourth texts reused the first one's parse");
        // the same shape with two constants equal that were different: still two constants, and right
        String same = String.format(form, 7, 7, 100, 10, 7).replace("/F7>", "/Type7>");
        assertEquals(org.eclipse.rdf4j.query.parser.QueryParserUtil.parseQuery(org.eclipse.rdf4j.query.QueryLanguage.SPARQL,
                same, null).getTupleExpr(), prepared.prepare(same).parsed().getTupleExpr());
        assertEquals(4, prepared.shapeHits());
    }

    @Test
    void aMalformedTextFailsEveryTime() {
        assertThrows(MalformedQueryException.class, () -> prepared.prepare("SELECT WHERE {"));
        assertThrows(MalformedQueryException.class, () -> prepared.prepare("SELECT WHERE {"));
        assertEquals(0, planned.get());
    }
}
