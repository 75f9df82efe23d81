package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.Set;

import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;

/**
 * The pattern of an EXISTS under a filter RDF4J's evaluator runs (BSBM BI7's {@code FILTER NOT
 * EXISTS { ?offer :product ?product . ?offer :vendor ?vendor . ?vendor :country X }} over a
 * subquery that binds {@code ?product}) is opened once per outer row with {@code ?product} bound:
 * compiled with it as bound ({@link PlanCompiler#compileRoot(TupleExpr, Set)}), its plan starts from
 * the product's offers and looks the rest up, with no merge, hash or parallel join over all offers;
 * compiled without, the same group starts elsewhere.
 * Thread rules: JUnit runs each test in one thread.
 */
class BoundOutsideTest {
    private static final String EX = "http://example.org/";

    @Test
    void aGroupOpenedPerBoundRowStartsFromTheBoundVariable() throws Exception {
        MemoryQuadSource src = AnalyticJoinTest.shop(6_000, 0);
        TupleExpr e = new SPARQLParser().parseQuery("PREFIX : <" + EX + "> SELECT * WHERE { ?offer :product ?product . "
                + "?offer :vendor ?vendor . ?vendor :country :country3 }", null).getTupleExpr();
        if (e instanceof QueryRoot root) {
            e = root.getArg();
        }
        TupleExpr group = ((Projection) e).getArg();
        OrderingPolicy forced = OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.HASH_MERGE);
        CompiledPlan bound = new PlanCompiler(src, x -> bs -> false, null, new CardinalityEstimator(src), forced, null)
                .compileRoot(group.clone(), Set.of("product"));
        String explain = bound.explain();
        assertEquals("?offer :product ?product", bound.scanOrder().get(0), explain);
        assertFalse(explain.contains("MergeJoin") || explain.contains("PatternHashJoin") || explain.contains("ParallelJoin"),
                explain);
        CompiledPlan free = new PlanCompiler(src, x -> bs -> false, null, new CardinalityEstimator(src), forced, null)
                .compileRoot(group.clone());
        assertNotEquals("?offer :product ?product", free.scanOrder().get(0), free.explain());
    }
}
