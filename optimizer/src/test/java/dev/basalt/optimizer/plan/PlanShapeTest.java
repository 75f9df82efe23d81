package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.RowCursor;

/**
 * Plan shapes from data statistics, against the in-memory twin: given the counts the data makes,
 * the compiler must pick this join order and these operators.
 */
class PlanShapeTest {
    private static final String EX = "http://example.org/";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    /** 1000 people with a name, 5 friends each, 2 of them of the rare type; 50 cities. */
    static MemoryQuadSource people() {
        MemoryQuadSource src = new MemoryQuadSource();
        for (int i = 0; i < 1000; i++) {
            IRI p = iri("person" + i);
            src.add(p, iri("name"), VF.createLiteral("name" + i));
            for (int f = 1; f <= 5; f++) {
                src.add(p, iri("knows"), iri("person" + (i + f * 37) % 1000));
            }
            src.add(p, iri("livesIn"), iri("city" + i % 50));
            src.add(p, iri("age"), VF.createLiteral(i % 90));
        }
        src.add(iri("person7"), RDF.TYPE, iri("Rare"));
        src.add(iri("person8"), RDF.TYPE, iri("Rare"));
        for (int c = 0; c < 50; c++) {
            src.add(iri("city" + c), iri("label"), VF.createLiteral("city" + c));
        }
        return src;
    }

    /**
     * Anti-correlated data where the greedy static order is bad: {@code seeds} nodes of kind :Seed
     * each link to {@code fanOut} nodes with status :Open (and a name); {@code closed} nodes have
     * status :Closed, and no link reaches them. The static order starts at the smaller :Seed pattern
     * and produces seeds × fanOut rows before :Closed removes them all; starting at :Closed and
     * following links backwards finds nothing after {@code closed} lookups. With {@code closed}
     * well above seeds × fanOut / 4, the static order's look-ahead of two steps (which counts the
     * average fan-in of the links, about 4) still prefers :Seed.
     */
    static MemoryQuadSource seedsAndLinks(int seeds, int fanOut, int closed) {
        MemoryQuadSource src = new MemoryQuadSource();
        for (int i = 0; i < seeds; i++) {
            IRI x = iri("seed" + i);
            src.add(x, iri("kind"), iri("Seed"));
            src.add(x, iri("name"), VF.createLiteral("seed" + i));
            src.add(x, iri("age"), VF.createLiteral(i % 70));
            for (int f = 0; f < fanOut; f++) {
                src.add(x, iri("link"), iri("open" + (i * 7 + f) % (seeds * fanOut / 4 + 1)));
            }
        }
        for (int y = 0; y <= seeds * fanOut / 4; y++) {
            src.add(iri("open" + y), iri("status"), iri("Open"));
            src.add(iri("open" + y), iri("name"), VF.createLiteral("open" + y));
        }
        for (int y = 0; y < closed; y++) {
            src.add(iri("closed" + y), iri("status"), iri("Closed"));
            src.add(iri("closed" + y), iri("name"), VF.createLiteral("closed" + y));
        }
        return src;
    }

    private static CompiledPlan compile(MemoryQuadSource src, String where) throws Exception {
        return compile(src, where, OrderingPolicy.DEFAULT);
    }

    static CompiledPlan compile(MemoryQuadSource src, String where, OrderingPolicy ordering) throws Exception {
        TupleExpr e = new SPARQLParser().parseQuery("PREFIX : <" + EX + "> SELECT * WHERE { " + where + " }", null)
                .getTupleExpr();
        if (e instanceof org.eclipse.rdf4j.query.algebra.QueryRoot root) {
            e = root.getArg();
        }
        return new PlanCompiler(src, expr -> bs -> false, null, new CardinalityEstimator(src), ordering, null).compileRoot(e);
    }

    static long run(MemoryQuadSource src, CompiledPlan plan) {
        long n = 0;
        try (RowCursor c = plan.root().open(new long[plan.vars().size()], new ExecContext(src, false))) {
            while (c.next() != null) {
                n++;
            }
        }
        return n;
    }

    @Test
    void mostSelectivePatternFirstThenCheapestConnectedFanOut() throws Exception {
        MemoryQuadSource src = people();
        CompiledPlan plan = compile(src, "?x :knows ?y . ?x :name ?n . ?x a :Rare");
        assertEquals(List.of("?x :type :Rare", "?x :name ?n", "?x :knows ?y"), plan.scanOrder(), plan.explain());
        assertTrue(plan.explain().startsWith("PipelineJoin"), plan.explain());
        assertEquals(10, run(src, plan));
    }

