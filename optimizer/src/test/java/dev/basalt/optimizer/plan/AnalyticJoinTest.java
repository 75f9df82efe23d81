package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.RowCursor;

/**
 * Joins of large relations (analytic queries over all offers of a BSBM-like store): the cost model
 * hashes or merges where the rows reaching a pattern are many and looks patterns up where they
 * are few, EXPLAIN says why, and every choice (as costed, nested loops forced, merge and hash
 * forced) gives the same rows.
 */
class AnalyticJoinTest {
    static final String EX = "http://example.org/";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final OrderingPolicy NESTED = OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.NESTED_LOOP);
    private static final OrderingPolicy FORCED = OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.HASH_MERGE);
    static final String ALL_OFFERS = "?offer :product ?product . ?product :producer ?producer . "
            + "?offer :vendor ?vendor . ?vendor :country ?country";

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    /**
     * {@code offers} offers, each of one of offers / 20 products (a producer each, of 50) and one
     * of 100 vendors (a country each, of 10); {@code reviews} reviews of the products.
     */
    static MemoryQuadSource shop(int offers, int reviews) {
        MemoryQuadSource src = new MemoryQuadSource().ordered(true);
        int products = offers / 20;
        for (int p = 0; p < products; p++) {
            src.add(iri("product" + p), iri("producer"), iri("producer" + p % 50));
        }
        for (int v = 0; v < 100; v++) {
            src.add(iri("vendor" + v), iri("country"), iri("country" + v % 10));
        }
        for (int o = 0; o < offers; o++) {
            src.add(iri("offer" + o), iri("product"), iri("product" + o * 7 % products));
            src.add(iri("offer" + o), iri("vendor"), iri("vendor" + o % 100));
        }
        for (int r = 0; r < reviews; r++) {
            src.add(iri("review" + r), iri("reviewFor"), iri("product" + r * 3 % products));
        }
        return src;
    }

    static CompiledPlan compile(MemoryQuadSource src, String select, OrderingPolicy policy) throws Exception {
        TupleExpr e = new SPARQLParser().parseQuery("PREFIX : <" + EX + "> " + select, null).getTupleExpr();
        if (e instanceof QueryRoot root) {
            e = root.getArg();
        }
        return new PlanCompiler(src, expr -> bs -> false, null, new CardinalityEstimator(src), policy, null)
                .compileRoot(e);
    }

    static List<String> rows(MemoryQuadSource src, CompiledPlan plan, ExecLimits limits) {
        List<String> out = new ArrayList<>();
        try (RowCursor c = plan.root().open(new long[plan.vars().size()], new ExecContext(src, false, limits))) {
            long[] row;
            while ((row = c.next()) != null) {
                long[] projected = new long[plan.outputSlots().length];
                for (int i = 0; i < projected.length; i++) {
                    projected[i] = row[plan.outputSlots()[i]];
                }
                out.add(Arrays.toString(projected));
            }
        }
        Collections.sort(out);
        return out;
    }

    @Test
    void largeFourPatternJoinOverAllOffersIsHashJoinedAndSaysWhy() throws Exception {
        MemoryQuadSource src = shop(60_000, 0);
        CompiledPlan plan = compile(src, "SELECT * WHERE { " + ALL_OFFERS + " }", OrderingPolicy.DEFAULT);
        String explain = plan.explain();
        // the 100 vendors look their offers up; the offers' second pattern, reached by 60,000 rows, is
        // scanned once into a table (60,000 lookups cost more), and so is the products' producer
        assertEquals(List.of("?vendor :country ?country", "?offer :vendor ?vendor", "?offer :product ?product",
                "?product :producer ?producer"), plan.scanOrder(), explain);
        assertEquals(2, explain.split("PatternHashJoin keys").length - 1, explain);
        assertTrue(explain.contains("[build 60000 matches + probe 60000 rows: cost 4.80e+05 < 7.20e+05 by lookups]"),
                explain);
        assertEquals(60_000, rows(src, plan, ExecLimits.defaults()).size());
    }

    @Test
    void selectiveExploreLikeQueryKeepsIndexLookups() throws Exception {
        MemoryQuadSource src = shop(60_000, 0);
        CompiledPlan plan = compile(src, "SELECT * WHERE { ?offer :product :product7 . ?offer :vendor ?vendor . "
                + "?vendor :country ?country }", OrderingPolicy.DEFAULT);
        String explain = plan.explain();
        assertTrue(explain.startsWith("PipelineJoin"), explain);
        assertFalse(explain.contains("HashJoin") || explain.contains("MergeJoin"), explain);
        assertEquals(20, rows(src, plan, ExecLimits.defaults()).size());
    }

    /**
     * BSBM Explore Q5's shape at 100M: the products sharing a feature (tens of thousands of rows) reach a numeric
     * property of every product, a table of a few hundred thousand matches. Probing a table that large costs
     * {@link JoinChoice#LARGE_TABLE_PROBE_COST}, so the property is looked up per row unless more than a third of
     * its matches' worth of rows reach it (a fifth, at a probe cost of 2, hashed Q5 and took 1.8x its lookups' CPU).
     */
    @Test
    void largeTableReachedByAFewOfItsMatchesIsLookedUp() throws Exception {
        for (int[] rowsAndJoin : new int[][] { { 55_000, 0 }, { 75_000, 1 } }) {
            MemoryQuadSource src = new MemoryQuadSource().ordered(true);
            for (int p = 0; p < 200_000; p++) {
                src.add(iri("product" + p), iri("num"), VF.createLiteral(p % 500));
            }
            for (int p = 0; p < rowsAndJoin[0]; p++) {
                src.add(iri("product" + p * 2), iri("feature"), iri("feature1"));
            }
            CompiledPlan plan = compile(src, "SELECT * WHERE { ?product :feature :feature1 . ?product :num ?v }",
                    OrderingPolicy.DEFAULT);
            String explain = plan.explain();
            assertEquals(List.of("?product :feature :feature1", "?product :num ?v"), plan.scanOrder(), explain);
            assertEquals(rowsAndJoin[1] == 1, explain.contains("PatternHashJoin"), explain);
            if (rowsAndJoin[1] == 1) {
                // (this twin has no index: its lookups would scan every quad, so only the hashed plan runs here)
                assertEquals(rowsAndJoin[0], rows(src, plan, ExecLimits.defaults()).size());
            }
        }
    }

    @Test
    void twoLargePatternsReadableInTheVariablesOrderAreMerged() throws Exception {
        MemoryQuadSource src = shop(60_000, 60_000);
        String query = "SELECT ?offer ?review WHERE { ?offer :product ?product . ?review :reviewFor ?product }";
        CompiledPlan plan = compile(src, query, OrderingPolicy.DEFAULT);
        String explain = plan.explain();
        assertTrue(explain.contains("MergeJoin") && explain.contains("in order"), explain);
        // 3,000 products, 20 offers and 20 reviews each
        assertEquals(1_200_000, PlanShapeTest.run(src, plan));
        // without ordered reads the same query looks the reviews up (the in-memory twin without indices)
        MemoryQuadSource unordered = shop(2_000, 1_000).ordered(false);
        assertFalse(compile(unordered, query, FORCED).explain().contains("MergeJoin"));
    }

    @Test
    void everyJoinChoiceGivesTheSameRows() throws Exception {
        MemoryQuadSource src = shop(2_000, 1_000);
        src.add(iri("offer1"), iri("product"), iri("offer1"), iri("g1"));
        src.add(iri("review1"), iri("reviewFor"), iri("product1"), iri("g1"));
        src.add(iri("review2"), iri("reviewFor"), iri("product2"), iri("g2"));
        List<String> queries = List.of("SELECT * WHERE { " + ALL_OFFERS + " }",
                "SELECT * WHERE { ?offer :product ?p . ?review :reviewFor ?p . ?offer :vendor ?v }",
                "SELECT * WHERE { ?offer :product ?p . ?p :producer ?x . ?review :reviewFor ?p }",
                // a variable twice in one pattern, and two shared variables
                "SELECT * WHERE { ?offer :product ?offer . ?offer :vendor ?v }",
                "SELECT * WHERE { ?o :product ?p . ?o2 :product ?p . ?o2 :vendor ?v . ?o :vendor ?v }",
                "SELECT * WHERE { GRAPH ?g { ?r :reviewFor ?p } ?o :product ?p }",
                // COUNT(DISTINCT ...): a GROUP BY over the joins (a COUNT(*) would be a GroupJoin, no joins)
                "SELECT ?c (COUNT(DISTINCT ?r) AS ?n) WHERE { ?o :vendor ?v . ?v :country ?c . ?o :product ?p . "
                        + "?r :reviewFor ?p } GROUP BY ?c");
        for (String q : queries) {
            List<String> nested = rows(src, compile(src, q, NESTED), ExecLimits.defaults());
            CompiledPlan forced = compile(src, q, FORCED);
            assertTrue(forced.explain().contains("MergeJoin") || forced.explain().contains("PatternHashJoin"),
                    forced.explain());
            assertFalse(compile(src, q, NESTED).explain().contains("MergeJoin"), q);
            assertEquals(nested, rows(src, forced, ExecLimits.defaults()), q + "\n" + forced.explain());
            // a hash table past the budget: the join looks its rows up instead
            assertEquals(nested, rows(src, forced, ExecLimits.defaults().withHashJoinRows(10)), q);
            assertEquals(nested, rows(src, compile(src, q, OrderingPolicy.DEFAULT), ExecLimits.defaults()), q);
        }
    }
}
