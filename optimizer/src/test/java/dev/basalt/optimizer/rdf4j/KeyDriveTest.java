package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.HashJoin;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.plan.CompiledPlan;

/**
 * An inner hash join whose left side is a chain of patterns runs that chain per key of its built
 * right side when the keys are few ({@code KeyDrive}), on a shop of BSBM's BI query 4 shape: 200
 * products of three types (TypeC has 20 of them, TypeA 133), each with 20 offers (every eleventh
 * without a price) and up to four of 12 features. The average price of a type's products without each
 * feature joins all offers and their prices with the type's (product, feature) pairs: for TypeC's 20
 * products the offers are read per product, for TypeA's 133 they are probed as planned. Every
 * answer equals RDF4J's evaluator's (MemoryStore) on the same statements (prices summed as decimals,
 * which add up alike in any order), as planned, with hash and merge joins forced, with lookups
 * forced, and with a build side past the memory budget (spilled: then never per key).
 */
class KeyDriveTest {
    private static final String PREFIX = "PREFIX : <http://example.org/> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
    private static final String HASH_MERGE = " . [] <http://basalt.dev/hint#joins> \"hash-merge\" ";
    private static final String NESTED_LOOP = " . [] <http://basalt.dev/hint#joins> \"nested-loop\" ";
    /** The second half of BSBM's BI query 4 for type TYPE. */
    private static final String WITHOUT_FEATURE = "SELECT ?feature (AVG(xsd:decimal(str(?price))) AS ?avg) "
            + "(COUNT(*) AS ?n) WHERE { { SELECT DISTINCT ?feature WHERE { ?p a :TYPE ; :feature ?feature } } "
            + "?product a :TYPE . ?offer :product ?product ; :price ?price "
            + "FILTER NOT EXISTS { ?product :feature ?feature } HINT } GROUP BY ?feature";
    /** The same join's rows, not grouped (the row form above a hash join). */
    private static final String PAIRS = "SELECT ?feature ?product ?offer ?price WHERE { "
            + "{ SELECT DISTINCT ?feature WHERE { ?p a :TYPE ; :feature ?feature } } "
            + "?product a :TYPE . ?offer :product ?product ; :price ?price "
            + "FILTER NOT EXISTS { ?product :feature ?feature } HINT }";
    private static NativeRunner shop;

    private static List<Statement> statements() {
        return HashJoinBatchTest.shop(200, 4000, p -> p % 10 == 0 ? "TypeC" : p % 3 == 0 ? "TypeB" : "TypeA",
                p -> p % 7 % 5);
    }

    @BeforeAll
    static void load() {
        shop = new NativeRunner(statements());
    }

    @AfterAll
    static void close() {
        shop.close();
    }

    private static List<String> basalt(String query, String type, String hint) {
        return PlanProbe.basalt(shop, PREFIX + query.replace("TYPE", type).replace("HINT", hint));
    }

    private static List<String> memory(String query, String type) {
        return PlanProbe.memory(shop, PREFIX + query.replace("TYPE", type).replace("HINT", ""));
    }

    private static CompiledPlan plan() {
        return PlanProbe.plan(shop);
    }

    /** The opens of the last plan's hash joins that ran their left side per key. */
    private static long drivenOpens() {
        return driven(plan().root(), new ArrayList<>()).stream().mapToLong(HashJoin::drivenOpens).sum();
    }

    /** The hash joins of the last plan that may run per key. */
    private static List<HashJoin> driven(Operator op, List<HashJoin> out) {
        if (op instanceof HashJoin h && h.drive() != null) {
            out.add(h);
        }
        for (Operator c : op.children()) {
            driven(c, out);
        }
        return out;
    }

    @Test
    void aFewKeysDriveTheLeftSideAndAnswerAsRdf4j() {
        for (String q : List.of(WITHOUT_FEATURE, PAIRS)) {
            List<String> expected = memory(q, "TypeC");
            assertFalse(expected.isEmpty(), q);
            for (String hint : List.of("", HASH_MERGE, NESTED_LOOP)) {
                assertEquals(expected, basalt(q, "TypeC", hint), q + hint + "\n" + plan().explain());
                String explain = plan().explain();
                List<HashJoin> joins = driven(plan().root(), new ArrayList<>());
                assertEquals(1, joins.size(), explain);
                assertTrue(explain.contains("[or the left side per build key when keys x "), explain);
                assertEquals(1, drivenOpens(), explain);
            }
        }
    }

    @Test
    void manyKeysProbeAsPlanned() {
        for (String q : List.of(WITHOUT_FEATURE, PAIRS)) {
            List<String> expected = memory(q, "TypeA");
            assertFalse(expected.isEmpty(), q);
            assertEquals(expected, basalt(q, "TypeA", ""), q + "\n" + plan().explain());
            String explain = plan().explain();
            assertEquals(1, driven(plan().root(), new ArrayList<>()).size(), explain);
            assertEquals(0, drivenOpens(), explain);
        }
    }

    @Test
    void aSpilledBuildSideIsNeverDriven() {
        shop.setLimits(ExecLimits.defaults().withHashJoinRows(3));
        try {
            for (String q : List.of(WITHOUT_FEATURE, PAIRS)) {
                assertEquals(memory(q, "TypeC"), basalt(q, "TypeC", ""), q + "\n" + plan().explain());
                assertEquals(0, drivenOpens(), plan().explain());
            }
        } finally {
            shop.setLimits(ExecLimits.defaults());
        }
    }
}