    /**
     * BSBM Q10 at 200 products in small: the smallest pattern ({@code ?v :country :US}, 13 matches:
     * 3 vendors and 10 people) leads to every offer of every US vendor, while the product's 20
     * offers, a slightly larger pattern, reach the same answers with one lookup per offer. The first
     * operand is chosen by its first two steps, so the product comes first, and the static plan is
     * cheap enough that no runtime ordering is paid for.
     */
    @Test
    void startsWhereTheFirstTwoStepsAreCheapestNotAtTheSmallestPattern() throws Exception {
        MemoryQuadSource src = new MemoryQuadSource();
        for (int v = 0; v < 3; v++) {
            src.add(iri("vendor" + v), iri("country"), iri("US"));
        }
        for (int p = 0; p < 10; p++) {
            src.add(iri("person" + p), iri("country"), iri("US"));
        }
        for (int o = 0; o < 4000; o++) {
            src.add(iri("offer" + o), iri("vendor"), iri("vendor" + o % 3));
            src.add(iri("offer" + o), iri("product"), iri("product" + o % 200));
        }
        String q10 = "?o :product :product7 . ?o :vendor ?v . ?v :country :US";
        for (OrderingPolicy ordering : List.of(STATIC, OrderingPolicy.DEFAULT)) {
            CompiledPlan plan = compile(src, q10, ordering);
            assertEquals(List.of("?o :product :product7", "?o :vendor ?v", "?v :country :US"), plan.scanOrder(),
                    plan.explain());
            assertEquals(20, run(src, plan));
        }
    }

    @Test
    void connectedPatternsBeforeSmallerDisconnectedOnes() throws Exception {
        MemoryQuadSource src = people();
        // :label (50) is smaller than :livesIn (1000) but only connected through ?c, bound by :livesIn
        CompiledPlan plan = compile(src, "?c :label ?l . ?x a :Rare . ?x :livesIn ?c");
        assertEquals(List.of("?x :type :Rare", "?x :livesIn ?c", "?c :label ?l"), plan.scanOrder(), plan.explain());
        assertEquals(2, run(src, plan));
    }

    @Test
    void filterPlacedRightAfterItsVariablesAreBound() throws Exception {
        MemoryQuadSource src = people();
        CompiledPlan plan = compile(src, "?x a :Rare . ?x :knows ?y . ?y :age ?a . ?x :age ?b FILTER(?b > 3)");
        String explain = plan.explain();
        assertEquals(List.of("?x :type :Rare", "?x :age ?b", "?x :knows ?y", "?y :age ?a"), plan.scanOrder(), explain);
        List<String> lines = List.of(explain.split("\n"));
        int filter = indexOf(lines, "Filter ?b > \"3\"");
        // below the two later joins, directly above the join that binds ?b
        assertTrue(lines.get(filter).startsWith("    Filter"), explain);
        assertTrue(lines.get(filter + 1).startsWith("      PipelineJoin"), explain);
        assertTrue(lines.get(filter).contains("[ids]"), explain);
        assertEquals(10, run(src, plan));
    }

    @Test
    void optionalGroupOfPatternsJoinsByIndexLookups() throws Exception {
        CompiledPlan plan = compile(people(), "?x a :Rare OPTIONAL { ?x :knows ?y . ?y :name ?n }");
        assertTrue(plan.explain().startsWith("IndexLeftJoin"), plan.explain());
    }

    @Test
    void optionalUnionRunsPerRowAfterFewRowsAndIsHashJoinedAfterMany() throws Exception {
        MemoryQuadSource src = people();
        // two :Rare people: two lookups per branch beat reading 2,000 :name and :age statements
        CompiledPlan few = compile(src, "?x a :Rare OPTIONAL { { ?x :name ?n } UNION { ?x :age ?n } }");
        assertTrue(few.explain().startsWith("IndexLeftJoin"), few.explain());
        assertEquals(4, run(src, few));
        // 1,000 left rows x 2 lookups x 4 cost more than building 2,000 rows x 2
        CompiledPlan many = compile(src, "?x :age ?a OPTIONAL { { ?x :name ?n } UNION { ?x :livesIn ?n } }");
        assertTrue(many.explain().startsWith("HashLeftJoin"), many.explain());
        assertEquals(2000, run(src, many));
    }

