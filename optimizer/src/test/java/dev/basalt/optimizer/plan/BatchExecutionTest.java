package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.Batch;
import dev.basalt.optimizer.exec.BatchCursor;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.RowCursor;

/**
 * Batch execution ({@link Operator#openBatch}): over the shop of {@link AnalyticJoinTest} (6,000
 * offers), every batch form yields the rows of the row form in the same
 * order, with the hash table, with lookups past its budget and with lookups forced, filtered or
 * not; a COUNT and a GROUP BY over the join read batches, say so in EXPLAIN, and answer what the
 * rows give, also when the groups spill; an operator without a batch form keeps its GROUP BY on
 * rows, and EXPLAIN names it.
 */
class BatchExecutionTest {
    private static final OrderingPolicy NESTED = OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.NESTED_LOOP);
    private static final OrderingPolicy FORCED = OrderingPolicy.DEFAULT.withJoins(OrderingPolicy.Joins.HASH_MERGE);
    private static final MemoryQuadSource SHOP = AnalyticJoinTest.shop(6_000, 3_000).concurrentReads(true);

    /** The topmost operator of the plan with a batch form (the join under the projection). */
    private static Operator batchable(Operator op) {
        if (op.batchable()) {
            return op;
        }
        for (Operator c : op.children()) {
            Operator b = batchable(c);
            if (b != null) {
                return b;
            }
        }
        return null;
    }

    private static List<List<Long>> rows(Operator op, int width, ExecContext ctx) {
        return rows(op, new long[width], ctx);
    }

    /** The rows {@code op} yields for {@code input}, row by row. */
    static List<List<Long>> rows(Operator op, long[] input, ExecContext ctx) {
        List<List<Long>> out = new ArrayList<>();
        try (RowCursor c = op.open(input, ctx)) {
            long[] r;
            while ((r = c.next()) != null) {
                out.add(Arrays.stream(r).boxed().toList());
            }
        }
        return out;
    }

    private static List<List<Long>> batchRows(Operator op, int width, ExecContext ctx) {
        return batchRows(op, new long[width], ctx);
    }

    /** The rows {@code op} yields for {@code input} in batches (each of 1 to {@link Batch#CAPACITY} rows). */
    static List<List<Long>> batchRows(Operator op, long[] input, ExecContext ctx) {
        List<List<Long>> out = new ArrayList<>();
        try (BatchCursor c = op.openBatch(input, ctx)) {
            Batch b;
            while ((b = c.next()) != null) {
                assertTrue(b.size() > 0 && b.size() <= Batch.CAPACITY);
                for (int i = 0; i < b.size(); i++) {
                    List<Long> row = new ArrayList<>();
                    for (int s = 0; s < b.width(); s++) {
                        row.add(b.id(i, s));
                    }
                    out.add(row);
                }
            }
        }
        return out;
    }

    @Test
    void batchesYieldTheRowsOfTheRowFormInOrder() throws Exception {
        String filtered = AnalyticJoinTest.ALL_OFFERS + " FILTER(?country != :country3 && ?producer != :producer7)";
        for (OrderingPolicy policy : List.of(OrderingPolicy.DEFAULT, NESTED, FORCED)) {
            for (String where : List.of(AnalyticJoinTest.ALL_OFFERS, filtered,
                    "?offer :product ?product . ?review :reviewFor ?product")) {
                CompiledPlan plan = PlanShapeTest.compile(SHOP, where, policy);
                Operator op = batchable(plan.root());
                assertTrue(op != null, plan.explain());
                int width = plan.vars().size();
                List<List<Long>> expected = rows(op, width, new ExecContext(SHOP, false).withoutStatistics());
                assertTrue(expected.size() > 5 * Batch.CAPACITY, where + ": " + expected.size());
                List<List<Long>> serial = batchRows(op, width, new ExecContext(SHOP, false).withoutStatistics());
                assertEquals(expected.size(), serial.size(), where + "\n" + plan.explain());
                assertTrue(expected.equals(serial), "same rows, same order: " + where);
                // with a helper thread (the chunks of a ParallelJoin run side by side): the same rows, in order
                for (int attempt = 0; attempt < 3; attempt++) {
                    assertTrue(expected.equals(batchRows(op, width, new ExecContext(SHOP, false).withoutStatistics())),
                            "helper threads: " + where);
                }
                ExecLimits tiny = ExecLimits.defaults().withHashJoinRows(10);
                assertTrue(expected.equals(batchRows(op, width, new ExecContext(SHOP, false, tiny).withoutStatistics())),
                        "past the table budget: " + where);
            }
        }
    }

    private static IRI iri(String local) {
        return SimpleValueFactory.getInstance().createIRI(AnalyticJoinTest.EX, local);
    }

    /**
     * A hash table of one, two or three matches probed with keys it does not hold (whichever side
     * the join builds, both hold one or two keys the other lacks): the batch probe ends at an empty
     * slot (a table of one or two matches used to be full, and such a probe looped for ever), and the
     * forced hash join answers what the nested loops do.
     */
    @Test
    // a separate thread: a probe that loops for ever ignores interrupts, and the test must still end
    @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void aSmallHashTableAnswersProbesOfAbsentKeys() throws Exception {
        for (int built = 1; built <= 3; built++) {
            MemoryQuadSource src = new MemoryQuadSource().ordered(true);
            for (int p = 0; p < built; p++) {
                src.add(iri("product" + p), iri("producer"), iri("producer" + p));
            }
            // two offers: one of product0, one of a product the table never holds
            src.add(iri("offer0"), iri("product"), iri("product0"));
            src.add(iri("offer1"), iri("product"), iri("product5"));
            src.concurrentReads(true);
            String where = "?offer :product ?product . ?product :producer ?producer";
            CompiledPlan forced = PlanShapeTest.compile(src, where, FORCED);
            CompiledPlan nested = PlanShapeTest.compile(src, where, NESTED);
            Operator op = batchable(forced.root());
            assertTrue(op != null, forced.explain());
            int expected = rows(nested.root(), nested.vars().size(), new ExecContext(src, false).withoutStatistics()).size();
            assertEquals(1, expected);
            assertEquals(expected, batchRows(op, forced.vars().size(), new ExecContext(src, false).withoutStatistics()).size(),
                    built + " matches\n" + forced.explain());
        }
    }

    private static CompiledPlan select(String query) throws Exception {
        return AnalyticJoinTest.compile(SHOP, query, FORCED);
    }

    private static List<String> answers(CompiledPlan plan, ExecLimits limits) {
        List<String> out = new ArrayList<>();
        try (RowCursor c = plan.root().open(new long[plan.vars().size()], new ExecContext(SHOP, false, limits))) {
            long[] row;
            while ((row = c.next()) != null) {
                long[] projected = new long[plan.outputSlots().length];
                for (int i = 0; i < projected.length; i++) {
                    projected[i] = row[plan.outputSlots()[i]];
                }
                out.add(Arrays.toString(Arrays.stream(projected).mapToObj(id -> String.valueOf(SHOP.resolve(new long[] { id })[0])).toArray()));
            }
        }
        Collections.sort(out);
        return out;
    }

    @Test
    void countAndGroupByReadBatchesAndSayWhy() throws Exception {
        CompiledPlan all = PlanShapeTest.compile(SHOP, AnalyticJoinTest.ALL_OFFERS, OrderingPolicy.DEFAULT);
        int country = all.vars().find("country");
        List<List<Long>> joined = rows(all.root(), all.vars().size(), new ExecContext(SHOP, false));
        Map<String, Integer> perCountry = new TreeMap<>();
        for (List<Long> r : joined) {
            perCountry.merge(String.valueOf(SHOP.resolve(new long[] { r.get(country) })[0]), 1, Integer::sum);
        }

        // two counts: a GROUP BY of all rows (COUNT(*) alone of these patterns is counted per join key)
        CompiledPlan count = select("SELECT (COUNT(*) AS ?n) (COUNT(?vendor) AS ?m) WHERE { " + AnalyticJoinTest.ALL_OFFERS + " }");
        assertTrue(count.explain().contains("[batches of 1024 rows: every operator below has a batch form]"),
                count.explain());
        String n = "\"" + joined.size() + "\"^^<http://www.w3.org/2001/XMLSchema#integer>";
        assertEquals(List.of("[" + n + ", " + n + "]"), answers(count, ExecLimits.defaults()));
        CompiledPlan countAlone = select("SELECT (COUNT(*) AS ?n) WHERE { " + AnalyticJoinTest.ALL_OFFERS + " }");
        assertTrue(countAlone.explain().startsWith("CountJoin"), countAlone.explain());
        assertEquals(List.of("[" + n + "]"), answers(countAlone, ExecLimits.defaults()));

        CompiledPlan grouped = select("SELECT ?country (COUNT(*) AS ?n) (MIN(?vendor) AS ?v) WHERE { "
                + AnalyticJoinTest.ALL_OFFERS + " } GROUP BY ?country");
        assertTrue(grouped.explain().contains("[batches of 1024 rows"), grouped.explain());
        List<String> expected = new ArrayList<>();
        List<String> got = answers(grouped, ExecLimits.defaults());
        assertEquals(perCountry.size(), got.size());
        for (var e : perCountry.entrySet()) {
            expected.add(e.getKey() + " " + e.getValue());
        }
        List<String> countsOnly = new ArrayList<>();
        for (String g : got) {
            String[] cells = g.substring(1, g.length() - 1).split(", ");
            countsOnly.add(cells[0] + " " + cells[1].substring(1, cells[1].indexOf('"', 1)));
        }
        Collections.sort(countsOnly);
        assertEquals(expected, countsOnly);
        // two groups held, the others spilled to partitions and aggregated after: the same answer
        assertEquals(got, answers(grouped, ExecLimits.defaults().withGroupRows(2)));
        assertTrue(grouped.explain().contains("spilled"), grouped.explain());
    }

    /** A policy without batches (a store's {@code basalt:batches false}) keeps GROUP BY on rows, with the same answers. */
    @Test
    void aPolicyWithoutBatchesReadsRows() throws Exception {
        // COUNT(DISTINCT ?offer): grouped over the joins (a COUNT(*) would be a GroupJoin)
        String query = "SELECT ?country (COUNT(DISTINCT ?offer) AS ?n) WHERE { " + AnalyticJoinTest.ALL_OFFERS
                + " } GROUP BY ?country";
        CompiledPlan batched = select(query);
        CompiledPlan rows = AnalyticJoinTest.compile(SHOP, query,
                FORCED.withExecution(false, dev.basalt.optimizer.exec.ParallelMode.AUTO));
        assertTrue(batched.explain().contains("[batches of 1024 rows"), batched.explain());
        assertTrue(rows.explain().contains("[rows: batches switched off]"), rows.explain());
        assertEquals(answers(batched, ExecLimits.defaults()), answers(rows, ExecLimits.defaults()));
    }

    @Test
    void anOperatorWithoutBatchFormKeepsItsGroupOnRows() throws Exception {
        CompiledPlan plan = select("SELECT (COUNT(*) AS ?n) WHERE { ?offer :vendor ?vendor "
                + "OPTIONAL { ?vendor :country ?country } }");
        String explain = plan.explain();
        assertTrue(explain.contains("[rows: "), explain);
        assertTrue(explain.contains("has no batch form]"), explain);
        assertFalse(explain.contains("[batches of"), explain);
        assertEquals(List.of("[\"6000\"^^<http://www.w3.org/2001/XMLSchema#integer>]"),
                answers(plan, ExecLimits.defaults()));
    }
}
