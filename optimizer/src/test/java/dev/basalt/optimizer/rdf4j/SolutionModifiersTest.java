package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.basalt.optimizer.NativeRunner;

/**
 * ORDER BY, GROUP BY with every aggregate, and COUNT by range count, run natively on the twin and
 * on RDF4J's MemoryStore over the same mixed data: same solutions, in the same order where the
 * query orders them, and every query must run as one Basalt plan (no fallback).
 */
class SolutionModifiersTest {
    static final String EX = "http://example.org/";
    static final String PREFIX = "PREFIX ex: <" + EX + "> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
    private static NativeRunner runner;

    @BeforeAll
    static void load() {
        runner = new NativeRunner(mixedData(new Random(42), 400));
    }

    @AfterAll
    static void close() {
        runner.close();
    }

    /**
     * Subjects with values of every kind under ex:v, numbers under ex:n, a sparse ex:w, constant ex:k.
     * No two distinct terms under ex:v compare equal (e.g. 1 and 1.0), where SPARQL leaves the order
     * of such ties open and RDF4J's follows its input order.
     */
    static List<Statement> mixedData(Random r, int n) {
        ValueFactory vf = SimpleValueFactory.getInstance();
        List<Statement> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            IRI s = vf.createIRI(EX, "s" + r.nextInt(25));
            Value o = switch (r.nextInt(14)) {
                case 0 -> vf.createIRI(EX, "o" + r.nextInt(20));
                case 1 -> vf.createLiteral(r.nextInt(40) - 20);
                case 2 -> vf.createLiteral(String.valueOf((2 * r.nextInt(20) - 19) / 4.0), XSD.DECIMAL);
                case 3 -> vf.createLiteral((2 * r.nextInt(50) + 1) / 8.0);
                case 4 -> vf.createLiteral("s" + r.nextInt(30));
                case 5 -> vf.createLiteral("a longer string number " + r.nextInt(30));
                case 6 -> vf.createLiteral("w" + r.nextInt(6), r.nextBoolean() ? "en" : "de");
                case 7 -> vf.createLiteral(r.nextBoolean());
                case 8 -> vf.createLiteral("2024-0" + (1 + r.nextInt(9)) + (r.nextBoolean() ? "-1" + r.nextInt(9)
                        + "T10:00:00Z" : "-2" + r.nextInt(9) + "T10:00:00"), XSD.DATETIME);
                case 9 -> vf.createLiteral(String.valueOf(100_000_000_000L + r.nextInt(9)), XSD.INTEGER);
                case 10 -> vf.createBNode("b" + r.nextInt(10));
                case 11 -> vf.createLiteral(String.valueOf(r.nextInt(5)), XSD.INT);
                case 12 -> vf.createLiteral("\u00e9t\u00e9" + r.nextInt(3));
                default -> vf.createLiteral("x" + r.nextInt(5), vf.createIRI(EX, "custom"));
            };
            Resource g = r.nextInt(3) == 0 ? vf.createIRI(EX, "g" + r.nextInt(2)) : null;
            out.add(g == null ? vf.createStatement(s, vf.createIRI(EX, "v"), o) : vf.createStatement(s, vf.createIRI(EX, "v"), o, g));
            if (r.nextInt(3) == 0) {
                Value num = switch (r.nextInt(3)) {
                    case 0 -> vf.createLiteral(r.nextInt(50));
                    case 1 -> vf.createLiteral(String.valueOf(r.nextInt(50) / 4.0), XSD.DECIMAL);
                    default -> vf.createLiteral(r.nextInt(50) / 2.0);
                };
                out.add(vf.createStatement(s, vf.createIRI(EX, "n"), num));
            }
            if (r.nextInt(4) == 0) {
                out.add(vf.createStatement(s, vf.createIRI(EX, "w"), vf.createLiteral(r.nextInt(6))));
            }
        }
        for (int i = 0; i < 25; i++) {
            out.add(vf.createStatement(vf.createIRI(EX, "s" + i), vf.createIRI(EX, "k"), vf.createLiteral("k" + i % 4)));
        }
        // prices of a custom datatype, as in BSBM: numbers only through a cast of their lexical form
        String[] prices = { "3.50", "7", "12.125", "0.1", "-2.00", "1e3", "n/a", "99.99" };
        for (int i = 0; i < 25; i++) {
            out.add(vf.createStatement(vf.createIRI(EX, "s" + i), vf.createIRI(EX, "price"),
                    vf.createLiteral(prices[i % prices.length] + (i >= prices.length ? String.valueOf(i % 3) : ""),
                            vf.createIRI(EX, "USD"))));
        }
        // prices of 18 digits, whose sums overflow a long of their unscaled digits, in two scales
        for (int i = 0; i < 40; i++) {
            String label = i % 10 == 9 ? "0.5" : i % 10 == 4 ? "7" : "99999999999999" + (10 + i % 90) + "." + (10 + i % 89);
            out.add(vf.createStatement(vf.createIRI(EX, "s" + i % 25), vf.createIRI(EX, "big"),
                    vf.createLiteral(label, vf.createIRI(EX, "USD"))));
        }
        // a store holds a statement once
        return new ArrayList<>(new LinkedHashSet<>(out));
    }

    static Stream<String> orderedQueries() {
        return Stream.of(
                "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY ?o",
                "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY DESC(?o)",
                "SELECT ?o WHERE { ?s ex:v ?o } ORDER BY ?o ?s",
                "SELECT * WHERE { ?s ex:v ?o OPTIONAL { ?s ex:w ?w } } ORDER BY ?w ?o",
                "SELECT * WHERE { ?s ex:v ?o OPTIONAL { ?s ex:w ?w } } ORDER BY DESC(?w) ?s",
                "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY STR(?o) ?s",
                "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY (?o * -1) DESC(?s)",
                "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY LCASE(STR(?o)) DESC(?o)",
                "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY ?o LIMIT 5",
                "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY DESC(?o) OFFSET 7 LIMIT 9",
                "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY ?o OFFSET 390",
                "SELECT ?s WHERE { ?s ex:v ?o } ORDER BY ?o",
                "SELECT * WHERE { ?s ex:v ?o } ORDER BY ?s",
                "SELECT DISTINCT ?o WHERE { ?s ex:v ?o } ORDER BY ?o LIMIT 12",
                "SELECT * WHERE { GRAPH ?g { ?s ex:v ?o } } ORDER BY ?g DESC(?o)",
                "SELECT ?s (COUNT(*) AS ?c) WHERE { ?s ?p ?o } GROUP BY ?s ORDER BY DESC(?c) ?s",
                "SELECT ?s (SUM(?n) AS ?t) WHERE { ?s ex:n ?n } GROUP BY ?s ORDER BY ?t LIMIT 6");
    }

    static Stream<String> groupQueries() {
        return Stream.of(
                "SELECT ?s (COUNT(*) AS ?c) WHERE { ?s ?p ?o } GROUP BY ?s",
                // exact decimal sums of cast prices: long sums per scale, moved to a BigDecimal on overflow
                "SELECT ?k (SUM(xsd:decimal(str(?b))) AS ?t) (AVG(xsd:decimal(str(?b))) AS ?a) "
                        + "WHERE { ?s ex:k ?k . ?s ex:big ?b } GROUP BY ?k",
                "SELECT (SUM(xsd:decimal(str(?b))) AS ?t) (AVG(xsd:decimal(str(?b))) AS ?a) "
                        + "(MIN(xsd:decimal(str(?b))) AS ?m) (COUNT(*) AS ?c) WHERE { ?s ex:big ?b }",
                "SELECT ?s (COUNT(?w) AS ?c) (COUNT(DISTINCT ?o) AS ?d) (COUNT(DISTINCT *) AS ?e) "
                        + "WHERE { ?s ex:v ?o OPTIONAL { ?s ex:w ?w } } GROUP BY ?s",
                "SELECT ?s (SUM(?n) AS ?sum) (AVG(?n) AS ?avg) (MIN(?n) AS ?min) (MAX(?n) AS ?max) "
                        + "WHERE { ?s ex:n ?n } GROUP BY ?s",
                "SELECT ?s (SUM(DISTINCT ?n) AS ?sum) (AVG(DISTINCT ?n) AS ?avg) (COUNT(DISTINCT ?n) AS ?c) "
                        + "WHERE { ?s ex:n ?n . ?s ex:v ?o } GROUP BY ?s",
                "SELECT ?s (SUM(?o) AS ?sum) (AVG(?o) AS ?avg) WHERE { ?s ex:v ?o } GROUP BY ?s",
                "SELECT ?s (MIN(?o) AS ?min) (MAX(?o) AS ?max) WHERE { ?s ex:v ?o } GROUP BY ?s",
                "SELECT ?s (SUM(?n * 2) AS ?x) (MAX(STR(?n)) AS ?y) WHERE { ?s ex:n ?n } GROUP BY ?s",
                "SELECT ?s (SAMPLE(?k) AS ?x) WHERE { ?s ex:k ?k . ?s ex:v ?o } GROUP BY ?s",
                "SELECT ?k (COUNT(*) AS ?c) (SUM(?w) AS ?t) WHERE { ?s ex:k ?k OPTIONAL { ?s ex:w ?w } } GROUP BY ?k",
                "SELECT ?s (COUNT(*) AS ?c) WHERE { ?s ?p ?o } GROUP BY ?s HAVING (COUNT(*) > 20)",
                "SELECT (COUNT(*) AS ?c) (SUM(?o) AS ?s) (AVG(?o) AS ?a) (MIN(?o) AS ?m) (SAMPLE(?o) AS ?x) "
                        + "(GROUP_CONCAT(?o) AS ?g) WHERE { ?s ex:none ?o }",
                "SELECT ?s (COUNT(*) AS ?c) WHERE { ?s ex:none ?o } GROUP BY ?s",
                "SELECT (COUNT(*) AS ?c) (COUNT(DISTINCT ?s) AS ?d) (AVG(?n) AS ?a) WHERE { ?s ex:n ?n }",
                "SELECT ?s (GROUP_CONCAT(?w; separator=\"|\") AS ?gc) WHERE { ?s ex:w ?w } GROUP BY ?s",
                "SELECT ?s (GROUP_CONCAT(DISTINCT STR(?w)) AS ?gc) WHERE { ?s ex:w ?w } GROUP BY ?s",
                "SELECT ?g (COUNT(*) AS ?c) WHERE { GRAPH ?g { ?s ex:v ?o } } GROUP BY ?g",
                // integers summed on their ids, then with decimals and doubles in input order
                "SELECT ?k (SUM(?w) AS ?t) (AVG(?w) AS ?a) WHERE { ?s ex:k ?k . ?s ex:w ?w } GROUP BY ?k",
                "SELECT ?k (SUM(?x) AS ?t) (AVG(?x) AS ?a) WHERE { ?s ex:k ?k { ?s ex:w ?x } UNION { ?s ex:n ?x } } "
                        + "GROUP BY ?k",
                // casts of one variable, computed once per term id and kept in the source's shared cache
                "SELECT ?k (AVG(xsd:decimal(str(?p))) AS ?a) (SUM(xsd:float(xsd:string(?p))) AS ?f) "
                        + "(MIN(xsd:double(str(?p))) AS ?m) WHERE { ?s ex:k ?k . ?s ex:price ?p } GROUP BY ?k",
                "SELECT ?s (AVG(xsd:decimal(str(?o))) AS ?a) (SUM(xsd:double(?o)) AS ?d) "
                        + "(MAX(xsd:integer(str(?o))) AS ?m) (COUNT(xsd:boolean(?o)) AS ?c) WHERE { ?s ex:v ?o } GROUP BY ?s",
                "SELECT (SUM(xsd:decimal(?n)) AS ?t) (AVG(DISTINCT xsd:decimal(str(?n))) AS ?a) "
                        + "(AVG(xsd:decimal(str(?n))) AS ?b) WHERE { ?s ex:n ?n }",
                // exact sums: integers and decimals added apart, then with the doubles
                "SELECT ?k (SUM(?n) AS ?t) (AVG(?n) AS ?a) (SUM(xsd:decimal(?n)) AS ?d) WHERE { ?s ex:k ?k . ?s ex:n ?n } "
                        + "GROUP BY ?k");
    }

    @ParameterizedTest
    @MethodSource("orderedQueries")
    void orderedResultsEqualMemoryStoreInOrder(String query) {
        List<String> expected = rows(runner.memory(PREFIX + query));
        List<String> actual = rows(runner.basalt(PREFIX + query));
        assertNative(query);
        assertSameList(expected, actual, query);
    }

    @ParameterizedTest
    @MethodSource("groupQueries")
    void groupResultsEqualMemoryStore(String query) {
        List<String> expected = sorted(rows(runner.memory(PREFIX + query)));
        List<String> actual = sorted(rows(runner.basalt(PREFIX + query)));
        assertNative(query);
        assertSameList(expected, actual, query);
    }

    @Test
    void countOfOnePatternIsARangeCount() {
        for (String q : List.of("SELECT (COUNT(*) AS ?c) WHERE { ?s ex:v ?o }",
                "SELECT (COUNT(?o) AS ?c) WHERE { ?s ex:v ?o }",
                "SELECT (COUNT(*) AS ?c) WHERE { GRAPH ?g { ?s ?p ?o } }",
                "SELECT (COUNT(*) AS ?c) WHERE { ?s ex:v ex:o3 }")) {
            List<String> actual = rows(runner.basalt(PREFIX + q));
            assertEquals(rows(runner.memory(PREFIX + q)), actual, q);
            String plan = ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan().explain();
            assertTrue(plan.contains("RangeCount") && !plan.contains("Scan "), q + "\n" + plan);
        }
        // a repeated variable is not a range: scanned and counted
        String q = "SELECT (COUNT(*) AS ?c) WHERE { ?s ?p ?s }";
        assertEquals(rows(runner.memory(PREFIX + q)), rows(runner.basalt(PREFIX + q)));
        assertTrue(((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan().explain().contains("Group"));
    }

    @Test
    void orderByWithLimitUsesTopK() {
        runner.basalt(PREFIX + "SELECT ?o WHERE { ?s ex:v ?o } ORDER BY ?o OFFSET 2 LIMIT 3");
        String plan = ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan().explain();
        assertTrue(plan.contains("Sort ?o top 5"), plan);
    }

    /** Equal lists; on a difference the message shows the first differing position and its neighbours. */
    static void assertSameList(List<String> expected, List<String> actual, String query) {
        int n = Math.min(expected.size(), actual.size());
        for (int i = 0; i < n; i++) {
            if (!expected.get(i).equals(actual.get(i))) {
                int to = Math.min(n, i + 3);
                assertEquals(expected.subList(i, to), actual.subList(i, to), query + " at row " + i + " of "
                        + expected.size());
            }
        }
        assertEquals(expected.size(), actual.size(), query + ": row count");
    }

    private static void assertNative(String query) {
        assertInstanceOf(BasaltPlanNode.class, ((QueryRoot) runner.lastPlan()).getArg(),
                () -> query + " did not compile to one plan:\n" + runner.lastPlan());
    }

    /** Solutions as text, names sorted; GROUP_CONCAT results (?gc) with their parts sorted. */
    static List<String> rows(List<BindingSet> solutions) {
        List<String> out = new ArrayList<>();
        for (BindingSet bs : solutions) {
            StringBuilder sb = new StringBuilder();
            for (String name : new TreeSet<>(bs.getBindingNames())) {
                Value v = bs.getValue(name);
                String text = String.valueOf(v);
                if (name.equals("gc") && v != null) {
                    String[] parts = v.stringValue().split("[| ]");
                    Arrays.sort(parts);
                    text = String.join(",", parts);
                }
                sb.append(name).append('=').append(text).append(' ');
            }
            out.add(sb.toString());
        }
        return out;
    }

    private static List<String> sorted(List<String> rows) {
        List<String> s = new ArrayList<>(rows);
        s.sort(null);
        return s;
    }
}
