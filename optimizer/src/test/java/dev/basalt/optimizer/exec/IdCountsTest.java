package dev.basalt.optimizer.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** {@link IdCounts#getAll}: a batch of lookups gives what one lookup per id gives, held ids, absent ones and probe chains alike. */
class IdCountsTest {
    @Test
    void aBatchOfLookupsGivesWhatEachLookupGives() {
        SplittableRandom random = new SplittableRandom(13);
        for (int keys : new int[] {10, 5_000, 300_000}) {
            IdCounts counts = new IdCounts(random.nextInt(2) == 0 ? keys : 10);
            for (int i = 0; i < 2 * keys; i++) {
                counts.add(1 + random.nextInt(2 * keys), 1 + random.nextInt(9));
            }
            long[] ids = new long[Batch.CAPACITY];
            long[] out = new long[Batch.CAPACITY];
            for (int round = 0; round < 40; round++) {
                int n = random.nextInt(ids.length + 1);
                for (int i = 0; i < n; i++) {
                    ids[i] = random.nextInt(4) == 0 ? random.nextLong(1, Long.MAX_VALUE) : 1 + random.nextInt(3 * keys);
                }
                counts.getAll(ids, n, out);
                for (int i = 0; i < n; i++) {
                    assertEquals(counts.get(ids[i]), out[i], "id " + ids[i] + " of " + keys + " keys");
                }
            }
        }
    }
}
