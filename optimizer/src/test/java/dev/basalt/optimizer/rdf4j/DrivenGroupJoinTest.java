package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.GroupJoinOp;
import dev.basalt.optimizer.plan.CompiledPlan;

/**
 * A group join whose patterns are read by lookups per key of a child's table ({@code KeyedReads}), on
 * a shop of BSBM's BI query 1 shape: 12 product types, 600 products of two types each (every 50th
 * without a producer), 40 producers, 300 reviewers and 30 vendors in 8 countries (every country
 * pattern matches all three), 12,000 reviews (every 97th without a reviewer). The review count per
 * product type for one country's producers and another's reviewers is planned as a group join that
 * looks up the reviewers' reviews and the reviews' products instead of scanning them; a count that
 * starts at one producer's products (the reviews would be scanned whole) keeps the planned joins.
 * Every answer equals RDF4J's evaluator's (MemoryStore), as planned (two pairs of countries), with the
 * group join forced (hint {@code hash-merge}: scans) and with lookups forced (hint {@code nested-loop}: no
 * group join) for one pair, and past the memory budget (the rows do the work).
 */
class DrivenGroupJoinTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    private static final String PREFIX = "PREFIX : <" + EX + "> ";
    /** BSBM's BI query 1 without its ORDER BY and LIMIT, for producers of C1 and reviewers of C2. */
    private static final String BY_COUNTRIES = "SELECT ?productType (COUNT(?review) AS ?reviewCount) WHERE { "
            + "?productType a :ProductType . ?product a ?productType . ?product :producer ?producer . "
            + "?producer :country :C1 . ?review :reviewFor ?product . ?review :reviewer ?reviewer . "
            + "?reviewer :country :C2 HINT } GROUP BY ?productType";
    /** The reviews per product type of one producer's products. */
    private static final String BY_PRODUCER = "SELECT ?productType (COUNT(*) AS ?n) WHERE { "
            + "?productType a :ProductType . ?product a ?productType . ?product :producer :producer3 . "
            + "?review :reviewFor ?product HINT } GROUP BY ?productType";
    private static NativeRunner shop;

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    private static void add(List<Statement> out, String s, IRI p, String o) {
        out.add(VF.createStatement(iri(s), p, iri(o)));
    }

    /** No statement twice (the test source keeps duplicates, RDF4J's stores do not). */
    private static List<Statement> statements() {
        List<Statement> out = new ArrayList<>();
        for (int t = 0; t < 12; t++) {
            add(out, "type" + t, RDF.TYPE, "ProductType");
        }
        for (int p = 0; p < 600; p++) {
            add(out, "product" + p, RDF.TYPE, "Product");
            add(out, "product" + p, RDF.TYPE, "type" + p % 12);
            add(out, "product" + p, RDF.TYPE, "type" + (p % 12 + 1 + p / 12 % 11) % 12);
            if (p % 50 != 7) {
                add(out, "product" + p, iri("producer"), "producer" + p % 40);
            }
        }
        for (int n = 0; n < 40; n++) {
            add(out, "producer" + n, iri("country"), "C" + n % 8);
        }
        for (int n = 0; n < 300; n++) {
            add(out, "reviewer" + n, iri("country"), "C" + PlanProbe.mix(n) % 8);
        }
        for (int n = 0; n < 30; n++) {
            add(out, "vendor" + n, iri("country"), "C" + n % 8);
        }
        for (int r = 0; r < 12000; r++) {
            add(out, "review" + r, iri("reviewFor"), "product" + PlanProbe.mix(r) % 600);
            if (r % 97 != 3) {
                add(out, "review" + r, iri("reviewer"), "reviewer" + PlanProbe.mix(r + 77_777) % 300);
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

    private static List<String> basalt(String query, String hint) {
        return PlanProbe.basalt(shop, PREFIX + query.replace("HINT", hint));
    }

    private static List<String> memory(String query) {
        return PlanProbe.memory(shop, PREFIX + query.replace("HINT", ""));
    }

    private static CompiledPlan plan() {
        return PlanProbe.plan(shop);
    }

    private static int groupJoins() {
        return PlanProbe.operators(shop, GroupJoinOp.class).size();
    }

    @Test
    void oneCountrysReviewsAreLookedUpPerKeyAndAnswerAsRdf4j() {
        for (String countries : List.of("C1 C2", "C5 C5")) {
            String[] c = countries.split(" ");
            String q = BY_COUNTRIES.replace(":C1", ":" + c[0]).replace(":C2", ":" + c[1]);
            List<String> expected = memory(q);
            assertFalse(expected.isEmpty(), q);
            assertEquals(expected, basalt(q, ""), q + "\n" + plan().explain());
            String explain = plan().explain();
            assertEquals(1, groupJoins(), explain);
            assertTrue(explain.contains("?review :reviewer ?reviewer looked up per key of ?reviewer :country :" + c[1]),
                    explain);
            assertTrue(explain.contains("?review :reviewFor ?product looked up per key of ?review :reviewer ?reviewer"),
                    explain);
            assertTrue(explain.contains(" by scans and lookups per key <= "), explain);
            assertTrue(explain.contains("(driven by keys in "), explain);
            if (!countries.equals("C1 C2")) {
                continue;
            }
            assertEquals(expected, basalt(q, PlanProbe.HASH_MERGE), q + "\n" + plan().explain());
            explain = plan().explain();
            assertEquals(1, groupJoins(), explain);
            assertFalse(explain.contains("looked up per key"), explain);

            assertEquals(expected, basalt(q, PlanProbe.NESTED_LOOP), q + "\n" + plan().explain());
            assertEquals(0, groupJoins(), plan().explain());
        }
    }

    @Test
    void aCountThatWouldScanAllReviewsKeepsThePlannedJoins() {
        List<String> expected = memory(BY_PRODUCER);
        assertFalse(expected.isEmpty());
        assertEquals(expected, basalt(BY_PRODUCER, ""), plan().explain());
        assertEquals(0, groupJoins(), plan().explain());
    }

    @Test
    void pastTheBudgetTheRowsAnswer() {
        shop.setLimits(ExecLimits.defaults().withHashJoinRows(3));
        try {
            String q = BY_COUNTRIES.replace(":C1", ":C1").replace(":C2", ":C2");
            assertEquals(memory(q), basalt(q, ""), plan().explain());
            assertEquals(1, groupJoins(), plan().explain());
        } finally {
            shop.setLimits(ExecLimits.defaults());
        }
    }
}