    @Test
    void unknownConstantMatchesNothing() throws Exception {
        MemoryQuadSource src = people();
        CompiledPlan plan = compile(src, "?x :knows ?y . ?y :unknownPredicate ?z");
        assertEquals("?y :unknownPredicate ?z", plan.scanOrder().get(0), plan.explain());
        assertEquals(0, run(src, plan));
    }

    @Test
    void unionBranchesAndHashJoinWithTheRest() throws Exception {
        MemoryQuadSource src = people();
        CompiledPlan plan = compile(src, "{ ?x a :Rare } UNION { ?x :name \"name3\" } ?x :livesIn ?c");
        assertEquals(3, run(src, plan));
        assertTrue(plan.explain().contains("Union"), plan.explain());
    }

    /**
     * One plan-shape case: the data, the query's WHERE clause, the ordering policy, and what the
     * compiler must make of it: the first scans in evaluation order (all of them where the order of
     * the rest is decided by ties), the root operator and the row count.
     */
    record Case(String name, Supplier<MemoryQuadSource> data, String where, OrderingPolicy ordering,
            List<String> scanOrder, String root, long rows) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final OrderingPolicy STATIC = OrderingPolicy.DEFAULT.withMode(OrderingPolicy.Mode.STATIC);
    private static final OrderingPolicy RUNTIME = OrderingPolicy.DEFAULT.withMode(OrderingPolicy.Mode.RUNTIME);
    private static final String SEED_QUERY = "?x :kind :Seed . ?x :link ?y . ?y :status :Closed";
    /** Six patterns; the static plan is estimated at about 3 × seeds × links = 15,000 rows. */
    private static final String SEED_QUERY_6 = SEED_QUERY + " . ?x :name ?n . ?y :name ?m . ?x :age ?a";

