package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.Batch;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.PatternScan;
/**
 * A pattern's batches read through {@link dev.basalt.optimizer.access.QuadSource.Scan#nextColumns} (a
 * source whose scans say they read into columns) hold the rows of its batches read through blocks and of
 * its row form, in the same order: random patterns of constants (known and unknown), variables (some
 * repeated within the pattern) and free positions, input rows that bind some of the variables, inside
 * {@code GRAPH ?g} or not, over quads in the default graph and two named graphs, with more matches than
 * a batch holds.
 */
class PatternScanColumnsTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final int WIDTH = 6;

    @Test
    void columnsGiveTheRowsOfBlocksAndOfTheRowForm() {
        long seed = System.nanoTime();
        Random rnd = new Random(seed);
        List<Value> terms = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            terms.add(VF.createIRI("http://example.org/t" + i));
        }
        terms.add(VF.createLiteral("x"));
        terms.add(VF.createLiteral(7));
        MemoryQuadSource plain = new MemoryQuadSource();
        MemoryQuadSource columns = new MemoryQuadSource().columnar(true);
        Resource[] graphs = {null, VF.createIRI("http://example.org/g0"), VF.createIRI("http://example.org/g1")};
        for (int i = 0; i < 4_000; i++) {
            Resource s = (Resource) terms.get(rnd.nextInt(12));
            IRI p = (IRI) terms.get(rnd.nextInt(rnd.nextBoolean() ? 2 : 12));
            Value o = terms.get(rnd.nextInt(terms.size()));
            Resource g = graphs[rnd.nextInt(3)];
            plain.add(s, p, o, g);
            columns.add(s, p, o, g);
        }
        int checked = 0;
        for (int round = 0; round < 400; round++) {
            long[] constants = new long[4];
            int[] slots = new int[4];
            boolean unknown = false;
            for (int i = 0; i < 4; i++) {
                slots[i] = -1;
                switch (rnd.nextInt(i == 1 ? 2 : 3)) {
                    case 0 -> {
                        if (rnd.nextInt(20) == 0) {
                            unknown = true;
                        } else {
                            constants[i] = plain.lookup(i == 3 ? graphs[1 + rnd.nextInt(2)] : terms.get(rnd.nextInt(i == 2 ? 14 : 12)));
                        }
                    }
                    case 1 -> slots[i] = rnd.nextInt(4);
                    default -> { }
                }
            }
            boolean named = rnd.nextInt(4) == 0;
            long[] input = new long[WIDTH];
            for (int s = 0; s < WIDTH; s++) {
                if (rnd.nextInt(4) == 0) {
                    input[s] = plain.lookup(terms.get(rnd.nextInt(terms.size())));
                }
            }
            PatternScan scan = new PatternScan(constants, slots, named, unknown, "p" + round);
            String ctx = "seed=" + seed + " round=" + round + " constants=" + Arrays.toString(constants) + " slots="
                    + Arrays.toString(slots) + " named=" + named + " input=" + Arrays.toString(input);
            List<List<Long>> rows = BatchExecutionTest.rows(scan, input, new ExecContext(plain, false).withoutStatistics());
            List<List<Long>> blocks = BatchExecutionTest.batchRows(scan, input, new ExecContext(plain, false).withoutStatistics());
            List<List<Long>> cols = BatchExecutionTest.batchRows(scan, input, new ExecContext(columns, false).withoutStatistics());
            assertEquals(rows, blocks, ctx + " blocks");
            assertEquals(rows, cols, ctx + " columns");
            checked += rows.size() > Batch.CAPACITY ? 1 : 0;
        }
        assertTrue(checked > 10, "patterns of more matches than a batch: " + checked);
    }
}
