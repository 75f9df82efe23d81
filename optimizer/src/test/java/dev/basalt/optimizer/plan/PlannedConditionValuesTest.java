package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;

/**
 * A plan kept per query shape is compiled with sentinels in place of its FILTER's constants; the estimate of the
 * pattern a FILTER range narrows must come from the compiling query's value ({@code QuadSource#plannedConditionValues}),
 * not from the sentinel, which lies beyond every stored value and so made a range that keeps most matches look as
 * if it kept none (BSBM Q4: {@code ?p2 > %y%} with y in 1..500 keeps 60-100 % of the products, yet the kept plan
 * started from that range and probed the type and features per product).
 */
class PlannedConditionValuesTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    /** What a query shape's sentinel for an integer constant looks like: an integer no data holds. */
    private static final Literal SENTINEL = VF.createLiteral("736401900000019", XSD.INTEGER);

    /** {@link PlanShapeTest#people}: 1000 people, 20 in each of 50 cities, aged 0..89. */
    private static final String WHERE = "?x :livesIn :city3 . ?x :age ?a FILTER(?a > \"" + SENTINEL.getLabel()
            + "\"^^<http://www.w3.org/2001/XMLSchema#integer>)";

    @Test
    void aKeptPlansRangeIsEstimatedWithTheCompilingQuerysValue() throws Exception {
        // the compiling query asks for ?a > 10: nearly every person passes, the city's 20 people lead
        MemoryQuadSource src = PlanShapeTest.people().plannedConditionValues(Map.of(SENTINEL, VF.createLiteral(10)));
        CompiledPlan plan = PlanShapeTest.compile(src, WHERE, OrderingPolicy.DEFAULT);
        assertEquals("?x :livesIn :city3", plan.scanOrder().get(0), plan.explain());
    }

    @Test
    void withoutTheQuerysValueTheSentinelMakesTheRangeLookEmpty() throws Exception {
        // what a kept plan got before: the sentinel's range holds no value, so the range scan leads
        CompiledPlan plan = PlanShapeTest.compile(PlanShapeTest.people(), WHERE, OrderingPolicy.DEFAULT);
        assertEquals("?x :age ?a", plan.scanOrder().get(0), plan.explain());
    }
}