    static List<Case> cases() {
        Supplier<MemoryQuadSource> people = PlanShapeTest::people;
        Supplier<MemoryQuadSource> seeds = () -> seedsAndLinks(100, 50, 3000);
        return List.of(
                new Case("smallest range count first", people, "?x :knows ?y . ?x :name ?n . ?x a :Rare", STATIC,
                        List.of("?x :type :Rare", "?x :name ?n", "?x :knows ?y"), "PipelineJoin", 10),
                new Case("lower fan-out first among connected patterns", people,
                        "?x :knows ?y . ?x :livesIn ?c . ?x a :Rare", STATIC,
                        List.of("?x :type :Rare", "?x :livesIn ?c", "?x :knows ?y"), "PipelineJoin", 10),
                new Case("connected before a smaller disconnected pattern", people,
                        "?c :label ?l . ?x a :Rare . ?x :livesIn ?c", STATIC,
                        List.of("?x :type :Rare", "?x :livesIn ?c", "?c :label ?l"), "PipelineJoin", 2),
                new Case("constant object makes a pattern selective", people,
                        "?x :livesIn ?c . ?x :name \"name42\"", STATIC,
                        List.of("?x :name \"name42\"", "?x :livesIn ?c"), "PipelineJoin", 1),
                new Case("unknown constant first: the plan is empty", people,
                        "?x :knows ?y . ?y :unknownPredicate ?z", STATIC,
                        List.of("?y :unknownPredicate ?z", "?x :knows ?y"), "PipelineJoin", 0),
                new Case("OPTIONAL right side ordered with the left side's variables bound", people,
                        "?x a :Rare OPTIONAL { ?c :label ?l . ?x :livesIn ?c }", STATIC,
                        List.of("?x :type :Rare", "?x :livesIn ?c", "?c :label ?l"), "IndexLeftJoin", 2),
                new Case("OPTIONAL with a UNION after few rows runs per row", people,
                        "?x a :Rare OPTIONAL { { ?x :name ?n } UNION { ?x :age ?n } }", STATIC,
                        List.of("?x :type :Rare", "?x :name ?n", "?x :age ?n"), "IndexLeftJoin", 4),
                new Case("OPTIONAL with a UNION after many rows is hash-joined", people,
                        "?x :age ?a OPTIONAL { { ?x :name ?n } UNION { ?x :livesIn ?n } }", STATIC,
                        List.of("?x :age ?a", "?x :name ?n", "?x :livesIn ?n"), "HashLeftJoin", 2000),
                new Case("a UNION after few rows runs per row", people,
                        "?x a :Rare . { ?x :name ?n } UNION { ?x :knows ?n }", STATIC,
                        List.of("?x :type :Rare", "?x :name ?n", "?x :knows ?n"), "CorrelatedJoin", 12),
                new Case("FILTER on an OPTIONAL variable stays above the OPTIONAL", people,
                        "?x a :Rare OPTIONAL { ?x :knows ?y . ?y a :Rare } FILTER(!bound(?y))", STATIC,
                        List.of("?x :type :Rare", "?x :knows ?y", "?y :type :Rare"), "Filter", 2),
                new Case("FILTER of a nested group is pulled up to the join that binds it", people,
                        "?x a :Rare . { ?x :age ?a FILTER(?a > 5) } ?x :knows ?y", STATIC,
                        List.of("?x :type :Rare", "?x :age ?a", "?x :knows ?y"), "PipelineJoin", 10),
                // 5,000 rows reach :Closed (3,000 matches): a table of them beats a lookup per row
                new Case("static order on anti-correlated data starts at the smaller pattern", seeds, SEED_QUERY,
                        STATIC, List.of("?x :kind :Seed", "?x :link ?y", "?y :status :Closed"), "PatternHashJoin", 0),
                // 3,000 :Closed rows to start from: the lookups run in chunks a helper thread may share
                new Case("runtime order (hint) starts where the join is empty", seeds, SEED_QUERY, RUNTIME,
                        List.of("?y :status :Closed", "?x :link ?y", "?x :kind :Seed"), "ParallelJoin", 0),
                new Case("AUTO: below the pattern threshold the order stays static", seeds, SEED_QUERY,
                        OrderingPolicy.DEFAULT, List.of("?x :kind :Seed", "?x :link ?y", "?y :status :Closed"),
                        "PatternHashJoin", 0),
                new Case("AUTO (10,000-row threshold): six patterns and many estimated rows are ordered at runtime",
                        seeds, SEED_QUERY_6, new OrderingPolicy(OrderingPolicy.Mode.AUTO, 6, 10_000, 100),
                        // nothing is left after the second join: the order of the rest is a tie
                        List.of("?y :status :Closed", "?x :link ?y"),
                        "ParallelJoin", 0),
                new Case("AUTO: six patterns but few estimated rows stay static", people,
                        "?x a :Rare . ?x :name ?n . ?x :age ?a . ?x :livesIn ?c . ?c :label ?l . ?x :knows ?y",
                        OrderingPolicy.DEFAULT, List.of("?x :type :Rare", "?x :name ?n", "?x :age ?a",
                                "?x :livesIn ?c", "?c :label ?l", "?x :knows ?y"), "PipelineJoin", 10));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void planShape(Case c) throws Exception {
        MemoryQuadSource src = c.data().get();
        CompiledPlan plan = compile(src, c.where(), c.ordering());
        List<String> order = plan.scanOrder();
        assertEquals(c.scanOrder(), order.subList(0, Math.min(order.size(), c.scanOrder().size())), plan.explain());
        assertTrue(plan.explain().startsWith(c.root()), plan.explain());
        assertEquals(c.rows(), run(src, plan), plan.explain());
    }

    @Test
    void runtimeOrderDoesLessWorkThanTheStaticOneOnAntiCorrelatedData() throws Exception {
        MemoryQuadSource src = seedsAndLinks(100, 50, 3000);
        CompiledPlan fixed = compile(src, SEED_QUERY, STATIC);
        CompiledPlan runtime = compile(src, SEED_QUERY, RUNTIME);
        run(src, fixed);
        run(src, runtime);
        // rows the middle join produced: every seed's links in the static plan, none in the runtime one
        assertEquals(5000, rowsOf(fixed, "?x :link ?y"), fixed.explain());
        assertEquals(0, rowsOf(runtime, "?x :link ?y"), runtime.explain());
    }

    @Test
    void runtimeEstimatesAreShownInExplain() throws Exception {
        MemoryQuadSource src = seedsAndLinks(100, 50, 3000);
        CompiledPlan plan = compile(src, SEED_QUERY, RUNTIME);
        // the Closed pattern is sampled (3,000 > cutoff 100): its estimate is the exact count
        assertTrue(plan.explain().contains("Scan ?y :status :Closed  (est 3000,"), plan.explain());
    }

    private static long rowsOf(CompiledPlan plan, String label) {
        long[] found = { -1 };
        collectRows(plan.root(), label, found);
        return found[0];
    }

    private static void collectRows(dev.basalt.optimizer.exec.Operator op, String label, long[] found) {
        if (op instanceof dev.basalt.optimizer.exec.PatternScan s && s.label().equals(label)) {
            found[0] = s.actualRows();
        }
        for (dev.basalt.optimizer.exec.Operator c : op.children()) {
            collectRows(c, label, found);
        }
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }
}
