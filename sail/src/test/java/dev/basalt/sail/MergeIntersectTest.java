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
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Patterns sharing one variable and otherwise constant are merge-intersected over ordered index
 * ranges ({@code IntersectOp}); the answers must be RDF4J's MemoryStore's, including a triple
 * held in several graphs (one solution per graph combination), the variable in object position,
 * empty intersections, values only at either end of the id range, and the other patterns of the
 * group joined on the intersected values.
 */
class MergeIntersectTest {
    private static final String EX = "http://example.org/";
    private static final String PREFIX = "PREFIX ex: <" + EX + "> PREFIX rdfs: <" + RDFS.NAMESPACE + "> ";
    @TempDir
    static File dir;
    static SailRepository basalt;
    static Repository memory;

    @BeforeAll
    static void load() {
        ValueFactory vf = SimpleValueFactory.getInstance();
        IRI t1 = vf.createIRI(EX, "T1");
        IRI t2 = vf.createIRI(EX, "T2");
        IRI f = vf.createIRI(EX, "feature");
        IRI g1 = vf.createIRI(EX, "g1");
        List<Statement> data = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            IRI p = vf.createIRI(EX, "product" + i);
            data.add(vf.createStatement(p, RDFS.LABEL, vf.createLiteral("label " + (i * 7919 % 3000))));
            data.add(vf.createStatement(p, vf.createIRI(EX, "num"), vf.createLiteral(i % 500)));
            if (i % 2 == 0) {
                data.add(vf.createStatement(p, RDF.TYPE, t1));
            }
            if (i % 3 == 0) {
                data.add(vf.createStatement(p, RDF.TYPE, t2));
            }
            for (int k : new int[] { 5, 7, 11, 1499 }) {
                if (i % k == 0) {
                    data.add(vf.createStatement(p, f, vf.createIRI(EX, "F" + k)));
                }
            }
            if (i % 4 == 0) {
                // the same triple in a named graph as well: two solutions for the default-graph union
                data.add(vf.createStatement(p, RDF.TYPE, t1, g1));
            }
            if (i % 10 == 0) {
                data.add(vf.createStatement(vf.createIRI(EX, "a"), vf.createIRI(EX, "likes"), p));
            }
            if (i % 15 == 0) {
                data.add(vf.createStatement(vf.createIRI(EX, "b"), vf.createIRI(EX, "likes"), p));
            }
        }
        // the first and the last product ids only: the ends of the ranges
        data.add(vf.createStatement(vf.createIRI(EX, "product0"), f, vf.createIRI(EX, "Fends")));
        data.add(vf.createStatement(vf.createIRI(EX, "product2999"), f, vf.createIRI(EX, "Fends")));
        data.add(vf.createStatement(vf.createIRI(EX, "product0"), RDF.TYPE, vf.createIRI(EX, "Tends")));
        data.add(vf.createStatement(vf.createIRI(EX, "product2999"), RDF.TYPE, vf.createIRI(EX, "Tends")));
        basalt = TestRepos.open(dir);
        memory = new SailRepository(new MemoryStore());
        memory.init();
        try (RepositoryConnection b = basalt.getConnection(); RepositoryConnection m = memory.getConnection()) {
            b.add(data);
            m.add(data);
        }
    }

    @AfterAll
    static void close() {
        basalt.shutDown();
        memory.shutDown();
    }

    static Stream<String> queries() {
        return Stream.of(
                "SELECT ?p WHERE { ?p a ex:T1 . ?p ex:feature ex:F5 }",
                "SELECT ?p WHERE { ?p a ex:T1 . ?p a ex:T2 . ?p ex:feature ex:F7 }",
                "SELECT ?p ?l WHERE { ?p rdfs:label ?l . ?p a ex:T2 . ?p ex:feature ex:F5 . ?p ex:feature ex:F11 }",
                "SELECT ?p ?n WHERE { ?p a ex:T1 . ?p ex:feature ex:F7 . ?p ex:num ?n FILTER(?n > 250) }",
                "SELECT DISTINCT ?p ?l WHERE { ?p rdfs:label ?l . ?p a ex:T1 . ?p ex:feature ex:F5 . ?p ex:num ?n "
                        + "FILTER(?n > 100) } ORDER BY ?l LIMIT 10",
                "SELECT ?p WHERE { ?p a ex:Tends . ?p ex:feature ex:Fends }",
                "SELECT ?p WHERE { ?p a ex:T1 . ?p ex:feature ex:F1499 }",
                "SELECT ?p WHERE { ?p a ex:T2 . ?p ex:feature ex:nothing }",
                "SELECT ?p WHERE { ex:a ex:likes ?p . ex:b ex:likes ?p }",
                "SELECT ?p ?l WHERE { ex:a ex:likes ?p . ex:b ex:likes ?p . ?p a ex:T1 . ?p rdfs:label ?l }",
                "SELECT ?p WHERE { { ?p a ex:T1 . ?p ex:feature ex:F5 } UNION { ?p a ex:T2 . ?p ex:feature ex:F7 } }",
                "SELECT ?p ?x WHERE { ?p a ex:T2 . ?p ex:feature ex:F5 OPTIONAL { ?p ex:feature ?x . ?x a ex:T1 } }",
                "SELECT (COUNT(*) AS ?n) WHERE { ?p a ex:T1 . ?p ex:feature ex:F5 . ?p ex:feature ex:F11 }");
    }

    @ParameterizedTest
    @MethodSource("queries")
    void sameAnswersAsMemoryStore(String query) {
        String full = "PREFIX rdfs: <" + RDFS.NAMESPACE + "> " + query;
        List<String> expected = sorted(NativeEvaluationTest.run(memory, full), query);
        List<String> actual = sorted(NativeEvaluationTest.run(basalt, full), query);
        assertEquals(expected, actual, query);
    }

    private static List<String> sorted(List<String> rows, String query) {
        List<String> out = new ArrayList<>(rows);
        if (!query.contains("ORDER BY")) {
            out.sort(null);
        }
        return out;
    }

    @Test
    void planMergesThePatternsAndDuplicatesCount() {
        String q = PREFIX + "SELECT ?p WHERE { ?p a ex:T1 . ?p ex:feature ex:F5 }";
        try (RepositoryConnection c = basalt.getConnection()) {
            String plan = c.prepareTupleQuery(QueryLanguage.SPARQL, q).explain(Explanation.Level.Executed).toString();
            assertTrue(plan.contains("MergeIntersect"), plan);
            assertFalse(plan.contains("PipelineJoin"), plan);
        }
        // products divisible by 10: 300; those divisible by 20 also carry the type in g1: 150 more
        assertEquals(450, NativeEvaluationTest.run(basalt, "SELECT ?p WHERE { ?p a ex:T1 . ?p ex:feature ex:F5 }").size());
    }
}
