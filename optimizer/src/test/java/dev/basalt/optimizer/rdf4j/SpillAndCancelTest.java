package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.exec.ExecLimits;

/**
 * Memory bounds and cancellation: with tiny row budgets the sort spills runs and DISTINCT spills
 * partitions and both give the same solutions as in memory (and as MemoryStore); a hash join or
 * MINUS past its budget spills its right side and meets it in blocks; a large sort or group stops
 * soon after its result is closed.
 */
class SpillAndCancelTest {
    private static final ExecLimits DEFAULTS = ExecLimits.defaults();

    @TempDir
    Path spill;

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY ?o ?s",
            "SELECT * WHERE { ?s ex:v ?o OPTIONAL { ?s ex:w ?w } } ORDER BY DESC(?w) STR(?o) ?s",
            "SELECT ?s ?o WHERE { ?s ex:v ?o } ORDER BY DESC(?o) LIMIT 150",
            "SELECT DISTINCT ?o WHERE { ?s ex:v ?o }",
            "SELECT DISTINCT ?s ?w WHERE { ?s ex:v ?o OPTIONAL { ?s ex:w ?w } }",
            "SELECT DISTINCT ?o WHERE { ?s ex:v ?o } ORDER BY DESC(?o)",
            "SELECT ?s (COUNT(*) AS ?n) (COUNT(DISTINCT ?o) AS ?d) WHERE { ?s ex:v ?o } GROUP BY ?s",
            "SELECT ?o (COUNT(?s) AS ?n) (GROUP_CONCAT(STR(?s)) AS ?gc) WHERE { ?s ex:v ?o } GROUP BY ?o",
            "SELECT ?s ?w (SUM(?n) AS ?t) WHERE { ?s ex:n ?n OPTIONAL { ?s ex:w ?w } } GROUP BY ?s ?w" })
    void tinyBudgetsSpillAndGiveTheSameSolutions(String query) throws Exception {
        try (NativeRunner runner = new NativeRunner(SolutionModifiersTest.mixedData(new Random(7), 600))) {
            String q = SolutionModifiersTest.PREFIX + query;
            List<String> inMemory = SolutionModifiersTest.rows(runner.basalt(q));
            runner.setLimits(new ExecLimits(16, 8, 8, 1_000_000, 1_000_000, spill, DEFAULTS.helperThreads()));
            List<String> spilled = SolutionModifiersTest.rows(runner.basalt(q));
            String plan = ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan().explain();
            boolean sorts = query.contains("ORDER BY") && !query.contains("LIMIT");
            assertTrue(!sorts || plan.contains("spilled"), plan);
            assertTrue(!query.contains("GROUP BY") || plan.matches("(?s).*Group .*spilled.*"), plan);
            if (query.contains("GROUP BY")) {
                // groups past the bound come after the ones held, partition by partition
                inMemory.sort(null);
                spilled.sort(null);
            }
            SolutionModifiersTest.assertSameList(inMemory, spilled, query);
            List<String> memoryStore = SolutionModifiersTest.rows(runner.memory(q));
            if (!query.contains("ORDER BY")) {
                memoryStore.sort(null);
                spilled.sort(null);
            }
            SolutionModifiersTest.assertSameList(memoryStore, spilled, query);
            try (Stream<Path> left = Files.list(spill)) {
                assertEquals(0, left.count(), "spill files left behind");
            }
        }
    }

    /** Past its budget a hash join's build side goes to disk and the left side meets it in blocks. */
    @ParameterizedTest
    @ValueSource(strings = {
            // (many left rows: a UNION after few would run per row, see CorrelatedOperandTest)
            "SELECT * WHERE { ?s ex:v ?x OPTIONAL { { ?s ex:k ?o } UNION { ?s ex:w ?o } } }",
            "SELECT * WHERE { ?s ex:v ?o OPTIONAL { { ?s ex:n ?n } UNION { ?s ex:k ?n } FILTER(isNumeric(?n)) } }",
            "SELECT * WHERE { ?s ex:k ?k . { ?s ex:v ?o } UNION { ?t ex:n ?o } }" })
    void hashJoinPastItsBudgetSpillsAndGivesTheSameSolutions(String query) throws Exception {
        // output block by block after a spill, so compared as sets
        spillsAtTenRowsLikeInMemoryAndMemoryStore(query, 7, "build rows)", false);
    }

    /** Past its budget MINUS's right side goes to disk; the left side's order and solutions stay. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT * WHERE { ?s ex:v ?o MINUS { ?s ex:k \"k1\" . ?s ex:n ?n } }",
            "SELECT * WHERE { ?s ex:v ?o MINUS { ?x ex:v ?o . ?x ex:k \"k2\" } }",
            "SELECT * WHERE { ?s ex:v ?o MINUS { ?x ex:n ?n } }",
            "SELECT * WHERE { ?s ex:k ?k . ?s ex:v ?o MINUS { { ?s ex:k \"k3\" } UNION { ?t ex:v ?o FILTER(isLiteral(?o)) } } }" })
    void minusPastItsBudgetSpillsAndGivesTheSameSolutions(String query) throws Exception {
        spillsAtTenRowsLikeInMemoryAndMemoryStore(query, 11, "right rows)", true);
    }

    /**
     * {@code query} over mixed data from {@code seed}, with hash tables bounded to 10 rows: its plan
     * says {@code spilled}, it gives the in-memory solutions (in their order if {@code leftOrder})
     * and MemoryStore's (more than 10), and leaves no spill file.
     */
    private void spillsAtTenRowsLikeInMemoryAndMemoryStore(String query, int seed, String spilledMarker,
            boolean leftOrder) throws Exception {
        try (NativeRunner runner = new NativeRunner(SolutionModifiersTest.mixedData(new Random(seed), 300))) {
            String q = SolutionModifiersTest.PREFIX + query;
            List<String> inMemory = SolutionModifiersTest.rows(runner.basalt(q));
            runner.setLimits(DEFAULTS.withHashJoinRows(10).withSpillDir(spill));
            List<String> spilled = SolutionModifiersTest.rows(runner.basalt(q));
            String plan = ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan().explain();
            assertTrue(plan.contains(spilledMarker), plan);
            if (!leftOrder) {
                inMemory.sort(null);
                spilled.sort(null);
            }
            SolutionModifiersTest.assertSameList(inMemory, spilled, query);
            List<String> memoryStore = SolutionModifiersTest.rows(runner.memory(q));
            memoryStore.sort(null);
            spilled.sort(null);
            assertTrue(memoryStore.size() > 10, query);
            SolutionModifiersTest.assertSameList(memoryStore, spilled, query);
            try (Stream<Path> left = Files.list(spill)) {
                assertEquals(0, left.count(), "spill files left behind");
            }
        }
    }

    /** 1000 x 1000 rows into a sort (spilling past 50,000 rows) or a group: closing the result stops it. */
    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT ?a ?x ?b ?y WHERE { ?a ex:p ?x . ?b ex:p ?y } ORDER BY ?x DESC(?y) ?a ?b",
            "SELECT ?x (COUNT(*) AS ?c) (MAX(?y) AS ?m) WHERE { ?a ex:p ?x . ?b ex:p ?y } GROUP BY ?x" })
    void closingALargeSortOrGroupStopsItPromptly(String query) throws Exception {
        ValueFactory vf = SimpleValueFactory.getInstance();
        List<Statement> data = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            data.add(vf.createStatement(vf.createIRI(SolutionModifiersTest.EX, "a" + i),
                    vf.createIRI(SolutionModifiersTest.EX, "p"), vf.createLiteral("value number " + i)));
        }
        try (NativeRunner runner = new NativeRunner(data)) {
            runner.setLimits(new ExecLimits(50_000, 50_000, 50_000, 1_000_000, 1_000_000, spill, DEFAULTS.helperThreads()));
            CloseableIteration<BindingSet> result = runner.start(SolutionModifiersTest.PREFIX + query);
            AtomicLong stoppedAt = new AtomicLong();
            Throwable[] outcome = new Throwable[1];
            CountDownLatch started = new CountDownLatch(1);
            Thread consumer = new Thread(() -> {
                started.countDown();
                try {
                    while (result.hasNext()) {
                        result.next();
                    }
                } catch (Throwable t) {
                    outcome[0] = t;
                } finally {
                    stoppedAt.set(System.nanoTime());
                }
            });
            consumer.start();
            started.await();
            Thread.sleep(300);
            long closedAt = System.nanoTime();
            result.close();
            consumer.join(10_000);
            long latencyMs = (stoppedAt.get() - closedAt) / 1_000_000;
            System.err.println("cancellation latency " + latencyMs + " ms for: " + query);
            assertTrue(stoppedAt.get() != 0, "the query did not stop within 10 s of being closed");
            assertTrue(outcome[0] == null || outcome[0] instanceof QueryEvaluationException
                    || outcome[0] instanceof java.util.NoSuchElementException, String.valueOf(outcome[0]));
            assertTrue(latencyMs < 1000, "stopped " + latencyMs + " ms after close");
        }
        try (Stream<Path> left = Files.list(spill)) {
            assertEquals(0, left.count(), "spill files left behind");
        }
    }

    /**
     * A path search holds at most basalt.exec.pathNodes ids: a chain of 2,000 nodes gives
     * MemoryStore's 2,000 and 1,999 pairs within the default, and fails naming the property at a
     * limit of 500; with both ends free each search counts on its own (60 nodes, 1,770 pairs, limit 200).
     */
    @Test
    void pathSearchesStopAtTheirNodeLimit() throws Exception {
        ValueFactory vf = SimpleValueFactory.getInstance();
        List<Statement> data = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            data.add(vf.createStatement(vf.createIRI(SolutionModifiersTest.EX, "n" + i),
                    vf.createIRI(SolutionModifiersTest.EX, "next"), vf.createIRI(SolutionModifiersTest.EX, "n" + (i + 1))));
            if (i < 59) {
                data.add(vf.createStatement(vf.createIRI(SolutionModifiersTest.EX, "m" + i),
                        vf.createIRI(SolutionModifiersTest.EX, "link"), vf.createIRI(SolutionModifiersTest.EX, "m" + (i + 1))));
            }
        }
        try (NativeRunner runner = new NativeRunner(data)) {
            for (String query : List.of("SELECT * WHERE { ex:n0 ex:next* ?o }", "SELECT * WHERE { ?s ex:next+ ex:n1999 }")) {
                String q = SolutionModifiersTest.PREFIX + query;
                List<String> expected = SolutionModifiersTest.rows(runner.memory(q));
                List<String> actual = SolutionModifiersTest.rows(runner.basalt(q));
                expected.sort(null);
                actual.sort(null);
                assertTrue(expected.size() >= 1999, query);
                SolutionModifiersTest.assertSameList(expected, actual, query);
                assertTrue(runner.stats().totalFallbacks() == 0, runner.stats().toString());
                runner.setLimits(DEFAULTS.withPathNodes(500));
                QueryEvaluationException e = assertThrows(QueryEvaluationException.class, () -> runner.basalt(q));
                assertTrue(e.getMessage().contains(ExecLimits.PATH_NODES) && e.getMessage().contains("500"),
                        e.getMessage());
                runner.setLimits(DEFAULTS);
            }
            runner.setLimits(DEFAULTS.withPathNodes(200));
            String all = SolutionModifiersTest.PREFIX + "SELECT * WHERE { ?s ex:link+ ?o }";
            List<String> expected = SolutionModifiersTest.rows(runner.memory(all));
            List<String> actual = SolutionModifiersTest.rows(runner.basalt(all));
            expected.sort(null);
            actual.sort(null);
            assertEquals(1770, expected.size());
            SolutionModifiersTest.assertSameList(expected, actual, all);
        }
    }
}
