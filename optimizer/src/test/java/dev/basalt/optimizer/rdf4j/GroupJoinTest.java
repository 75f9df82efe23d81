package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.GroupJoinOp;
import dev.basalt.optimizer.exec.RowCursor;
import dev.basalt.optimizer.plan.CompiledPlan;

/**
 * GROUP BY one variable with COUNT(*), SUM and AVG over a tree of patterns, aggregated per join key
 * ({@code GroupJoinOp}), against RDF4J's evaluator (MemoryStore) on the same statements: a shop of
 * offers with vendors (some of two countries), products and producers, reviews, and prices
 * (custom-typed, read through {@code xsd:decimal(str(?price))}, of zero to three decimals; plain
 * xsd:decimal; inline xsd:integer quantities), some offers without price or vendor. Every answer
 * (values and labels, so the sums' scales too) equals MemoryStore's with the group join forced
 * (hint {@code hash-merge}; also with the largest pattern joined to its parent by key partitions, as on
 * large data), with index lookups forced (hint {@code nested-loop}, which never
 * aggregates per key), as the cost model plans, and past the memory budget (the rows do the work);
 * values that are not exact numbers (an ill-formed price, a string, an xsd:int) give the same answers
 * through the rows. COUNT of a variable the patterns bind counts the rows too. Other aggregates
 * (COUNT of a variable no pattern binds, DISTINCT, MAX, two SUMs) and shapes are not aggregated per key, and the cost model picks
 * the group join for a GROUP BY over all offers, not over one product's, and for one over all reviews'
 * inline integer ratings as for one over a value derived per row. Where every vendor has one country,
 * the partitioned join's root is read first and the vendor rows carry the country (in memory and
 * spilled); where some have two, it is not.
 */
class GroupJoinTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    private static final String PREFIX = "PREFIX : <" + EX + "> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
    private static final String FORCE = " . [] <http://basalt.dev/hint#joins> \"hash-merge\" . ";
    private static final String NESTED = " . [] <http://basalt.dev/hint#joins> \"nested-loop\" . ";
    private static final String AVG_BY_COUNTRY = "SELECT ?country (AVG(xsd:decimal(str(?price))) AS ?avg) "
            + "WHERE { ?offer :vendor ?v . ?v :country ?country . ?offer :price ?price HINT } GROUP BY ?country";
    /** Inline xsd:integer ratings of 300 reviews by producer: 660 matches, 300 joined rows. */
    private static final String AVG_RATING = "SELECT ?producer (AVG(?rating) AS ?a) WHERE { ?r :reviewFor ?product . "
            + "?product :producer ?producer . ?r :rating ?rating HINT } GROUP BY ?producer";
    private static NativeRunner shop;
    private static NativeRunner odd;

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    private static void add(List<Statement> out, String s, String p, Value o) {
        out.add(VF.createStatement(iri(s), iri(p), o));
    }

    /** 1,200 offers of 60 products (20 producers) and 40 vendors (10 countries; every seventh vendor in two). */
    private static List<Statement> statements(boolean oddValues) {
        return statements(oddValues, true);
    }

    /** The shop, with every seventh vendor in two countries or ({@code twoCountries} false) every vendor in one. */
    private static List<Statement> statements(boolean oddValues, boolean twoCountries) {
        List<Statement> out = new ArrayList<>();
        IRI usd = iri("USD");
        for (int p = 0; p < 60; p++) {
            add(out, "product" + p, "producer", iri("producer" + p % 20));
        }
        for (int v = 0; v < 40; v++) {
            add(out, "vendor" + v, "country", iri("country" + v % 10));
            if (v % 7 == 0 && twoCountries) {
                add(out, "vendor" + v, "country", iri("country" + (v + 3) % 10));
            }
        }
        for (int o = 0; o < 1200; o++) {
            add(out, "offer" + o, "product", iri("product" + o * 7 % 60));
            if (o % 29 != 3) {
                add(out, "offer" + o, "vendor", iri("vendor" + o % 40));
            }
            if (o % 13 == 5) {
                continue; // no price
            }
            String label = (o * 37 % 9000) + (o % 4 == 0 ? "" : "." + "1234567".substring(0, o % 4));
            add(out, "offer" + o, "price", VF.createLiteral(label, usd));
            add(out, "offer" + o, "net", VF.createLiteral(label, XSD.DECIMAL));
            add(out, "offer" + o, "qty", VF.createLiteral(o % 17 - 5));
        }
        for (int r = 0; r < 300; r++) {
            add(out, "review" + r, "reviewFor", iri("product" + r * 3 % 60));
            add(out, "review" + r, "rating", VF.createLiteral(Integer.toString(r % 10 + 1), XSD.INTEGER));
        }
        for (int o = 0; o < 30; o++) {
            add(out, "vendorless" + o, "price", VF.createLiteral("1.5", usd));
        }
        if (oddValues) {
            add(out, "offer1", "price", VF.createLiteral("n/a", usd));
            add(out, "offer2", "net", VF.createLiteral("2.5"));
            add(out, "offer3", "qty", VF.createLiteral("3", XSD.INT));
        }
        return out;
    }

    @BeforeAll
    static void load() {
        shop = new NativeRunner(statements(false));
        odd = new NativeRunner(statements(true));
    }

    @AfterAll
    static void close() {
        shop.close();
        odd.close();
    }

    private static final List<String> GROUPED = List.of(
            AVG_BY_COUNTRY,
            "SELECT ?country (SUM(xsd:decimal(str(?price))) AS ?s) (COUNT(*) AS ?n) WHERE { ?offer :vendor ?v . "
                    + "?v :country ?country . ?offer :price ?price HINT } GROUP BY ?country",
            "SELECT ?v (AVG(?net) AS ?a) (COUNT(*) AS ?n) WHERE { ?offer :vendor ?v . ?v :country ?country . "
                    + "?offer :net ?net HINT } GROUP BY ?v",
            "SELECT ?producer (SUM(?qty) AS ?s) WHERE { ?offer :product ?product . "
                    + "?product :producer ?producer . ?offer :qty ?qty HINT } GROUP BY ?producer",
            "SELECT ?producer (AVG(?qty) AS ?a) WHERE { ?offer :product ?product . "
                    + "?product :producer ?producer . ?offer :qty ?qty HINT } GROUP BY ?producer",
            "SELECT ?country (AVG(?net) AS ?a) WHERE { ?offer :product ?product . ?product :producer ?producer . "
                    + "?offer :vendor ?vendor . ?vendor :country ?country . ?offer :net ?net HINT } GROUP BY ?country",
            // the summed variable and the group variable each join two patterns
            "SELECT ?product (SUM(?n) AS ?s) (COUNT(*) AS ?c) WHERE { ?r :reviewFor ?product . ?offer :product ?product . "
                    + "?offer :qty ?n HINT } GROUP BY ?product",
            "SELECT ?country (COUNT(*) AS ?n) WHERE { ?offer :vendor ?v . ?v :country ?country . "
                    + "?r :reviewFor ?p . ?offer :product ?p HINT } GROUP BY ?country",
            AVG_RATING,
            "SELECT ?country (COUNT(?r) AS ?n) (SUM(?q) AS ?s) WHERE { ?offer :vendor ?v . ?v :country ?country . "
                    + "?r :reviewFor ?p . ?offer :product ?p . ?offer :qty ?q HINT } GROUP BY ?country",
            "SELECT ?c (AVG(?net) AS ?a) WHERE { ?offer :vendor ?v . ?v :country ?c . ?offer :net ?net . "
                    + "?offer :product :product7 HINT } GROUP BY ?c");

    private static String explain(NativeRunner runner) {
        return ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan().explain();
    }

    /**
     * The last plan's group join with its largest pattern joined to its parent by key partitions (as
     * on large data), run directly, its rows as {@link SolutionModifiersTest#rows} gives them.
     */
    private static List<String> partitioned(NativeRunner runner, ExecLimits limits) {
        return partitionedRun(runner, limits).rows();
    }

    /** The rows of a run of the last plan's group join by partitions, and its EXPLAIN line after the run. */
    record PartitionedRun(List<String> rows, String described) {
    }

    static PartitionedRun partitionedRun(NativeRunner runner, ExecLimits limits) {
        CompiledPlan plan = ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan();
        GroupJoinOp op = ((GroupJoinOp) plan.root()).partitionedFrom(0);
        assertTrue(op.describe().contains("joined by key partitions"), op.describe());
        List<String> out = new ArrayList<>();
        ExecContext ctx = new ExecContext(runner.twin(), false, limits);
        try (RowCursor c = op.open(new long[plan.vars().size()], ctx)) {
            long[] row;
            while ((row = c.next()) != null) {
                java.util.TreeMap<String, Value> named = new java.util.TreeMap<>();
                for (int i = 0; i < plan.outputSlots().length; i++) {
                    Value v = ctx.resolve(row[plan.outputSlots()[i]]);
                    if (v != null) {
                        named.put(plan.outputNames().get(i), v);
                    }
                }
                StringBuilder sb = new StringBuilder();
                named.forEach((name, v) -> sb.append(name).append('=').append(v).append(' '));
                out.add(sb.toString());
            }
        }
        out.sort(null);
        return new PartitionedRun(out, op.describe());
    }

    private static List<String> basalt(NativeRunner runner, String query, String hint) {
        List<String> rows = SolutionModifiersTest.rows(runner.basalt(PREFIX + query.replace("HINT", hint)));
        rows.sort(null);
        return rows;
    }

    private static List<String> memory(NativeRunner runner, String query) {
        List<String> rows = SolutionModifiersTest.rows(runner.memory(PREFIX + query.replace("HINT", "")));
        rows.sort(null);
        return rows;
    }

    @Test
    void groupsOfTreesAreAggregatedPerKeyAndEqualRdf4js() {
        for (String q : GROUPED) {
            List<String> expected = memory(shop, q);
            assertFalse(expected.isEmpty(), q);
            assertEquals(expected, basalt(shop, q, NESTED), q);
            assertFalse(explain(shop).contains("GroupJoin"), explain(shop));
            assertEquals(expected, basalt(shop, q, FORCE), q + "\n" + explain(shop));
            assertTrue(explain(shop).startsWith("GroupJoin"), q + "\n" + explain(shop));
            assertEquals(expected, partitioned(shop, ExecLimits.defaults()), q + " partitioned");
            assertEquals(expected, partitioned(shop, ExecLimits.defaults().withHashJoinRows(10)), q + " partitioned");
            // again: the store's table of derived numbers now holds some of the prices
            assertEquals(expected, basalt(shop, q, FORCE), q);
            assertEquals(expected, basalt(shop, q, ""), q);
            // past the budget of ids per key: aggregated from the rows
            shop.setLimits(ExecLimits.defaults().withHashJoinRows(10));
            try {
                assertEquals(expected, basalt(shop, q, FORCE), q);
            } finally {
                shop.setLimits(ExecLimits.defaults());
            }
        }
    }

    @Test
    void partitionsPastTheBudgetsMemorySpillAndJoinFromDisk(@TempDir Path spillDir) {
        // budgets where every key table fits but a set of partitioned rows
        // (about 1,160 vendor rows, 300 review rows; 2 longs each: a pattern without children keeps no count)
        // passes its half of the budget's memory (3 longs per budget row)
        Map<String, Long> budgets = Map.of(AVG_BY_COUNTRY, 700L, AVG_RATING, 190L);
        for (String q : budgets.keySet()) {
            List<String> expected = memory(shop, q);
            assertEquals(expected, basalt(shop, q, FORCE), q);
            PartitionedRun run = partitionedRun(shop, ExecLimits.defaults().withHashJoinRows(budgets.get(q))
                    .withSpillDir(spillDir));
            assertEquals(expected, run.rows(), q);
            assertTrue(run.described().contains("(spilled "), run.described());
            PartitionedRun inMemory = partitionedRun(shop, ExecLimits.defaults());
            assertEquals(expected, inMemory.rows(), q);
            assertFalse(inMemory.described().contains("(spilled "), inMemory.described());
        }
        try (java.util.stream.Stream<Path> left = java.nio.file.Files.list(spillDir)) {
            assertEquals(0, left.count(), "spill files are deleted");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aRootWithOneGroupPerKeyIsReadFirstAndItsChildsRowsCarryTheGroup(@TempDir Path spillDir) {
        String sumAndCount = "SELECT ?country (SUM(xsd:decimal(str(?price))) AS ?s) (COUNT(*) AS ?n) WHERE { "
                + "?offer :vendor ?v . ?v :country ?country . ?offer :price ?price HINT } GROUP BY ?country";
        String first = "(groups by the root's keys first in ";
        NativeRunner single = new NativeRunner(statements(false, false));
        try {
            // with a condition on the root's matches, the root read first keeps only the matches that meet it
            String filtered = AVG_BY_COUNTRY.replace("?offer :price ?price HINT", "?offer :price ?price "
                    + "FILTER(?country != :country3) HINT");
            for (String q : List.of(AVG_BY_COUNTRY, sumAndCount, filtered)) {
                List<String> expected = memory(single, q);
                assertEquals(expected, basalt(single, q, FORCE), q);
                PartitionedRun run = partitionedRun(single, ExecLimits.defaults());
                assertEquals(expected, run.rows(), q);
                assertTrue(run.described().contains(first), run.described());
                PartitionedRun spilled = partitionedRun(single, ExecLimits.defaults().withHashJoinRows(700)
                        .withSpillDir(spillDir));
                assertEquals(expected, spilled.rows(), q);
                assertTrue(spilled.described().contains("(spilled ") && spilled.described().contains(first),
                        spilled.described());
                // some vendors in two countries: the root's step as usual, the same answers as RDF4J's
                List<String> two = memory(shop, q);
                assertEquals(two, basalt(shop, q, FORCE), q);
                PartitionedRun usual = partitionedRun(shop, ExecLimits.defaults());
                assertEquals(two, usual.rows(), q);
                assertFalse(usual.described().contains(first), usual.described());
            }
        } finally {
            single.close();
        }
    }

    @Test
    void valuesThatAreNotExactNumbersAreAggregatedFromTheRows() {
        for (String q : GROUPED) {
            assertEquals(memory(odd, q), basalt(odd, q, FORCE), q + "\n" + explain(odd));
            assertTrue(explain(odd).startsWith("GroupJoin"), q + "\n" + explain(odd));
            assertEquals(memory(odd, q), partitioned(odd, ExecLimits.defaults()), q + " partitioned");
        }
    }

    @Test
    void otherAggregatesAndShapesAreNotAggregatedPerKey() {
        String where = " WHERE { ?offer :vendor ?v . ?v :country ?country . ?offer :net ?net HINT } ";
        for (String q : List.of(
                "SELECT ?country (AVG(DISTINCT ?net) AS ?a)" + where + "GROUP BY ?country",
                "SELECT ?country (MAX(?net) AS ?a)" + where + "GROUP BY ?country",
                "SELECT ?country (COUNT(?unbound) AS ?a)" + where + "GROUP BY ?country",
                "SELECT ?country (COUNT(DISTINCT ?net) AS ?a)" + where + "GROUP BY ?country",
                "SELECT ?country (SUM(?net) AS ?a) (AVG(?net) AS ?b)" + where + "GROUP BY ?country",
                "SELECT ?country (SUM(?net + 1) AS ?a)" + where + "GROUP BY ?country",
                "SELECT ?country ?v (SUM(?net) AS ?a)" + where + "GROUP BY ?country ?v",
                "SELECT (SUM(?net) AS ?a)" + where,
                "SELECT ?country (SUM(?net) AS ?a) WHERE { ?offer :vendor ?v . ?v :country ?country . "
                        + "?offer :net ?net FILTER(?net > 10 || ?v = :vendor3) HINT } GROUP BY ?country",
                "SELECT ?country (SUM(?net) AS ?a) WHERE { ?offer :vendor ?v . ?v :country ?country . "
                        + "OPTIONAL { ?offer :net ?net } HINT } GROUP BY ?country")) {
            assertEquals(memory(shop, q), basalt(shop, q, FORCE), q);
            assertFalse(explain(shop).contains("GroupJoin"), q + "\n" + explain(shop));
        }
    }

    @Test
    void aFilterOnOnePatternsVariablesKeepsItsMatchesInTheGroupJoin() {
        String q = "SELECT ?country (SUM(?net) AS ?a) WHERE { ?offer :vendor ?v . ?v :country ?country . "
                + "?offer :net ?net FILTER(?net > 10) HINT } GROUP BY ?country";
        assertEquals(memory(shop, q), basalt(shop, q, FORCE), q + "\n" + explain(shop));
        assertTrue(explain(shop).startsWith("GroupJoin") && explain(shop).contains("?offer :net ?net kept where "),
                explain(shop));
    }

    @Test
    void costModelAggregatesAllOffersPerKeyButNotOneProducts() {
        basalt(shop, AVG_BY_COUNTRY, "");
        assertTrue(explain(shop).startsWith("GroupJoin ?country ?avg=AVG(")
                && explain(shop).contains("joined rows estimated"), explain(shop));
        basalt(shop, "SELECT ?c (AVG(?net) AS ?a) WHERE { ?offer :product :product7 . ?offer :vendor ?v . "
                + "?v :country ?c . ?offer :net ?net } GROUP BY ?c", "");
        assertFalse(explain(shop).contains("GroupJoin"), explain(shop));
    }

    /**
     * A SUM or AVG of a plain variable (inline integer ratings, which the rows would add on ids) takes
     * the group join by the same bound as one of a value derived per row (matches at most patterns
     * times the joined rows: 660 against 3 x 300): measured at BSBM 1M and 10M, the group join is
     * faster than the planned joins there too (docs/benchmarks-analytic.md, avgRating). A fan-out join
     * (more joined rows than matches) takes it as well.
     */
    @Test
    void costModelAggregatesInlineRatingsPerKeyToo() {
        basalt(shop, AVG_RATING, "");
        assertTrue(explain(shop).startsWith("GroupJoin ?producer") && explain(shop).contains(" <= 3 x "), explain(shop));
        assertEquals(memory(shop, AVG_RATING), basalt(shop, AVG_RATING, ""));
        String derived = AVG_RATING.replace("AVG(?rating)", "AVG(xsd:decimal(str(?rating)))");
        basalt(shop, derived, "");
        assertTrue(explain(shop).startsWith("GroupJoin ?producer") && explain(shop).contains(" <= 3 x "), explain(shop));
        assertEquals(memory(shop, derived), basalt(shop, derived, ""));
        String fanOut = "SELECT ?product (SUM(?rating) AS ?s) WHERE { ?r :reviewFor ?product . ?offer :product ?product . "
                + "?r :rating ?rating HINT } GROUP BY ?product";
        basalt(shop, fanOut, "");
        assertTrue(explain(shop).startsWith("GroupJoin ?product") && explain(shop).contains(" <= 3 x "), explain(shop));
        assertEquals(memory(shop, fanOut), basalt(shop, fanOut, ""));
    }
}
