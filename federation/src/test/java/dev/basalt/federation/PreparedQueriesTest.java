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
    void aMalformedTextFailsEveryTime() {
        assertThrows(MalformedQueryException.class, () -> prepared.prepare("SELECT WHERE {"));
        assertThrows(MalformedQueryException.class, () -> prepared.prepare("SELECT WHERE {"));
        assertEquals(0, planned.get());
    }
}
