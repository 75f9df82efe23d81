package dev.basalt.sail.inference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The queue of a round's pivots gives back every triple in order, across blocks spilled to its file. */
class TripleQueueTest {
    @Test
    void givesBackEveryTripleInOrderAcrossSpilledBlocks() {
        Random rnd = new Random(37);
        for (int n : new int[] { 0, 1, 6, 7, 100, 40_000 }) {
            List<long[]> added = new ArrayList<>();
            try (TripleQueue q = new TripleQueue(7, null)) {
                for (int i = 0; i < n; i++) {
                    long[] t = { rnd.nextLong(), rnd.nextLong(), rnd.nextLong() };
                    added.add(t);
                    q.add(t[0], t[1], t[2]);
                }
                assertEquals(n, q.size());
                assertEquals(n / 7 * 7, q.spilled(), "full blocks go to the file");
                List<long[]> read = new ArrayList<>();
                q.drainTo(batch -> {
                    assertTrue(batch.size() <= 7, "a batch is at most a block");
                    for (int i = 0; i < batch.size(); i++) {
                        read.add(new long[] { batch.s(i), batch.p(i), batch.o(i) });
                    }
                });
                assertEquals(added.size(), read.size());
                for (int i = 0; i < n; i++) {
                    assertEquals(List.of(added.get(i)[0], added.get(i)[1], added.get(i)[2]),
                            List.of(read.get(i)[0], read.get(i)[1], read.get(i)[2]), "triple " + i + " of " + n);
                }
                assertTrue(q.isEmpty(), "drained");
            }
        }
    }

    @Test
    void spillsIntoItsScratchDirectoryAndDeletesTheFileOnClose(@TempDir Path scratch) throws IOException {
        try (TripleQueue q = new TripleQueue(4, scratch)) {
            for (int i = 0; i < 10; i++) {
                q.add(i, i + 1, i + 2);
            }
            try (var files = Files.list(scratch)) {
                assertEquals(1, files.count(), "the full blocks' file is in the scratch directory");
            }
        }
        try (var files = Files.list(scratch)) {
            assertEquals(0, files.count(), "closed: the file is gone");
        }
    }
}
