package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.Compare.CompareOp;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.evaluation.util.QueryEvaluationUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.exec.ObjectRanges;

/**
 * Scans narrowed by a FILTER of their group, against RDF4J's evaluator (MemoryStore) on the same statements:
 * <ul>
 * <li>object ranges ({@code ObjectRanges}, {@code RangeScan}): comparisons of a pattern's object with an inline
 * date, dateTime or integer constant read only the ids that can pass, over objects of every kind (zoned and
 * unzoned dates and dateTimes, integers of several datatypes, decimals, floats, doubles, strings, language strings,
 * booleans, IRIs, custom-typed and ill-formed literals), in named graphs too, alone and joined, with the twin read
 * in object order (seeks) and unordered (the scan filtered); every comparison's intervals hold every value RDF4J
 * finds true against the constant, in STRICT and STANDARD mode; the plan names the ranges and the estimate is the
 * share of the matches in them;</li>
 * <li>equality lookups ({@code EqualLookupPlanner}): {@code FILTER(?a = ?b)} lets the pattern binding {@code ?b}
 * look up the IRI or blank node of {@code ?a}, while literal values equal by value but not identical (1 and
 * 1.0, "1"^^xsd:int) are still found; the plan is lookups, not a cross product.</li>
 * </ul>
 */
class FilterScanTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    private static final String PREFIX = "PREFIX : <" + EX + "> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
    private static NativeRunner unordered;
    private static NativeRunner ordered;

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    /** Objects of every kind around the constants the queries compare with. */
    static List<Value> objects() {
        List<Value> out = new ArrayList<>();
        for (String d : new String[] { "2008-02-28", "2008-02-29", "2008-03-01", "2008-03-05", "2008-03-31", "2008-04-01",
                "2008-04-02", "2007-03-05", "2008-03-01Z", "2008-03-01+14:00", "2008-02-29-14:00", "2008-04-01-13:00",
                "2008-03-31+13:45", "2008-04-01Z", "1969-12-31" }) {
            out.add(VF.createLiteral(d, XSD.DATE));
        }
        for (String t : new String[] { "2008-03-01T00:00:00", "2008-03-15T12:00:00Z", "2008-02-29T23:59:59",
                "2008-04-01T00:00:00+14:00", "2008-03-31T23:00:00-10:00", "2008-04-01T00:00:00" }) {
            out.add(VF.createLiteral(t, XSD.DATETIME));
        }
        for (int i = -5; i <= 25; i += 3) {
            out.add(VF.createLiteral(Integer.toString(i), XSD.INTEGER));
        }
        out.add(VF.createLiteral("7", XSD.INT));
        out.add(VF.createLiteral("20", XSD.LONG));
        out.add(VF.createLiteral("5", XSD.NON_NEGATIVE_INTEGER));
        out.add(VF.createLiteral("7.0", XSD.DECIMAL));
        out.add(VF.createLiteral("19.5", XSD.DECIMAL));
        out.add(VF.createLiteral("6.5", XSD.DOUBLE));
        out.add(VF.createLiteral("1.0E1", XSD.DOUBLE));
        out.add(VF.createLiteral("12.25", XSD.FLOAT));
        out.add(VF.createLiteral("123456789012345678901234567890", XSD.INTEGER));
        out.add(VF.createLiteral("2008-03-05"));
        out.add(VF.createLiteral("7"));
        out.add(VF.createLiteral("2008-03-05", "en"));
        out.add(VF.createLiteral(true));
        out.add(VF.createLiteral("2008-03-05", iri("myDate")));
        out.add(VF.createLiteral("2008-3-5", XSD.DATE));
        out.add(VF.createLiteral("seven", XSD.INTEGER));
        out.add(VF.createLiteral("2008", XSD.GYEAR));
        out.add(iri("thing"));
        out.add(VF.createBNode("b1"));
        return out;
    }

    private static List<Statement> statements() {
        List<Statement> out = new ArrayList<>();
        List<Value> objects = objects();
        for (int i = 0; i < objects.size(); i++) {
            IRI s = iri("s" + i);
            out.add(VF.createStatement(s, iri("d"), objects.get(i)));
            out.add(VF.createStatement(s, iri("t"), iri("T" + i % 3)));
            if (i % 4 == 0) {
                out.add(VF.createStatement(s, iri("d"), objects.get(i), iri("g1")));
            }
        }
        // products and their features: BI2's shape, with literal "features" equal by value but not identical
        for (int p = 0; p < 30; p++) {
            for (int f = 0; f < 6; f++) {
                out.add(VF.createStatement(iri("p" + p), iri("feature"), iri("F" + (p * 7 + f * 5) % 23)));
            }
            out.add(VF.createStatement(iri("p" + p), iri("size"), VF.createLiteral(Integer.toString(p % 4), XSD.INTEGER)));
            out.add(VF.createStatement(iri("p" + p), iri("size"), VF.createLiteral(p % 4 + ".0", XSD.DECIMAL)));
            out.add(VF.createStatement(iri("p" + p), iri("size"), VF.createLiteral(Integer.toString(p % 4), XSD.INT)));
            out.add(VF.createStatement(iri("p" + p), iri("part"), VF.createBNode("part" + p % 5)));
        }
        return out;
    }

    @BeforeAll
    static void load() {
        unordered = new NativeRunner(statements());
        ordered = new NativeRunner(statements());
        ordered.twin().ordered(true);
    }

    @AfterAll
    static void close() {
        unordered.close();
        ordered.close();
    }

    private static final List<String> RANGED = List.of(
            "?d >= \"2008-03-01\"^^xsd:date && ?d < \"2008-04-01\"^^xsd:date",
            "\"2008-03-01\"^^xsd:date <= ?d && \"2008-04-01\"^^xsd:date > ?d",
            "?d = \"2008-03-01\"^^xsd:date",
            "?d > \"2008-03-31\"^^xsd:date",
            "?d <= \"2008-02-29\"^^xsd:date",
            "?d >= \"2008-03-01T00:00:00\"^^xsd:dateTime && ?d < \"2008-04-01T00:00:00Z\"^^xsd:dateTime",
            "?d > \"2008-03-15T12:00:00Z\"^^xsd:dateTime",
            "?d > 5 && ?d <= 20",
            "?d = 7",
            "?d < -1",
            "?d >= 7 && ?d != 10 && isLiteral(?d)",
            "?d >= 4 && ?d < \"2008-04-01\"^^xsd:date");

    private static List<String> rows(NativeRunner runner, String query, boolean basalt) {
        List<String> r = SolutionModifiersTest.rows(basalt ? runner.basalt(PREFIX + query) : runner.memory(PREFIX + query));
        r.sort(null);
        return r;
    }

    private static String explain(NativeRunner runner) {
        return ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan().explain();
    }

    @Test
    void rangedScansAnswerAsRdf4j() {
        for (String filter : RANGED) {
            for (String q : new String[] { "SELECT ?s ?d WHERE { ?s :d ?d FILTER(" + filter + ") }",
                    "SELECT ?s ?d ?t WHERE { ?s :t ?t . ?s :d ?d FILTER(" + filter + ") }",
                    "SELECT ?s ?d ?g WHERE { GRAPH ?g { ?s :d ?d } FILTER(" + filter + ") }",
                    "SELECT (COUNT(*) AS ?n) WHERE { ?s :d ?d FILTER(" + filter + ") }" }) {
                List<String> expected = rows(unordered, q, false);
                for (NativeRunner runner : List.of(unordered, ordered)) {
                    assertEquals(expected, rows(runner, q, true), q + "\n" + explain(runner));
                    assertTrue(explain(runner).contains("[object ids in the ranges of ?d "), q + "\n" + explain(runner));
                }
            }
        }
        assertFalse(rows(unordered, "SELECT ?s WHERE { ?s :d ?d FILTER(" + RANGED.get(0) + ") }", false).isEmpty());
    }

    @Test
    void comparisonsOutsideTheRulesReadEverything() {
        for (String filter : new String[] { "?d >= \"2008-03-01\"", "?d != 7", "?d > 7 || ?d < 2", "?d >= 7.5",
                "!(?d < 7)" }) {
            String q = "SELECT ?s ?d WHERE { ?s :d ?d FILTER(" + filter + ") }";
            assertEquals(rows(unordered, q, false), rows(ordered, q, true), q);
            assertFalse(explain(ordered).contains("object ids in the ranges"), q + "\n" + explain(ordered));
        }
    }

    /** Every value that RDF4J finds true against a constant lies in the constant's intervals, in both modes. */
    @Test
    void intervalsHoldEveryValueThatCanPass() {
        MemoryQuadSource twin = unordered.twin();
        List<Literal> constants = List.of(VF.createLiteral("2008-03-01", XSD.DATE), VF.createLiteral("2008-04-01", XSD.DATE),
                VF.createLiteral("2008-03-01T00:00:00", XSD.DATETIME), VF.createLiteral("2008-03-15T12:00:00Z", XSD.DATETIME),
                VF.createLiteral("7", XSD.INTEGER), VF.createLiteral("-1", XSD.INTEGER), VF.createLiteral("20", XSD.INT));
        int checked = 0;
        for (Literal c : constants) {
            for (CompareOp op : new CompareOp[] { CompareOp.LT, CompareOp.LE, CompareOp.GT, CompareOp.GE, CompareOp.EQ }) {
                long[] intervals = new ObjectRanges(List.of(new ObjectRanges.Bound(op, c)), "").intervals(null, twin);
                for (Value v : objects()) {
                    long id = twin.lookup(v);
                    for (boolean strict : new boolean[] { true, false }) {
                        boolean passes;
                        try {
                            passes = QueryEvaluationUtil.compare(v, c, op, strict);
                        } catch (RuntimeException e) {
                            passes = false;
                        }
                        if (passes) {
                            checked++;
                            assertTrue(ObjectRanges.contains(intervals, id), v + " " + op + " " + c + " strict " + strict);
                        }
                    }
                }
            }
        }
        assertTrue(checked > 100, "values compared true: " + checked);
    }

    @Test
    void theRangeEstimateIsTheShareOfTheMatches() {
        rows(ordered, "SELECT ?s ?t WHERE { ?s :t ?t . ?s :d ?d FILTER(?d = 7) }", true);
        String plan = explain(ordered);
        // 7 matches of 71 (the integer 7 and the int 7; the decimal 7.0 and the dictionary literals are in the
        // ranges too): the ranged pattern goes first, and the :t pattern is looked up per match
        assertTrue(plan.indexOf("Scan ?s :d ?d [object ids") < plan.indexOf("Scan ?s :t ?t"), plan);
    }

    private static final List<String> EQUAL = List.of(
            "SELECT ?other (COUNT(?of) AS ?n) WHERE { :p3 :feature ?f . ?other :feature ?of FILTER(?f = ?of) } GROUP BY ?other",
            "SELECT ?other ?of WHERE { :p3 :feature ?f . ?other :feature ?of FILTER(?of = ?f && ?other != :p3) }",
            "SELECT ?other ?s WHERE { :p3 :size ?z . ?other :size ?s FILTER(?z = ?s) }",
            "SELECT ?other ?x WHERE { :p3 :part ?b . ?other :part ?x FILTER(?b = ?x) }",
            "SELECT ?o ?x WHERE { :p3 :size ?z . ?o :feature ?x FILTER(?z = ?x) }");

    @Test
    void equalityFiltersLookUpResourcesAndAnswerAsRdf4j() {
        for (String q : EQUAL) {
            List<String> expected = rows(unordered, q, false);
            assertFalse(expected.isEmpty() && !q.contains("?o ?x"), q);
            for (NativeRunner runner : List.of(unordered, ordered)) {
                assertEquals(expected, rows(runner, q, true), q + "\n" + explain(runner));
            }
        }
        // literal sizes equal by value (3, 3.0, "3"^^xsd:int): p3's three sizes each find the three of the 7 products of size 3
        assertEquals(7 * 9, rows(unordered, EQUAL.get(2), true).size());
        rows(unordered, EQUAL.get(0), true);
        String plan = explain(unordered);
        assertTrue(plan.contains("Scan ?other :feature ?of [a free variable takes the IRI or blank node"), plan);
        assertTrue(plan.contains("PipelineJoin"), plan);
    }
}
