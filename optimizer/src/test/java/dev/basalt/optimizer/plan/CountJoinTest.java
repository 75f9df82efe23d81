package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.CountJoinOp;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.RowCursor;

/**
 * {@code COUNT(*)} of a join counted per join key ({@code CountJoinOp}): over the shop of
 * {@link AnalyticJoinTest}, with some offers lacking a vendor or a product and some vendors with two
 * countries, every count equals the count of the rows that nested loops make (which never count per
 * key); trees of two to five patterns, with constants, are counted per key where the estimates say
 * so, and a cycle, a filter (also a repeated variable's), an OPTIONAL, a COUNT(DISTINCT *), a COUNT
 * of a variable or a GROUP BY are not; past the memory budget the same count comes from the rows.
 */
class CountJoinTest {
    private static final OrderingPolicy NESTED = OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.NESTED_LOOP);
    private static final OrderingPolicy FORCED = OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.HASH_MERGE);
    private static final MemoryQuadSource SHOP = shop();

    private static MemoryQuadSource shop() {
        MemoryQuadSource src = AnalyticJoinTest.shop(2_000, 600);
        String ex = AnalyticJoinTest.EX;
        // multiplicities above one and keys that find nothing on the other side
        for (int v = 0; v < 100; v += 7) {
            src.add(iri(ex, "vendor" + v), iri(ex, "country"), iri(ex, "country" + (v + 3) % 10));
        }
        for (int o = 0; o < 50; o++) {
            src.add(iri(ex, "lonelyOffer" + o), iri(ex, "vendor"), iri(ex, "vendor" + o));
            src.add(iri(ex, "vendorless" + o), iri(ex, "product"), iri(ex, "product" + o));
            src.add(iri(ex, "vendor" + o), iri(ex, "knows"), iri(ex, "vendor" + o));
        }
        return src;
    }

    private static org.eclipse.rdf4j.model.IRI iri(String ns, String local) {
        return org.eclipse.rdf4j.model.impl.SimpleValueFactory.getInstance().createIRI(ns, local);
    }

    private static String count(CompiledPlan plan, ExecLimits limits) {
        return count(plan, plan.root(), limits);
    }

    private static String count(CompiledPlan plan, Operator root, ExecLimits limits) {
        ExecContext ctx = new ExecContext(SHOP, false, limits);
        try (RowCursor c = root.open(new long[plan.vars().size()], ctx)) {
            long[] row = c.next();
            assertTrue(row != null && c.next() == null, plan.explain());
            return ctx.resolve(row[plan.outputSlots()[0]]).stringValue();
        }
    }

    private static CompiledPlan plan(String where, OrderingPolicy policy) throws Exception {
        return AnalyticJoinTest.compile(SHOP, "SELECT (COUNT(*) AS ?n) WHERE { " + where + " }", policy);
    }

    @Test
    void treesOfPatternsAreCountedPerKeyAndEqualTheRows() throws Exception {
        for (String where : List.of(AnalyticJoinTest.ALL_OFFERS,
                "?offer :product ?product . ?review :reviewFor ?product",
                "?offer :vendor ?vendor . ?vendor :country ?country",
                "?offer :product ?product . ?offer :vendor ?vendor . ?review :reviewFor ?product . ?vendor :country ?c",
                "?offer :product ?product . ?product :producer :producer7 . ?offer :vendor ?v . ?v :country ?c",
                "?r :reviewFor ?p . ?o :product ?p . ?o :vendor ?v . ?v :country ?c . ?v2 :country ?c",
                "?o1 :product ?p . ?o2 :product ?p . ?o2 :vendor ?v . ?v :country ?c")) {
            String expected = count(plan(where, NESTED), ExecLimits.defaults());
            assertFalse(plan(where, NESTED).explain().contains("CountJoin"), where);
            CompiledPlan forced = plan(where, FORCED);
            assertTrue(forced.explain().startsWith("CountJoin"), where + "\n" + forced.explain());
            assertEquals(expected, count(forced, ExecLimits.defaults()), where + "\n" + forced.explain());
            // past the budget of ids per key: counted from the rows, the same count
            assertEquals(expected, count(forced, ExecLimits.defaults().withHashJoinRows(10)), where);
            // the root's largest child joined by key partitions, as on large data
            CountJoinOp partitioned = ((CountJoinOp) forced.root()).partitionedFrom(0);
            assertTrue(partitioned.describe().contains("by key partitions"), partitioned.describe());
            assertEquals(expected, count(forced, partitioned, ExecLimits.defaults()), where + " partitioned");
            assertEquals(expected, count(forced, partitioned, ExecLimits.defaults().withHashJoinRows(10)), where);
            assertEquals(expected, count(plan(where, OrderingPolicy.DEFAULT), ExecLimits.defaults()), where);
        }
        assertEquals("2000", count(plan("?offer :product ?product . ?offer :vendor ?vendor", FORCED),
                ExecLimits.defaults()));
    }

    @Test
    void pairsOfAJoinByPartitionsCountAThirdOfARowAgainstTheBudget() throws Exception {
        // 2,000 offers with a product and a vendor: about 2,000 (offer, count) pairs on each side of the join
        String where = "?offer :product ?product . ?offer :vendor ?vendor";
        CountJoinOp partitioned = ((CountJoinOp) plan(where, FORCED).root()).partitionedFrom(0);
        long[] input = new long[plan(where, FORCED).vars().size()];
        // about 4,000 pairs held: within a budget of 1,500 rows (4,500 pairs), past one of 1,000 (3,000 pairs)
        assertEquals(2000L, partitioned.countWithinBudget(input,
                new ExecContext(SHOP, false, ExecLimits.defaults().withHashJoinRows(1_500))));
        assertEquals(null, partitioned.countWithinBudget(input,
                new ExecContext(SHOP, false, ExecLimits.defaults().withHashJoinRows(1_000))));
        // a budget near Long.MAX_VALUE does not overflow into a negative one
        assertEquals(2000L, partitioned.countWithinBudget(input,
                new ExecContext(SHOP, false, ExecLimits.defaults().withHashJoinRows(Long.MAX_VALUE - 1))));
    }

    @Test
    void largeJoinsAreCountedPerKeyBySelectiveOnesAreNot() throws Exception {
        CompiledPlan all = plan(AnalyticJoinTest.ALL_OFFERS, OrderingPolicy.DEFAULT);
        assertTrue(all.explain().startsWith("CountJoin") && all.explain().contains("joined rows estimated"),
                all.explain());
        // one producer's offers: a few hundred rows by lookups, against scans of all offers
        CompiledPlan one = plan("?offer :product ?product . ?product :producer :producer7 . ?offer :vendor ?v",
                OrderingPolicy.DEFAULT);
        assertFalse(one.explain().contains("CountJoin"), one.explain());
    }

    @Test
    void shapesThatAreNotTreesOfPatternsAreCountedFromRows() throws Exception {
        for (String where : List.of(
                // a cycle: ?offer, ?product and ?vendor each in two patterns, three edges among three patterns
                "?offer :product ?product . ?product :producer ?x . ?offer :vendor ?x",
                // two patterns sharing two variables
                "?offer :vendor ?vendor . ?offer ?p ?vendor",
                "?offer :vendor ?vendor . ?vendor :country ?c FILTER(?c != :country3)",
                // a repeated variable: RDF4J's parser makes it a filter (sameTerm) over a fresh variable
                "?offer :vendor ?vendor . ?vendor :knows ?vendor",
                "?offer :vendor ?vendor OPTIONAL { ?vendor :country ?c }")) {
            CompiledPlan forced = plan(where, FORCED);
            assertFalse(forced.explain().contains("CountJoin"), where + "\n" + forced.explain());
            assertEquals(count(plan(where, NESTED), ExecLimits.defaults()), count(forced, ExecLimits.defaults()), where);
        }
        for (String select : List.of(
                "SELECT (COUNT(DISTINCT *) AS ?n) WHERE { " + AnalyticJoinTest.ALL_OFFERS + " }",
                "SELECT (COUNT(?vendor) AS ?n) WHERE { " + AnalyticJoinTest.ALL_OFFERS + " }",
                "SELECT ?country (COUNT(*) AS ?n) WHERE { " + AnalyticJoinTest.ALL_OFFERS + " } GROUP BY ?country")) {
            CompiledPlan forced = AnalyticJoinTest.compile(SHOP, select, FORCED);
            assertFalse(forced.explain().contains("CountJoin"), select + "\n" + forced.explain());
        }
    }
}
