package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.RowCursor;

/**
 * A LUBM Q9-like triangle ({@code ?x :advisor ?y . ?y :teacherOf ?z . ?x :takesCourse ?z}): the
 * pattern that closes the triangle is reached by more rows than it has matches, so it is joined
 * from a hash table built once ({@code PatternHashJoin}) instead of an index lookup per row, also
 * inside the chunks of a {@code ParallelJoin}; the answers and their order are those of the lookups.
 */
class PatternHashJoinTest {
    private static final String EX = "http://example.org/";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final long SEED = Long.getLong("basalt.seed", 19);
    private static final String TRIANGLE = "?x :advisor ?y . ?y :teacherOf ?z . ?x :takesCourse ?z";

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    /**
     * 2,000 students with one advisor each among 100 professors; each professor teaches 10 of
     * 1,000 courses; each student takes 3 random courses. {@code answers} receives the triangles.
     */
    private static MemoryQuadSource university(Set<String> answers) {
        System.out.println("PatternHashJoinTest seed " + SEED + " (-Dbasalt.seed=N to vary)");
        Random random = new Random(SEED);
        MemoryQuadSource src = new MemoryQuadSource();
        for (int c = 0; c < 1000; c++) {
            src.add(iri("prof" + c / 10), iri("teacherOf"), iri("course" + c));
        }
        for (int s = 0; s < 2000; s++) {
            int advisor = random.nextInt(100);
            src.add(iri("student" + s), iri("advisor"), iri("prof" + advisor));
            Set<Integer> taken = new HashSet<>();
            while (taken.size() < 3) {
                taken.add(random.nextInt(1000));
            }
            for (int c : taken) {
                src.add(iri("student" + s), iri("takesCourse"), iri("course" + c));
                if (c / 10 == advisor) {
                    answers.add("student" + s + " course" + c);
                }
            }
        }
        return src.concurrentReads(true);
    }

    private static List<List<Long>> rows(CompiledPlan plan, ExecContext ctx) {
        return rows(plan, ctx, new long[plan.vars().size()]);
    }

    private static List<List<Long>> rows(CompiledPlan plan, ExecContext ctx, long[] input) {
        List<List<Long>> out = new ArrayList<>();
        try (RowCursor c = plan.root().open(input, ctx)) {
            long[] r;
            while ((r = c.next()) != null) {
                out.add(Arrays.stream(r).boxed().toList());
            }
        }
        return out;
    }

    @Test
    void theClosingPatternIsHashedOnceAndAnswersAsLookupsDo() throws Exception {
        Set<String> answers = new HashSet<>();
        MemoryQuadSource src = university(answers);
        CompiledPlan plan = PlanShapeTest.compile(src, TRIANGLE, OrderingPolicy.DEFAULT);
        String explain = plan.explain();
        // Q9's plan at LUBM(75): the advisors (2,000), their students' courses (6,000 rows), then
        // teacherOf (1,000 matches) closes the triangle: a table of 1,000 beats 6,000 lookups
        assertEquals(List.of("?x :advisor ?y", "?x :takesCourse ?z", "?y :teacherOf ?z"), plan.scanOrder(), explain);
        assertTrue(explain.startsWith("ParallelJoin"), explain);
        assertTrue(explain.contains("PatternHashJoin keys"), explain);
        assertTrue(explain.contains("PipelineJoin"), explain);

        List<List<Long>> hashed = rows(plan, new ExecContext(src, false));
        assertEquals(answers.size(), hashed.size());
        // read once (EXPLAIN counts): the teacherOf scan is not opened per row
        String built = plan.explain().lines().filter(l -> l.contains("Scan ?y :teacherOf ?z")).findFirst().orElseThrow();
        assertFalse(built.contains("opened"), plan.explain());
        assertTrue(built.contains("actual 1000"), plan.explain());

        // past the build budget the join looks every row up in the index: same rows, same order
        ExecLimits tiny = ExecLimits.defaults().withHashJoinRows(10);
        assertEquals(hashed, rows(plan, new ExecContext(src, false, tiny)));
        // in chunks on two threads: the table is shared, the rows and their order stay
        for (int attempt = 0; attempt < 5; attempt++) {
            assertEquals(hashed, rows(plan, new ExecContext(src, false).withoutStatistics()));
        }
    }

    /**
     * One table per evaluation: opened again with another input row (as a group opened per row of
     * an outer operator is), the join looks the rows up instead of answering from the first
     * input's table or building one per row.
     */
    @Test
    void anotherInputRowInTheSameEvaluationLooksUp() throws Exception {
        Set<String> answers = new HashSet<>();
        MemoryQuadSource src = university(answers);
        CompiledPlan plan = PlanShapeTest.compile(src, TRIANGLE, OrderingPolicy.DEFAULT);
        assertTrue(plan.explain().contains("PatternHashJoin"), plan.explain());
        ExecContext ctx = new ExecContext(src, false).withoutStatistics();
        assertEquals(answers.size(), rows(plan, ctx).size());
        long[] input = new long[plan.vars().size()];
        input[plan.vars().find("y")] = src.lookup(iri("prof7"));
        List<List<Long>> again = rows(plan, ctx, input);
        assertEquals(rows(plan, new ExecContext(src, false).withoutStatistics(), input), again);
        long expected = answers.stream().filter(a -> {
            int course = Integer.parseInt(a.substring(a.indexOf(" course") + 7));
            return course / 10 == 7;
        }).count();
        assertEquals(expected, again.size());
        assertTrue(expected > 0, "prof7's students take some of prof7's courses with seed " + SEED);
    }

    @Test
    void aFewRowsStillLookUp() throws Exception {
        MemoryQuadSource src = university(new HashSet<>());
        CompiledPlan plan = PlanShapeTest.compile(src, TRIANGLE + " . ?x :advisor :prof7", OrderingPolicy.DEFAULT);
        assertFalse(plan.explain().contains("PatternHashJoin"), plan.explain());
    }
}
