package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.GroupJoinOp;

/**
 * A group join with a FILTER on one pattern's variable, on a shop of BSBM's BI query 3 shape: 400
 * products, 9,000 reviews, each for one product (every 101st for none) and published on one of 180
 * days (as an {@code xsd:date}; every 37th with a zone, every 41st as an {@code xsd:dateTime}, every
 * 43rd as a plain string, every 47th with a second date, every 53rd without one). The reviews per
 * product of one month are planned as a group join whose date pattern is read by its ranged scan and
 * kept where the FILTER holds; BI query 3 itself (two such counts, HAVING, ORDER BY and LIMIT), a
 * filter that is not a range, and two filters on one pattern answer as RDF4J's evaluator (MemoryStore)
 * does, as planned, with the group join forced (hint {@code hash-merge}) and with lookups forced
 * ({@code nested-loop}: no group join), and past the memory budget (the rows do the work). A filter
 * over the variables of two patterns keeps the planned joins.
 */
class RangedGroupJoinTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    private static final String PREFIX = "PREFIX : <" + EX + "> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
    private static final LocalDate FIRST = LocalDate.of(2008, 1, 10);
    /** One month's reviews per product (BI query 3's inner count). */
    private static final String MONTH = "SELECT ?product (COUNT(?review) AS ?n) WHERE { "
            + "?review :reviewFor ?product . ?review :date ?date . "
            + "FILTER(?date >= \"M1\"^^xsd:date && ?date < \"M2\"^^xsd:date) HINT } GROUP BY ?product";
    /** BSBM's BI query 3 over the shop. */
    private static final String BI3 = "SELECT ?product (xsd:float(?monthCount) / ?monthBeforeCount AS ?ratio) WHERE { "
            + "{ SELECT ?product (COUNT(?review) AS ?monthCount) WHERE { ?review :reviewFor ?product . "
            + "?review :date ?date . FILTER(?date >= \"M1\"^^xsd:date && ?date < \"M2\"^^xsd:date) HINT } "
            + "GROUP BY ?product } "
            + "{ SELECT ?product (COUNT(?review) AS ?monthBeforeCount) WHERE { ?review :reviewFor ?product . "
            + "?review :date ?date . FILTER(?date >= \"M0\"^^xsd:date && ?date < \"M1\"^^xsd:date) HINT } "
            + "GROUP BY ?product HAVING (COUNT(?review) > 0) } "
            + "} ORDER BY DESC(xsd:float(?monthCount) / ?monthBeforeCount) ?product LIMIT 10";
    /** A filter that bounds nothing by ids: the string form of the date. */
    private static final String BY_TEXT = "SELECT ?product (COUNT(*) AS ?n) WHERE { "
            + "?review :reviewFor ?product . ?review :date ?date . FILTER(STR(?date) < \"2008-03\") HINT } "
            + "GROUP BY ?product";
    /** Two filters on the date, one a range. */
    private static final String TWO_FILTERS = "SELECT ?product (COUNT(?review) AS ?n) WHERE { "
            + "?review :reviewFor ?product . ?review :date ?date . FILTER(?date >= \"2008-03-01\"^^xsd:date) "
            + "FILTER(?date < \"2008-04-01\"^^xsd:date || ?date = \"2008-05-05\"^^xsd:date) HINT } GROUP BY ?product";
    /** A filter over the variables of two patterns. */
    private static final String ACROSS = "SELECT ?product (COUNT(?review) AS ?n) WHERE { "
            + "?review :reviewFor ?product . ?review :date ?date . ?product :released ?released . "
            + "FILTER(?date > ?released) HINT } GROUP BY ?product";
    private static NativeRunner shop;

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    private static Literal date(int r, int day) {
        String d = FIRST.plusDays(day).toString();
        if (r % 37 == 0) {
            return VF.createLiteral(d + (r % 2 == 0 ? "Z" : "-05:00"), XSD.DATE);
        }
        if (r % 41 == 0) {
            return VF.createLiteral(d + "T" + (r % 24 < 10 ? "0" : "") + r % 24 + ":30:00", XSD.DATETIME);
        }
        return r % 43 == 0 ? VF.createLiteral(d) : VF.createLiteral(d, XSD.DATE);
    }

    private static List<Statement> statements() {
        List<Statement> out = new ArrayList<>();
        for (int p = 0; p < 400; p++) {
            out.add(VF.createStatement(iri("product" + p), iri("released"),
                    VF.createLiteral(FIRST.plusDays(p % 90).toString(), XSD.DATE)));
        }
        for (int r = 0; r < 9000; r++) {
            IRI review = iri("review" + r);
            if (r % 101 != 5) {
                out.add(VF.createStatement(review, iri("reviewFor"), iri("product" + PlanProbe.mix(r) % 400)));
            }
            if (r % 53 != 7) {
                out.add(VF.createStatement(review, iri("date"), date(r, PlanProbe.mix(r + 99_991) % 180)));
            }
            if (r % 47 == 3) {
                out.add(VF.createStatement(review, iri("date"), date(r + 1, PlanProbe.mix(r + 12_345) % 180)));
            }
        }
        return out;
    }

    @BeforeAll
    static void load() {
        shop = new NativeRunner(statements());
    }

    @AfterAll
    static void close() {
        shop.close();
    }

    private static String months(String query, String m0) {
        LocalDate month0 = LocalDate.parse(m0);
        return query.replace("M0", month0.toString()).replace("M1", month0.plusMonths(1).toString())
                .replace("M2", month0.plusMonths(2).toString());
    }

    private static List<String> basalt(String query, String hint) {
        return PlanProbe.basalt(shop, PREFIX + query.replace("HINT", hint));
    }

    private static List<String> memory(String query) {
        return PlanProbe.memory(shop, PREFIX + query.replace("HINT", ""));
    }

    private static String explain() {
        return PlanProbe.plan(shop).explain();
    }

    private static int groupJoins() {
        return PlanProbe.operators(shop, GroupJoinOp.class).size();
    }

    @Test
    void oneMonthsReviewsAreCountedByAGroupJoinOverTheRangedScanAndAnswerAsRdf4j() {
        for (String m0 : List.of("2008-01-01", "2008-03-01")) {
            String q = months(MONTH, m0);
            List<String> expected = memory(q);
            assertFalse(expected.isEmpty(), q);
            assertEquals(expected, basalt(q, ""), q + "\n" + explain());
            String explain = explain();
            assertEquals(1, groupJoins(), explain);
            assertTrue(explain.contains("GroupJoin ?product"), explain);
            assertTrue(explain.contains("?review :date ?date kept where "), explain);
            assertTrue(explain.contains("[object ids in the ranges of ?date >= "), explain);

            assertEquals(expected, basalt(q, PlanProbe.HASH_MERGE), q + "\n" + explain());
            assertEquals(1, groupJoins(), explain());
            assertEquals(expected, basalt(q, PlanProbe.NESTED_LOOP), q + "\n" + explain());
            assertEquals(0, groupJoins(), explain());
        }
    }

    @Test
    void biQuery3AnswersAsRdf4jWithBothCountsByGroupJoins() {
        for (String m0 : List.of("2008-02-01", "2008-04-01")) {
            String q = months(BI3, m0);
            List<String> expected = memory(q);
            assertEquals(10, expected.size(), q);
            assertEquals(expected, basalt(q, ""), q + "\n" + explain());
            assertEquals(2, groupJoins(), explain());
            assertEquals(expected, basalt(q, PlanProbe.NESTED_LOOP), q + "\n" + explain());
        }
    }

    @Test
    void otherFiltersOnOnePatternAnswerAsRdf4j() {
        for (String q : List.of(BY_TEXT, TWO_FILTERS)) {
            List<String> expected = memory(q);
            assertFalse(expected.isEmpty(), q);
            assertEquals(expected, basalt(q, ""), q + "\n" + explain());
            assertEquals(expected, basalt(q, PlanProbe.HASH_MERGE), q + "\n" + explain());
            assertEquals(1, groupJoins(), explain());
            assertTrue(explain().contains(" kept where "), explain());
        }
    }

    @Test
    void aFilterOverTwoPatternsKeepsThePlannedJoins() {
        List<String> expected = memory(ACROSS);
        assertFalse(expected.isEmpty());
        assertEquals(expected, basalt(ACROSS, PlanProbe.HASH_MERGE), explain());
        assertEquals(0, groupJoins(), explain());
    }

    @Test
    void pastTheBudgetTheRowsAnswer() {
        shop.setLimits(ExecLimits.defaults().withHashJoinRows(3));
        try {
            String q = months(MONTH, "2008-02-01");
            assertEquals(memory(q), basalt(q, PlanProbe.HASH_MERGE), explain());
            assertEquals(1, groupJoins(), explain());
        } finally {
            shop.setLimits(ExecLimits.defaults());
        }
    }
}
