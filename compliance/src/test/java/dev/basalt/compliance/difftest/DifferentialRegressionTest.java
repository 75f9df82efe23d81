package dev.basalt.compliance.difftest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.File;
import java.io.StringReader;
import java.util.List;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * Disagreements the differential tester found, reduced to a few statements and one query each, with
 * the answer the SPARQL 1.1 specification gives (which MemoryStore gives too unless noted).
 */
class DifferentialRegressionTest {
    private static final String PREFIXES = "@prefix ex: <" + RandomData.NS + "> . @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .\n";

    @TempDir
    File dir;

    /** The answer of both stores to {@code query} over the Turtle {@code data}; asserts they agree. */
    private Answer bothAnswer(String data, String query) throws Exception {
        Answer b = basaltAnswer(data, query);
        Repository memory = new SailRepository(new MemoryStore());
        try {
            assertEquals(answer(memory, data, query), b, "Basalt's answer differs from MemoryStore's");
            return b;
        } finally {
            memory.shutDown();
        }
    }

    /** Basalt's answer, for a case where MemoryStore's answer is wrong by the specification. */
    private Answer basaltAnswer(String data, String query) throws Exception {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        Repository basalt = new BasaltRepository(new BasaltStore(dir, config));
        try {
            return answer(basalt, data, query);
        } finally {
            basalt.shutDown();
        }
    }

    private static Answer answer(Repository repo, String data, String query) throws Exception {
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(new StringReader(PREFIXES + data), RDFFormat.TURTLE);
            try (TupleQueryResult r = c.prepareTupleQuery(RandomQueries.PROLOGUE + query).evaluate()) {
                Answer.Builder answer = new Answer.Builder(r.getBindingNames());
                for (BindingSet row : r) {
                    answer.add(row);
                }
                return answer.build(false);
            }
        }
    }

    /**
     * An ill-typed numeric literal in SUM leaves the sum unbound (18.5.1: an aggregate error is
     * unbound); Basalt failed the whole query with a NumberFormatException (found by an early run).
     * MemoryStore fails this query too (an excluded disagreement), so only Basalt's answer is checked.
     */
    @Test
    void sumOfAnIllTypedLiteralIsUnbound() throws Exception {
        Answer a = basaltAnswer("ex:s1 ex:p0 \"x\"^^xsd:int, 2 . ex:s2 ex:p0 1 .",
                "SELECT ?b (SUM(DISTINCT ?e) AS ?sum) (COUNT(*) AS ?n) WHERE { ?b ex:p0 ?e } GROUP BY ?b");
        assertNull(a.error());
        assertEquals(List.of("{ b=<http://ex.org/s1> n=\"2\"^^<http://www.w3.org/2001/XMLSchema#integer> }",
                "{ b=<http://ex.org/s2> n=\"1\"^^<http://www.w3.org/2001/XMLSchema#integer> sum=\"1\"^^<http://www.w3.org/2001/XMLSchema#integer> }"),
                a.rows());
    }

    /**
     * COUNT(?x) does not count rows where a BIND left ?x unbound by an error (18.5.1.2 Count counts
     * bound values); Basalt counted them. Seed 2, dataset 3, query 277 and dataset 2, query 246.
     */
    @Test
    void countSkipsAVariableABindLeftUnbound() throws Exception {
        Answer a = bothAnswer("ex:s1 ex:p0 ex:s2, ex:s3, 5 .",
                "SELECT (COUNT(?x) AS ?n) (COUNT(DISTINCT ?x) AS ?d) WHERE { ?s ?p ?o BIND(STRLEN(?p) AS ?x) }");
        assertEquals(List.of("{ d=\"0\"^^<http://www.w3.org/2001/XMLSchema#integer> n=\"0\"^^<http://www.w3.org/2001/XMLSchema#integer> }"),
                a.rows());
    }

    /**
     * GROUP BY and DISTINCT compare solutions by value: a variable a BIND left unbound by an error is
     * as unbound as one never bound (18.5.1 Group, 18.4 Distinct), so the rows of both UNION branches
     * make one group and one distinct row; Basalt made two. Found with COUNT above.
     */
    @Test
    void groupAndDistinctTreatAnErrorAsUnbound() throws Exception {
        String data = "ex:s1 ex:p0 ex:s2, ex:s3, 5 .";
        assertEquals(List.of("{ n=\"6\"^^<http://www.w3.org/2001/XMLSchema#integer> }"), bothAnswer(data,
                "SELECT ?x (COUNT(*) AS ?n) WHERE { { ?s ?p ?o BIND(STRLEN(?p) AS ?x) } UNION { ?s ?p ?o } } GROUP BY ?x").rows());
        assertEquals(List.of("{ }"), bothAnswer(data,
                "SELECT DISTINCT ?x WHERE { { ?s ?p ?o BIND(STRLEN(?p) AS ?x) } UNION { ?s ?p ?o } }").rows());
    }

    /**
     * A cast RDF4J cannot make (xsd:integer of "INF"^^xsd:double) is an expression error, so the
     * BIND leaves its variable unbound (17.2, 18.6 Extend); Basalt passed RDF4J's NumberFormatException
     * on and failed the query. Seed 1, dataset 2, query 114. MemoryStore fails this query too.
     */
    @Test
    void aCastThatCannotBeMadeLeavesTheVariableUnbound() throws Exception {
        Answer a = basaltAnswer("ex:s1 ex:p0 \"INF\"^^xsd:double .",
                "SELECT ?o ?x WHERE { ?s ex:p0 ?o BIND(xsd:integer(?o) AS ?x) }");
        assertNull(a.error());
        assertEquals(List.of("{ o=\"INF\"^^<http://www.w3.org/2001/XMLSchema#double> }"), a.rows());
    }
}
