package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.RDFS;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Groups large enough for {@code ParallelJoin} (a helper thread shares their lookups) answer as
 * RDF4J's MemoryStore does, over a committed snapshot and inside a transaction with changes of its
 * own (whose reads stay on the query's thread). Run several times, as a race would show only now
 * and then.
 */
class ParallelQueriesTest {
    private static final String EX = "http://example.org/";
    @TempDir
    static File dir;
    static SailRepository basalt;
    static Repository memory;

    @BeforeAll
    static void load() {
        List<Statement> data = products(3000);
        basalt = TestRepos.open(dir);
        TestRepos.addAll(data, basalt);
        memory = TestRepos.memoryWith(data);
    }

    @AfterAll
    static void shutDown() {
        basalt.shutDown();
        memory.shutDown();
    }

    /** BSBM-like products: a type of 3, a numeric property, a label, features from 40. */
    static List<Statement> products(int n) {
        ValueFactory vf = SimpleValueFactory.getInstance();
        List<Statement> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            IRI p = vf.createIRI(EX, "product" + i);
            out.add(vf.createStatement(p, RDF.TYPE, vf.createIRI(EX, "Type" + i % 3)));
            out.add(vf.createStatement(p, RDFS.LABEL, vf.createLiteral("product " + i)));
            out.add(vf.createStatement(p, vf.createIRI(EX, "num"), vf.createLiteral(i * 7919 % 1000)));
            for (int f = 0; f < 1 + i % 4; f++) {
                out.add(vf.createStatement(p, vf.createIRI(EX, "feature"), vf.createIRI(EX, "feature" + (i + f * 13) % 40)));
            }
        }
        return out;
    }

    static Stream<String> queries() {
        return Stream.of(
                "SELECT ?p ?n ?f WHERE { ?p a ex:Type1 . ?p ex:num ?n . ?p ex:feature ?f FILTER(?n > 300) }",
                "SELECT ?p ?l WHERE { ?p a ex:Type2 . ?p ex:feature ex:feature7 . ?p ex:num ?n . ?p rdfs:label ?l"
                        + " FILTER(?n < 700) OPTIONAL { ?p ex:feature ex:feature8 . ?p rdfs:label ?t } FILTER(!bound(?t)) }"
                        + " ORDER BY ?l LIMIT 10",
                "SELECT ?p ?l WHERE { { ?p a ex:Type0 . ?p ex:num ?n . ?p rdfs:label ?l FILTER(?n > 900) }"
                        + " UNION { ?p a ex:Type1 . ?p ex:num ?n . ?p rdfs:label ?l FILTER(?n < 50) } }",
                "SELECT ?p ?l WHERE { ?p a ex:Type0 . ?p rdfs:label ?l . ?p ex:num ?n FILTER(regex(?l, \"7$\")) }",
                "SELECT DISTINCT ?f WHERE { ?p a ex:Type1 . ?p ex:feature ?f . ?p ex:num ?n FILTER(?n >= 500) }");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameResultsAsMemoryStore(String query) {
        String q = "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> " + query;
        List<String> expected = NativeEvaluationTest.run(memory, q);
        assertTrue(expected.size() > 0, q);
        for (int i = 0; i < 5; i++) {
            assertEquals(expected, NativeEvaluationTest.run(basalt, q), q);
        }
    }

    @Test
    void theLargeGroupRunsInChunks() {
        try (RepositoryConnection c = basalt.getConnection()) {
            String plan = c.prepareTupleQuery(QueryLanguage.SPARQL, "PREFIX ex: <" + EX + "> "
                    + "SELECT * WHERE { ?p a ex:Type1 . ?p ex:num ?n . ?p ex:feature ?f }")
                    .explain(Explanation.Level.Executed).toString();
            assertTrue(plan.contains("ParallelJoin"), plan);
        }
    }

    /**
     * A store's settings {@code basalt:parallel} and {@code basalt:batches} reach its plans: off, the
     * large group stays on the query's thread and GROUP BY reads rows; forced, a group of a few rows
     * runs in chunks too; the answers stay the same.
     */
    @Test
    void theStoreSettingsDecideParallelJoinsAndBatches(@TempDir File off, @TempDir File forced) {
        String large = "SELECT * WHERE { ?p a ex:Type1 . ?p ex:num ?n . ?p ex:feature ?f }";
        String small = "SELECT * WHERE { ex:product5 ex:feature ?f . ?p ex:feature ?f . ?p ex:num ?n }";
        // joins by nested loops: a group join (which replaces GROUP BY's rows and batches alike) stays out
        String group = "SELECT ?f (COUNT(*) AS ?c) WHERE { [] <http://basalt.dev/hint#joins> \"nested-loop\" ."
                + " ?p a ex:Type1 . ?p ex:feature ?f } GROUP BY ?f";
        BasaltStoreConfig offConfig = TestRepos.fastConfig();
        offConfig.setParallel(dev.basalt.optimizer.exec.ParallelMode.OFF);
        offConfig.setBatches(false);
        BasaltStoreConfig forcedConfig = TestRepos.fastConfig();
        forcedConfig.setParallel(dev.basalt.optimizer.exec.ParallelMode.FORCE);
        SailRepository noParallel = TestRepos.open(off, offConfig);
        SailRepository allParallel = TestRepos.open(forced, forcedConfig);
        try {
            List<Statement> data = products(3000);
            TestRepos.addAll(data, noParallel, allParallel);
            assertEquals(false, ((BasaltStore) noParallel.getSail()).getOrderingPolicy().batches());
            assertFalse(explain(noParallel, large).contains("ParallelJoin"), explain(noParallel, large));
            assertTrue(explain(noParallel, group).contains("[rows: batches switched off]"), explain(noParallel, group));
            assertTrue(explain(basalt, group).contains("[batches of"), explain(basalt, group));
            assertTrue(explain(allParallel, small).contains("ParallelJoin"), explain(allParallel, small));
            for (String q : List.of(large, small, group)) {
                List<String> expected = NativeEvaluationTest.run(basalt, q);
                assertEquals(expected, NativeEvaluationTest.run(noParallel, q), q);
                assertEquals(expected, NativeEvaluationTest.run(allParallel, q), q);
            }
        } finally {
            noParallel.shutDown();
            allParallel.shutDown();
        }
    }

    private static String explain(SailRepository repo, String query) {
        try (RepositoryConnection c = repo.getConnection()) {
            return c.prepareTupleQuery(QueryLanguage.SPARQL, "PREFIX ex: <" + EX + "> " + query)
                    .explain(Explanation.Level.Executed).toString();
        }
    }

    /** Inside a transaction the query reads the transaction's changes too, on its own thread. */
    @Test
    void aTransactionSeesItsOwnChanges() {
        ValueFactory vf = SimpleValueFactory.getInstance();
        String q = "PREFIX ex: <" + EX + "> SELECT (COUNT(*) AS ?c) WHERE { ?p a ex:Type1 . ?p ex:num ?n FILTER(?n >= 0) }";
        try (RepositoryConnection c = basalt.getConnection()) {
            long before = count(c, q);
            assertEquals(1000, before);
            c.begin();
            for (int i = 0; i < 200; i++) {
                IRI p = vf.createIRI(EX, "extra" + i);
                c.add(p, RDF.TYPE, vf.createIRI(EX, "Type1"));
                c.add(p, vf.createIRI(EX, "num"), vf.createLiteral(i));
            }
            c.remove(vf.createIRI(EX, "product1"), null, null);
            assertEquals(1199, count(c, q));
            c.rollback();
            assertEquals(before, count(c, q));
        }
    }

    private static long count(RepositoryConnection c, String q) {
        try (var r = c.prepareTupleQuery(QueryLanguage.SPARQL, q).evaluate()) {
            return ((org.eclipse.rdf4j.model.Literal) r.next().getValue("c")).longValue();
        }
    }
}
