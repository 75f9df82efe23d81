package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.Batch;
import dev.basalt.optimizer.exec.BatchCursor;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.MergeJoin;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.RowCursor;

/**
 * The merge join over blocks of ids ({@code MergeBlocks}) on a shop whose keys have large groups
 * (a product with 1,500 reviews spans blocks), gaps (most products have no reviews, so both sides
 * skip and seek), the same statement in several graphs (duplicates), a second shared variable, a
 * repeated variable, {@code GRAPH ?g}, OPTIONAL around and inside, and GROUP BY above: the merge
 * plan gives the rows of the nested loops, as a multiset; the row form and the batch form give
 * the same rows in the same order; the cost model merges where both sides are large and keeps the
 * lookups where the first is small.
 */
class MergeJoinBlocksTest {
    private static final OrderingPolicy NESTED = OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.NESTED_LOOP);
    private static final OrderingPolicy FORCED = OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.HASH_MERGE);
    private static final MemoryQuadSource SHOP = shop();

    private static IRI iri(String local) {
        return SimpleValueFactory.getInstance().createIRI(AnalyticJoinTest.EX, local);
    }

    /**
     * 1,000 products; 2,000 offers of the first 100 (20 each), some in graph g1 too; reviews of
     * every 7th product from 50 on (1,500 of product 57, 2 of the others), some in g1 and g2 too;
     * every offer :likes its product and a few also :rates it.
     */
    private static MemoryQuadSource shop() {
        MemoryQuadSource src = new MemoryQuadSource().ordered(true);
        for (int o = 0; o < 2_000; o++) {
            IRI offer = iri("offer" + o);
            IRI product = iri("product" + o % 100);
            src.add(offer, iri("product"), product);
            src.add(offer, iri("likes"), product);
            if (o % 9 == 0) {
                src.add(offer, iri("product"), product, iri("g1"));
                src.add(offer, iri("rates"), product);
            }
            if (o % 13 == 0) {
                src.add(offer, iri("rates"), iri("product" + (o + 1) % 100));
                src.add(offer, iri("product"), offer);
            }
        }
        int r = 0;
        for (int p = 50; p < 1_000; p += 7) {
            int n = p == 57 ? 1_500 : 2;
            for (int i = 0; i < n; i++, r++) {
                IRI review = iri("review" + r);
                src.add(review, iri("reviewFor"), iri("product" + p));
                if (r % 5 == 0) {
                    src.add(review, iri("reviewFor"), iri("product" + p), iri("g" + (1 + r % 2)));
                    src.add(review, iri("rating"), SimpleValueFactory.getInstance().createLiteral(r % 10));
                }
            }
        }
        return src.concurrentReads(true);
    }

    private static List<String> rows(CompiledPlan plan) {
        return AnalyticJoinTest.rows(SHOP, plan, ExecLimits.defaults());
    }

    private static MergeJoin merge(Operator op) {
        if (op instanceof MergeJoin m) {
            return m;
        }
        for (Operator c : op.children()) {
            MergeJoin m = merge(c);
            if (m != null) {
                return m;
            }
        }
        return null;
    }

    @Test
    void mergedRowsEqualNestedLoopRows() throws Exception {
        List<String> queries = List.of(
                "SELECT * WHERE { ?o :product ?p . ?r :reviewFor ?p }",
                // a second shared variable: ?o must agree too
                "SELECT * WHERE { ?o :likes ?p . ?o :rates ?p }",
                // a variable twice in one pattern
                "SELECT * WHERE { ?o :product ?o . ?r :rates ?o }",
                "SELECT * WHERE { GRAPH ?g { ?r :reviewFor ?p } ?o :product ?p }",
                "SELECT * WHERE { GRAPH ?g { ?o :product ?p . ?r :reviewFor ?p } }",
                "SELECT * WHERE { ?o :product ?p . ?r :reviewFor ?p OPTIONAL { ?r :rating ?x } }",
                "SELECT * WHERE { ?o :rates ?p OPTIONAL { ?o2 :product ?p . ?r :reviewFor ?p } }",
                "SELECT ?p (COUNT(*) AS ?n) (COUNT(DISTINCT ?r) AS ?d) WHERE { ?o :product ?p . ?r :reviewFor ?p } "
                        + "GROUP BY ?p",
                "SELECT (COUNT(?x) AS ?n) (SUM(?x) AS ?s) WHERE { ?o :product ?p . ?r :reviewFor ?p "
                        + "OPTIONAL { ?r :rating ?x } }");
        int merged = 0;
        for (String q : queries) {
            CompiledPlan nested = AnalyticJoinTest.compile(SHOP, q, NESTED);
            assertFalse(nested.explain().contains("MergeJoin"), q);
            List<String> expected = rows(nested);
            CompiledPlan forced = AnalyticJoinTest.compile(SHOP, q, FORCED);
            merged += forced.explain().contains("MergeJoin") ? 1 : 0;
            assertEquals(expected, rows(forced), q + "\n" + forced.explain());
            assertEquals(expected, rows(AnalyticJoinTest.compile(SHOP, q, OrderingPolicy.DEFAULT)), q);
        }
        assertTrue(merged >= 7, merged + " of " + queries.size() + " forced plans merge");
    }

    @Test
    void rowAndBatchFormsGiveTheSameRowsInOrder() throws Exception {
        CompiledPlan plan = AnalyticJoinTest.compile(SHOP, "SELECT * WHERE { ?o :product ?p . ?r :reviewFor ?p }",
                FORCED);
        MergeJoin join = merge(plan.root());
        int width = plan.vars().size();
        List<String> byRow = new ArrayList<>();
        try (RowCursor c = join.open(new long[width], new ExecContext(SHOP, false, ExecLimits.defaults()))) {
            long[] r;
            while ((r = c.next()) != null) {
                byRow.add(Arrays.toString(r));
            }
        }
        List<String> byBatch = new ArrayList<>();
        int full = 0;
        try (BatchCursor c = join.openBatch(new long[width], new ExecContext(SHOP, false, ExecLimits.defaults()))) {
            Batch b;
            while ((b = c.next()) != null) {
                full += b.size() == Batch.CAPACITY ? 1 : 0;
                for (int i = 0; i < b.size(); i++) {
                    long[] r = new long[width];
                    for (int s = 0; s < width; s++) {
                        r[s] = b.id(i, s);
                    }
                    byBatch.add(Arrays.toString(r));
                }
            }
        }
        assertEquals(byRow, byBatch);
        // product 57's 20 offers (and 3 more in g1) with its 1,500 reviews (and 300 more in graphs)
        assertTrue(byRow.size() > 20 * 1_800 && full >= byRow.size() / Batch.CAPACITY - 1, byRow.size() + " " + full);
    }

    @Test
    void costModelMergesLargeSidesAndKeepsLookupsForSmallOnes() throws Exception {
        MemoryQuadSource big = AnalyticJoinTest.shop(60_000, 60_000);
        // COUNT(DISTINCT ?review): grouped over the joined rows (a COUNT(*) per ?p would be a GroupJoin)
        CompiledPlan large = AnalyticJoinTest.compile(big, "SELECT ?p (COUNT(DISTINCT ?review) AS ?n) WHERE { "
                + "?offer :product ?p . ?review :reviewFor ?p } GROUP BY ?p", OrderingPolicy.DEFAULT);
        assertTrue(large.explain().contains("MergeJoin on slot") && large.explain().contains("blocks of ids"),
                large.explain());
        CompiledPlan small = AnalyticJoinTest.compile(big, "SELECT * WHERE { ?offer :product :product7 . "
                + "?offer :vendor ?v . ?review :reviewFor :product7 }", OrderingPolicy.DEFAULT);
        assertFalse(small.explain().contains("MergeJoin"), small.explain());
    }
}
