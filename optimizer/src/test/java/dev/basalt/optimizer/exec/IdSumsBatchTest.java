package dev.basalt.optimizer.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link IdSums#entries}, the batch form whose home slots are read in one pass first, finds what {@link IdSums#entry}
 * finds id by id: present ids, absent ones, and ids whose home slot another id holds (long probe chains in a table
 * of few distinct low bits), also where the batch repeats ids.
 */
class IdSumsBatchTest {
    @Test
    void entriesOfABatchAreThoseFoundOneByOne() {
        SplittableRandom r = new SplittableRandom(38);
        for (int round = 0; round < 20; round++) {
            IdSums table = new IdSums(r.nextInt(1, 5000));
            int ids = r.nextInt(1, 20_000);
            // ids clustered on few values so that probes collide, or spread over the whole long range
            boolean clustered = round % 2 == 0;
            for (int i = 0; i < ids; i++) {
                long id = clustered ? 1 + r.nextInt(40_000) * 1024L : r.nextLong() | 1;
                table.add(id, 1, 0, 0);
            }
            long[] batch = new long[Batch.CAPACITY];
            int n = r.nextInt(1, Batch.CAPACITY + 1);
            for (int i = 0; i < n; i++) {
                batch[i] = clustered ? 1 + r.nextInt(40_000) * 1024L : i > 0 && r.nextInt(4) == 0 ? batch[i - 1] : r.nextLong() | 1;
            }
            int[] at = new int[n];
            table.entries(batch, n, at, new long[n]);
            for (int i = 0; i < n; i++) {
                assertEquals(table.entry(batch[i]), at[i], "round " + round + ", id " + batch[i]);
            }
            table.touch(batch, n);
        }
    }
}
