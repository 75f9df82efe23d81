package dev.basalt.optimizer.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.access.QuadSource;

/**
 * {@link OrderedBlocks} against a sorted array of keys: advancing and skipping forward give the
 * first key at least the target, whatever the block boundaries, duplicate keys and gaps; a skip
 * past a gap wider than a block seeks instead of reading the blocks between, and a dense walk
 * reads blocks only.
 */
class OrderedBlocksTest {

    /** Ordered matches whose key (the object) is {@code keys[i]}, the subject {@code i}; counts the matches read. */
    private static final class ArrayScan implements QuadSource.OrderedScan {
        final long[] keys;
        int at;
        long read;

        ArrayScan(long[] keys) {
            this.keys = keys;
        }

        @Override
        public boolean seek(long min, long[] quad) {
            int i = Arrays.binarySearch(keys, at, keys.length, min);
            if (i < 0) {
                i = -i - 1;
            } else {
                while (i > at && keys[i - 1] == min) {
                    i--;
                }
            }
            at = i;
            return next(quad);
        }

        @Override
        public boolean next(long[] quad) {
            if (at >= keys.length) {
                return false;
            }
            quad[0] = at;
            quad[2] = keys[at++];
            read++;
            return true;
        }

        @Override
        public void close() {
        }
    }

    private static long[] keys(Random random, int n, int maxGap, int maxRun) {
        long[] keys = new long[n];
        long k = 1;
        for (int i = 0; i < n; ) {
            k += random.nextInt(maxGap) + 1;
            int run = 1 + random.nextInt(maxRun);
            for (int r = 0; r < run && i < n; r++) {
                keys[i++] = k;
            }
        }
        return keys;
    }

    @Test
    void skipsLandOnTheFirstKeyAtLeastTheTarget() {
        Random random = new Random(38);
        for (int round = 0; round < 40; round++) {
            long[] keys = keys(random, 500 + random.nextInt(5_000), 1 + random.nextInt(40), 1 + random.nextInt(30));
            ArrayScan scan = new ArrayScan(keys);
            OrderedBlocks blocks = new OrderedBlocks(scan, 2);
            int model = 0;
            while (true) {
                assertEquals(model < keys.length, blocks.valid());
                if (model >= keys.length) {
                    break;
                }
                assertEquals(keys[model], blocks.key());
                assertEquals(model, blocks.quads[4 * blocks.at], "the match's own ids move with its key");
                if (random.nextBoolean()) {
                    blocks.advance();
                    model++;
                } else {
                    long target = keys[model] + random.nextInt(random.nextInt(10) == 0 ? 20_000 : 200);
                    while (model < keys.length && keys[model] < target) {
                        model++;
                    }
                    assertEquals(model < keys.length, blocks.skipTo(target));
                }
            }
            blocks.close();
        }
    }

    @Test
    void wideGapsAreSeekedAndDenseRunsRead() {
        // keys 0..99,999 on the left; the other side jumps by 50,000
        long[] dense = new long[100_000];
        for (int i = 0; i < dense.length; i++) {
            dense[i] = i;
        }
        ArrayScan scan = new ArrayScan(dense);
        OrderedBlocks blocks = new OrderedBlocks(scan, 2);
        assertTrue(blocks.skipTo(50_000));
        assertEquals(50_000, blocks.key());
        assertTrue(blocks.skipTo(99_999));
        assertEquals(99_999, blocks.key());
        assertTrue(blocks.seeks() >= 1 && blocks.seeks() <= 2, "seeks " + blocks.seeks());
        assertTrue(scan.read < 5 * OrderedBlocks.BLOCK, "read " + scan.read + " matches to skip 99,999");
        blocks.advance();
        assertFalse(blocks.valid());

        ArrayScan walk = new ArrayScan(dense);
        OrderedBlocks all = new OrderedBlocks(walk, 2);
        long n = 0;
        for (; all.valid(); all.advance()) {
            n++;
        }
        assertEquals(dense.length, n);
        assertEquals(0, all.seeks());
        assertEquals(dense.length / OrderedBlocks.BLOCK + 2, all.blocks(), "blocks of " + OrderedBlocks.BLOCK);
    }
}
