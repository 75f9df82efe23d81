package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.query.QueryInterruptedException;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.HelperThreads;
import dev.basalt.optimizer.exec.ParallelMode;
import dev.basalt.optimizer.exec.RowCursor;

/**
 * {@code ParallelJoin}: a group's lookups over a large first pattern split into chunks that a
 * helper thread shares. Whoever runs a chunk, the rows and their order are those of the
 * sequential chain; a chunk whose rows fan out past its buffer finishes on the query's thread.
 */
class ParallelJoinTest {
    private static final String EX = "http://example.org/";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    /** {@code items} things, each with a number, a class mod 7 and {@code tags} tags. */
    private static MemoryQuadSource things(int items, int tags) {
        MemoryQuadSource src = new MemoryQuadSource();
        for (int i = 0; i < items; i++) {
            IRI x = iri("item" + i);
            src.add(x, RDF.TYPE, iri("Thing"));
            src.add(x, iri("n"), VF.createLiteral(i));
            src.add(x, iri("m"), VF.createLiteral(i % 7));
            for (int t = 0; t < tags; t++) {
                src.add(x, iri("tag"), iri("tag" + (i * 31 + t) % 500));
            }
        }
        return src.concurrentReads(true);
    }

    private static List<List<Long>> rows(CompiledPlan plan, ExecContext ctx) {
        List<List<Long>> out = new ArrayList<>();
        try (RowCursor c = plan.root().open(new long[plan.vars().size()], ctx)) {
            long[] r;
            while ((r = c.next()) != null) {
                out.add(Arrays.stream(r).boxed().toList());
            }
        }
        return out;
    }

    private static ExecContext parallel(MemoryQuadSource src) {
        return new ExecContext(src, false).withoutStatistics();
    }

    private static final String CHAIN = "?x a :Thing . ?x :n ?n . ?x :m ?m . FILTER(?m != 3) ?x :tag ?t";

    @Test
    void chunksGiveTheSequentialRowsInTheirOrder() throws Exception {
        MemoryQuadSource src = things(1500, 2);
        CompiledPlan plan = PlanShapeTest.compile(src, CHAIN, OrderingPolicy.DEFAULT);
        assertTrue(plan.explain().startsWith("ParallelJoin"), plan.explain());
        List<List<Long>> sequential = rows(plan, new ExecContext(src, false));
        assertEquals(2 * java.util.stream.IntStream.range(0, 1500).filter(i -> i % 7 != 3).count(), sequential.size());
        boolean helped = false;
        for (int attempt = 0; attempt < 20 && !helped; attempt++) {
            src.scanningThreads().clear();
            assertEquals(sequential, rows(plan, parallel(src)));
            helped = src.scanningThreads().stream().anyMatch(t -> t.startsWith("basalt-helper"));
        }
        // a machine with one processor has no helper; the chunks then all run on the query's thread
        assertEquals(HelperThreads.size() > 0, helped, "helper threads took part");
    }

    @Test
    void aSourceForOneThreadIsReadByTheQueryThreadOnly() throws Exception {
        MemoryQuadSource src = things(1500, 1).concurrentReads(false);
        CompiledPlan plan = PlanShapeTest.compile(src, CHAIN, OrderingPolicy.DEFAULT);
        List<List<Long>> sequential = rows(plan, new ExecContext(src, false));
        src.scanningThreads().clear();
        assertEquals(sequential, rows(plan, parallel(src)));
        assertEquals(java.util.Set.of(Thread.currentThread().getName()), src.scanningThreads());
    }

    @Test
    void rowsFanningOutPastAChunkBufferAreAllThereInOrder() throws Exception {
        // 64 input rows x 300 tags = 19,200 rows a chunk, more than its buffer holds
        MemoryQuadSource src = things(300, 300);
        CompiledPlan plan = PlanShapeTest.compile(src, "?x a :Thing . ?x :tag ?t . ?x :n ?n", OrderingPolicy.DEFAULT);
        assertTrue(plan.explain().startsWith("ParallelJoin"), plan.explain());
        List<List<Long>> sequential = rows(plan, new ExecContext(src, false));
        assertEquals(300 * 300, sequential.size());
        assertEquals(sequential, rows(plan, parallel(src)));
    }

    @Test
    void smallInputsStaySequential() throws Exception {
        MemoryQuadSource src = things(100, 1);
        CompiledPlan plan = PlanShapeTest.compile(src, CHAIN, OrderingPolicy.DEFAULT);
        assertFalse(plan.explain().contains("ParallelJoin"), plan.explain());
    }

    /** The policy's parallel mode (a store's {@code basalt:parallel}): forced, a small input runs in chunks; off, a large one does not. */
    @Test
    void thePolicyForcesOrForbidsChunks() throws Exception {
        MemoryQuadSource small = things(100, 1);
        CompiledPlan forced = PlanShapeTest.compile(small, CHAIN,
                OrderingPolicy.DEFAULT.withExecution(true, ParallelMode.FORCE));
        assertTrue(forced.explain().startsWith("ParallelJoin"), forced.explain());
        assertEquals(rows(PlanShapeTest.compile(small, CHAIN, OrderingPolicy.DEFAULT.withExecution(true, ParallelMode.OFF)),
                new ExecContext(small, false)), rows(forced, parallel(small)));
        MemoryQuadSource large = things(1500, 2);
        CompiledPlan off = PlanShapeTest.compile(large, CHAIN, OrderingPolicy.DEFAULT.withExecution(true, ParallelMode.OFF));
        assertFalse(off.explain().contains("ParallelJoin"), off.explain());
    }

    @Test
    void closingEarlyAndCancellingStopTheHelper() throws Exception {
        MemoryQuadSource src = things(3000, 1);
        CompiledPlan plan = PlanShapeTest.compile(src, CHAIN, OrderingPolicy.DEFAULT);
        for (int i = 0; i < 20; i++) {
            ExecContext ctx = parallel(src);
            RowCursor c = plan.root().open(new long[plan.vars().size()], ctx);
            for (int k = 0; k < 100; k++) {
                c.next();
            }
            c.close();
        }
        ExecContext ctx = parallel(src);
        RowCursor c = plan.root().open(new long[plan.vars().size()], ctx);
        c.next();
        ctx.cancel();
        assertThrows(QueryInterruptedException.class, () -> {
            while (c.next() != null) {
                // a cancelled query stops at its next check, on whichever thread runs the chunk
            }
        });
        c.close();
        // the helper is free again: the next query gets the full, ordered answer
        List<List<Long>> sequential = rows(plan, new ExecContext(src, false));
        assertEquals(sequential, rows(plan, parallel(src)));
    }
}
