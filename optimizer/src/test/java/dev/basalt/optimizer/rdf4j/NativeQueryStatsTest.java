package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.api.Test;

class NativeQueryStatsTest {

    @Test
    void countsFallbacksByTypeAndByReason() {
        NativeQueryStats stats = new NativeQueryStats();
        stats.fallback("Order", "ORDER BY is not compiled");
        stats.fallback("Order", "ORDER BY is not compiled");
        stats.fallback("Transaction", "whole query evaluated by RDF4J");
        stats.runtimeFallback("incoming bindings under a projection");

        assertEquals(Map.of("Order", 2L, "Transaction", 1L), stats.fallbacks());
        assertEquals(Map.of("Order: ORDER BY is not compiled", 2L, "Transaction: whole query evaluated by RDF4J", 1L,
                "run time: incoming bindings under a projection", 1L), stats.fallbackReasons());
        assertEquals(3, stats.totalFallbacks());
        assertEquals(1, stats.runtimeFallbacks());

        stats.reset();
        assertTrue(stats.fallbackReasons().isEmpty());
    }

    @Test
    void countsARefusedShapeOnceAndEachOfItsLaterEvaluations() {
        NativeQueryStats stats = new NativeQueryStats();
        stats.shapePlanRefused("a constant outside a pattern");
        stats.shapePlans().planNotKept();
        stats.shapePlans().planNotKept();
        assertEquals(Map.of("shape plan not kept: a constant outside a pattern", 1L), stats.fallbackReasons());
        assertEquals(2, stats.shapePlansNotKept());
        stats.reset();
        assertEquals(0, stats.shapePlansNotKept());
    }

    @Test
    void keepsABoundedNumberOfDistinctReasons() {
        NativeQueryStats stats = new NativeQueryStats();
        for (int i = 0; i < NativeQueryStats.MAX_REASONS + 10; i++) {
            stats.fallback("Extension", "unsupported function on ?v" + i);
        }
        Map<String, Long> reasons = stats.fallbackReasons();
        assertEquals(NativeQueryStats.MAX_REASONS + 1, reasons.size());
        assertEquals(10L, reasons.get(NativeQueryStats.OTHER_REASONS));
    }
}
