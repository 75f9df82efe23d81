package dev.basalt.sail.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Function;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.impl.SimpleDataset;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.rdf4j.NativeQueryStats;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * A SELECT whose shape has a kept plan runs that plan without RDF4J's evaluation set up
 * ({@code NativeQueries.Session#runKept}): its answers are those of a store that keeps no shapes, and it never
 * runs where the plan could answer wrongly (a transaction's own changes, a newer commit, another dataset or
 * evaluation mode, an EXPLAIN).
 */
class KeptPlanRunTest extends CachedAgainstReference {
    private static final IRI G1 = ex("g1");
    private static final IRI G2 = ex("g2");

    @Override
    int shapesKept() {
        return 100;
    }

    @BeforeEach
    void fill() {
        addToBoth(c -> {
            for (int i = 0; i < 40; i++) {
                IRI product = ex("product" + i);
                c.add(product, ex("type"), ex("Type" + (i % 4)), i % 2 == 0 ? G1 : G2);
                c.add(product, ex("price"), VF.createLiteral(Integer.toString(10 * i), XSD.INTEGER),
                        i % 2 == 0 ? G1 : G2);
                c.add(product, ex("label"), VF.createLiteral("product " + i), G1);
            }
        });
    }

    private static String query(int type, int minPrice) {
        return PREFIX + "SELECT ?p ?price ?label WHERE { ?p ex:type ex:Type" + type + " ; ex:price ?price . "
                + "OPTIONAL { ?p ex:label ?label } FILTER(?price > " + minPrice + ") } ORDER BY DESC(?price) LIMIT 6";
    }

    private NativeQueryStats stats() {
        return ((BasaltStore) cached.getSail()).getNativeQueryStats();
    }

    private static List<String> answer(BasaltRepository repo, String query) {
        return answer(repo, query, c -> c.prepareTupleQuery(query));
    }

    private static List<String> answer(BasaltRepository repo, String query,
            Function<RepositoryConnection, TupleQuery> prepare) {
        try (RepositoryConnection c = repo.getConnection()) {
            return sortedLines(prepare.apply(c));
        }
    }

    @Test
    void keptPlansRunDirectlyAndAnswerAsAStoreWithoutShapes() {
        for (int i = 0; i < 24; i++) {
            String q = query(i % 4, 10 * (i % 7));
            assertEquals(answer(reference, q), answer(cached, q), "query " + i + ": " + q);
        }
        assertTrue(stats().shapePlansRunDirectly() >= 18, "kept plans run directly: " + stats().shapePlansRunDirectly());
        assertEquals(0, stats().totalFallbacks(), "the query is one plan");
    }

    @Test
    void aTransactionSeesItsOwnChangesAndOthersDoNot() {
        warm();
        String q = query(1, 0);
        long direct = stats().shapePlansRunDirectly();
        try (RepositoryConnection writer = cached.getConnection()) {
            writer.begin(IsolationLevels.SNAPSHOT);
            writer.add(ex("new"), ex("type"), ex("Type1"));
            writer.add(ex("new"), ex("price"), VF.createLiteral("9999", XSD.INTEGER));
            List<String> inside = sortedLines(writer.prepareTupleQuery(q));
            assertTrue(inside.stream().anyMatch(l -> l.contains("9999")), "the transaction's own addition: " + inside);
            List<String> outside = answer(cached, q);
            assertTrue(outside.stream().noneMatch(l -> l.contains("9999")), "another connection: " + outside);
            assertEquals(answer(reference, q), outside);
            assertEquals(direct + 1, stats().shapePlansRunDirectly(), "only the query outside the transaction");
            writer.commit();
        }
        List<String> after = answer(cached, q);
        assertTrue(after.stream().anyMatch(l -> l.contains("9999")), "the committed addition: " + after);
        List<String> again = answer(cached, q);
        assertEquals(after, again);
        assertEquals(direct + 2, stats().shapePlansRunDirectly(),
                "the first query on the new state compiles, the next runs directly");
    }

    @Test
    void anUnisolatedWriteIsSeenByTheNextQuery() {
        warm();
        String q = query(2, 0);
        try (RepositoryConnection c = cached.getConnection()) {
            c.begin(IsolationLevels.NONE);
            c.add(ex("none"), ex("type"), ex("Type2"));
            c.add(ex("none"), ex("price"), VF.createLiteral("8888", XSD.INTEGER));
            assertTrue(sortedLines(c.prepareTupleQuery(q)).stream().anyMatch(l -> l.contains("8888")));
            c.commit();
            assertTrue(sortedLines(c.prepareTupleQuery(q)).stream().anyMatch(l -> l.contains("8888")));
        }
    }

    @Test
    void eachDatasetHasItsOwnPlan() {
        for (int i = 0; i < 12; i++) {
            int type = i % 4;
            String plain = query(type, 0);
            String fromG2 = plain.replace("SELECT ?p ?price ?label WHERE", "SELECT ?p ?price ?label FROM <" + G2
                    + "> WHERE");
            assertEquals(answer(reference, fromG2), answer(cached, fromG2), fromG2);
            assertEquals(answer(reference, plain), answer(cached, plain), plain);
            for (IRI graph : List.of(G1, G2)) {
                SimpleDataset dataset = new SimpleDataset();
                dataset.addDefaultGraph(graph);
                Function<RepositoryConnection, TupleQuery> withDataset = c -> {
                    TupleQuery t = c.prepareTupleQuery(QueryLanguage.SPARQL, plain);
                    t.setDataset(dataset);
                    return t;
                };
                assertEquals(answer(reference, plain, withDataset), answer(cached, plain, withDataset),
                        plain + " over " + graph);
            }
        }
        assertTrue(stats().shapePlansRunDirectly() >= 24, "direct runs: " + stats().shapePlansRunDirectly());
    }

    /** A mode named for a transaction ends with it (as RDF4J's): the default mode's plans run again after it. */
    @Test
    void aTransactionsEvaluationModeEndsWithIt() {
        warm();
        String q = query(3, 20);
        try (RepositoryConnection c = cached.getConnection()) {
            for (boolean commit : new boolean[] { true, false }) {
                c.begin(QueryEvaluationMode.STANDARD);
                long direct = stats().shapePlansRunDirectly();
                assertEquals(answer(reference, q), sortedLines(c.prepareTupleQuery(q)));
                assertEquals(direct, stats().shapePlansRunDirectly(), "not in a transaction");
                if (commit) {
                    c.commit();
                } else {
                    c.rollback();
                }
                assertEquals(answer(reference, q), sortedLines(c.prepareTupleQuery(q)));
                assertEquals(direct + 1, stats().shapePlansRunDirectly(), "the default mode's plan, after the transaction");
            }
        }
    }

    @Test
    void explainAndBindingsTakeTheFullPath() {
        warm();
        String q = query(0, 0);
        long direct = stats().shapePlansRunDirectly();
        try (RepositoryConnection c = cached.getConnection()) {
            String explained = c.prepareTupleQuery(q).explain(org.eclipse.rdf4j.query.explanation.Explanation.Level.Executed)
                    .toString();
            assertTrue(explained.contains("BasaltPlan"), explained);
            TupleQuery bound = c.prepareTupleQuery(q);
            bound.setBinding("p", ex("product4"));
            try (TupleQueryResult r = bound.evaluate()) {
                assertEquals(1, r.stream().count());
            }
        }
        assertEquals(direct, stats().shapePlansRunDirectly());
    }

    /** Two queries of each type's shape: the second keeps the plan, later ones run it directly. */
    private void warm() {
        for (int i = 0; i < 12; i++) {
            answer(cached, query(i % 4, 10 * i));
        }
    }
}
