package dev.basalt.optimizer.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link KeyPartitions}: the sum of products of two sets, added a batch at a time, equals the join of
 * the same pairs computed with a map, for one partition, hundreds and thousands, with repeated ids, pairs of weight 0 and batches of any size,
 * with weights of 1 only (kept as ids alone) on either side, both or neither.
 */
class KeyPartitionsTest {
    @Test
    void theSumOfProductsIsTheJoinOfThePairs() {
        SplittableRandom random = new SplittableRandom(38);
        for (long expected : new long[] {10, 600_000, 20_000_000}) {
            for (int round = 0; round < 4; round++) {
                // weights of 1 only on one side, on the other, on both, or mixed with others on both
                int ones = round;
                KeyPartitions built = new KeyPartitions(expected);
                KeyPartitions probes = new KeyPartitions(expected);
                Map<Long, Long> weights = new HashMap<>();
                int keys = 1 + random.nextInt(50_000);
                long added = add(built, random, keys, 1 + random.nextInt(60_000), (ones & 1) != 0, weights);
                assertEquals(added, built.size());
                Map<Long, Long> probeWeights = new HashMap<>();
                add(probes, random, keys, 1 + random.nextInt(60_000), (ones & 2) != 0, probeWeights);
                long want = 0;
                for (Map.Entry<Long, Long> e : probeWeights.entrySet()) {
                    want += e.getValue() * weights.getOrDefault(e.getKey(), 0L);
                }
                assertEquals(want, built.sumOfProducts(probes), "expected " + expected + ", round " + round);
            }
        }
    }

    /**
     * Adds {@code pairs} random pairs in batches of random sizes, of weight 0 or 1 ({@code onlyOnes}) or 0 to
     * 3; sums the weights per id into {@code sums}; returns the pairs of weight other than 0.
     */
    private static long add(KeyPartitions set, SplittableRandom random, int keys, int pairs, boolean onlyOnes,
            Map<Long, Long> sums) {
        long[] ids = new long[Batch.CAPACITY];
        long[] weights = new long[Batch.CAPACITY];
        long added = 0;
        for (int done = 0; done < pairs;) {
            int n = Math.min(pairs - done, random.nextInt(Batch.CAPACITY + 1));
            for (int i = 0; i < n; i++) {
                ids[i] = 1 + random.nextInt(keys) * 7919L;
                weights[i] = random.nextInt(5) == 0 ? 0 : onlyOnes ? 1 : 1 + random.nextInt(3);
                if (weights[i] != 0) {
                    sums.merge(ids[i], weights[i], Long::sum);
                    added++;
                }
            }
            set.addAll(ids, weights, n);
            done += n;
        }
        return added;
    }
}
