package dev.basalt.sail.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.vocabulary.RDFS;
import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategyFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.sail.helpers.SailWrapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.rdf4j.QueryHints;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * The query front door's direct route ({@link QueryFront#select}): a SELECT of a shape whose plan is kept for the
 * store's newest state is answered without a connection, with the rows and binding names a store without shapes
 * gives, and its snapshot is released when the result is closed; every query the route may not answer gets null
 * (and then goes through a connection): a shape not seen yet or without a kept plan for the newest state, a
 * DESCRIBE, CONSTRUCT or ASK, a query with FROM or with a query hint, a store with its own evaluation strategy or
 * that tracks result sizes (also when set after the store opened), a repository over a wrapped store or shut down.
 */
class FrontDoorSelectTest extends CachedAgainstReference {
    private static final IRI G1 = ex("g1");

    @Override
    int shapesKept() {
        return 100;
    }

    @BeforeEach
    void fill() {
        addToBoth(c -> {
            for (int i = 0; i < 30; i++) {
                IRI product = ex("product" + i);
                c.add(product, ex("type"), ex("Type" + (i % 3)), G1);
                c.add(product, ex("price"), VF.createLiteral(Integer.toString(7 * i), XSD.INTEGER));
                if (i % 2 == 0) {
                    c.add(product, RDFS.LABEL, VF.createLiteral("product " + i));
                }
            }
        });
    }

    private static String query(int type, int minPrice) {
        return PREFIX + "SELECT ?p ?price ?label WHERE { ?p ex:type ex:Type" + type + " ; ex:price ?price . "
                + "OPTIONAL { ?p rdfs:label ?label } FILTER(?price > " + minPrice + ") } ORDER BY ?price";
    }

    private QueryFront front() {
        return cached.front;
    }

    /** Through a connection, as sorted lines. */
    private static List<String> viaConnection(BasaltRepository repo, String query) {
        try (RepositoryConnection c = repo.getConnection()) {
            return sortedLines(c.prepareTupleQuery(query));
        }
    }

    private static List<String> lines(TupleQueryResult result) {
        List<String> lines = new ArrayList<>();
        try (result) {
            for (BindingSet b : result) {
                lines.add(b.toString());
            }
        }
        Collections.sort(lines);
        return lines;
    }

    private BasaltStore store() {
        return (BasaltStore) cached.getSail();
    }

    /** Queries of the shape through a connection until its plan is kept and run directly there. */
    private void keep(String query) {
        for (int i = 0; i < 3; i++) {
            viaConnection(cached, query);
        }
    }

    @Test
    void aKeptPlanAnswersWithoutAConnectionAsAStoreWithoutShapes() {
        String first = query(0, 0);
        assertNull(front().select(first, true), "a shape not seen yet");
        keep(first);
        long direct = front().getDirectRuns();
        for (int i = 0; i < 12; i++) {
            String q = query(i % 3, 5 * i);
            TupleQueryResult result = front().select(q, true);
            if (result == null) {
                keep(q); // another type's first query: the same shape, but its plan may want this query's constants
                result = front().select(q, true);
            }
            assertNotNull(result, q);
            assertEquals(List.of("p", "price", "label"), result.getBindingNames());
            assertEquals(viaConnection(reference, q), lines(result), q);
            assertEquals(0, store().nativeQueries().running(), "the snapshot is released with the result");
        }
        assertEquals(direct + 12, front().getDirectRuns());
    }

    @Test
    void aQueryTheRouteDoesNotAnswerIsLexedOnce() {
        String q = query(1, 3);
        keep(q);
        String describe = PREFIX + "DESCRIBE ex:product2";
        assertNull(front().select(describe, true));
        assertTrue(front().remembersShapeOf(describe), "the shape select read is kept for prepare");
        assertFalse(front().remembersShapeOf(new String(describe)), "only for the very same query text");
        // the connection's prepare takes the remembered shape: the answer is a parse's
        String again = query(1, 4);
        assertNull(front().select(again, false)); // the plans without inferred statements are not kept yet
        assertTrue(front().remembersShapeOf(again));
        try (RepositoryConnection c = cached.getConnection()) {
            assertEquals(viaConnection(reference, again), sortedLines(c.prepareTupleQuery(again)));
        }
    }

    @Test
    void inferenceIsTheCallersChoice() {
        String q = query(1, 0);
        keep(q);
        assertEquals(viaConnection(reference, q), lines(front().select(q, true)));
        // the plans of each statement-set choice are kept apart: the first without inferred statements compiles
        assertNull(front().select(q, false));
    }

