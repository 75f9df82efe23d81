package dev.basalt.sail.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;

import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.parser.ParsedTupleQuery;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.junit.jupiter.api.Test;

/**
 * A hostile query of a new shape, a filter of thousands of {@code ||}, gets its template made and checked (which
 * compares printed trees) in memory linear in its depth: RDF4J's tree printer indents each line by its depth, so
 * comparing its texts of a chain 20,000 deep took gigabytes and ran the server out of memory.
 */
class DeepQueryTemplateTest {
    private static String orChain(int depth, int offset) {
        StringBuilder q = new StringBuilder("SELECT * WHERE { ?s ?p ?o FILTER(?o = 0");
        for (int i = 1; i <= depth; i++) {
            q.append(" || ?o = ").append(i + offset);
        }
        return q.append(") }").toString();
    }

    /** Runs {@code body} on a thread with a stack large enough to parse and walk a deep chain. */
    private static void onLargeStack(Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "deep-query", 256L << 20);
        t.start();
        t.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Test
    void aDeepChainsCanonicalTextIsLinearInItsDepth() throws InterruptedException {
        int depth = 4_000;
        onLargeStack(() -> {
            QueryFront front = new QueryFront(10, false);
            QueryFront.Prepared first = front.prepare(QueryLanguage.SPARQL, orChain(depth, 0), null);
            String canonical = QueryTemplate.canonical(first.query().getTupleExpr());
            // 3 nodes per || at about 60 characters each; the printer's indentation would add 3 * 3 * depth^2 / 2
            assertTrue(canonical.length() < 200L * depth, "canonical text of " + canonical.length() + " characters");
            // the shape's template was made and checked: a second query of the shape is instantiated from it
            QueryFront.Prepared second = front.prepare(QueryLanguage.SPARQL, orChain(depth, 7), null);
            assertNotNull(second.algebra());
            assertEquals(ParsedTupleQuery.class, second.query().getClass());
            assertEquals(QueryTemplate.canonical(QueryParserUtil.parseQuery(QueryLanguage.SPARQL, orChain(depth, 7), null)
                    .getTupleExpr()), QueryTemplate.canonical(second.query().getTupleExpr()));
        });
    }
}