    @Test
    void aNewerStateIsPlannedThroughAConnectionFirst() {
        String q = query(2, 0);
        keep(q);
        assertNotNull(front().select(q, true));
        try (RepositoryConnection c = cached.getConnection()) {
            c.add(ex("newProduct"), ex("type"), ex("Type2"));
            c.add(ex("newProduct"), ex("price"), VF.createLiteral("500", XSD.INTEGER));
        }
        try (RepositoryConnection c = reference.getConnection()) {
            c.add(ex("newProduct"), ex("type"), ex("Type2"));
            c.add(ex("newProduct"), ex("price"), VF.createLiteral("500", XSD.INTEGER));
        }
        assertNull(front().select(q, true), "no plan kept for the newest state");
        keep(q);
        List<String> direct = lines(front().select(q, true));
        assertTrue(direct.stream().anyMatch(l -> l.contains("newProduct")), direct.toString());
        assertEquals(viaConnection(reference, q), direct);
    }

    @Test
    void otherQueriesAreLeftToAConnection() {
        String describe = PREFIX + "DESCRIBE ex:product1";
        String construct = PREFIX + "CONSTRUCT { ?p ex:costs ?price } WHERE { ?p ex:price ?price . FILTER(?price > 3) }";
        String ask = PREFIX + "ASK { ?p ex:price 14 }";
        String from = PREFIX + "SELECT ?p FROM <" + G1 + "> WHERE { ?p ex:type ex:Type1 }";
        String hinted = PREFIX + "SELECT ?p WHERE { ?p ex:type ex:Type1 . [] <" + QueryHints.JOINS
                + "> \"cost\" }";
        for (String q : List.of(describe, construct, ask, from, hinted)) {
            try (RepositoryConnection c = cached.getConnection()) {
                for (int i = 0; i < 3; i++) {
                    sortedLines(c.prepareQuery(q));
                }
            }
            assertNull(front().select(q, true), q);
        }
        assertEquals(0, front().getDirectRuns());
    }

    /** A store given its own evaluation strategy factory leaves every query to it (as its connections do). */
    @Test
    void aCustomEvaluationStrategyIsNotBypassed() {
        String q = query(1, 4);
        keep(q);
        lines(front().select(q, true));
        store().setEvaluationStrategyFactory(new DefaultEvaluationStrategyFactory() {
        });
        assertNull(front().select(q, true));
        // RDF4J's evaluator answers it now (its binding sets list their names in another order)
        assertEquals(viaConnection(reference, q).size(), viaConnection(cached, q).size());
    }

    /** The route fixes the store's settings when bound; a change of them after that binds it again. */
    @Test
    void settingsChangedAfterTheStoreOpenedAreFollowed() {
        String q = query(2, 4);
        keep(q);
        assertEquals(viaConnection(reference, q), lines(front().select(q, true)));
        store().setTrackResultSize(true);
        assertNull(front().select(q, true), "a store that tracks result sizes is left to a connection");
        store().setTrackResultSize(false);
        assertEquals(viaConnection(reference, q), lines(front().select(q, true)));
        QueryEvaluationMode mode = store().getDefaultQueryEvaluationMode();
        store().setDefaultQueryEvaluationMode(
                mode == QueryEvaluationMode.STRICT ? QueryEvaluationMode.STANDARD : QueryEvaluationMode.STRICT);
        assertNull(front().select(q, true), "no plan is kept yet for the store's new evaluation mode");
        keep(q);
        assertEquals(viaConnection(reference, q), lines(front().select(q, true)));
    }

    @Test
    void aShutDownRepositoryAnswersNothingDirectly() {
        String q = query(0, 3);
        keep(q);
        QueryFront front = front();
        TupleQueryResult before = front.select(q, true);
        assertNotNull(before);
        before.close();
        cached.shutDown();
        assertNull(front.select(q, true));
    }

    @Test
    void aWrappedStoreIsNotBound() {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        BasaltRepository wrapped = new BasaltRepository(
                new SailWrapper(new BasaltStore(dir.resolve("wrapped").toFile(), config)), 100);
        try {
            try (RepositoryConnection c = wrapped.getConnection()) {
                c.add(ex("a"), ex("type"), ex("Type0"));
                c.add(ex("a"), ex("price"), VF.createLiteral("9", XSD.INTEGER));
            }
            String q = query(0, 1);
            for (int i = 0; i < 3; i++) {
                viaConnection(wrapped, q);
            }
            assertNull(wrapped.front.select(q, true));
        } finally {
            wrapped.shutDown();
        }
    }
}
