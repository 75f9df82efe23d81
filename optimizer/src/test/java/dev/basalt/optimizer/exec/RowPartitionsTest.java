package dev.basalt.optimizer.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RowPartitionsTest {
    @TempDir
    Path spillDir;

    private ExecLimits limits() {
        return ExecLimits.defaults().withSpillDir(spillDir);
    }

    /** Every row added, as sorted strings, read back partition by partition, group by group. */
    private static List<String> readBack(RowPartitions set, int width) {
        List<String> out = new ArrayList<>();
        for (int g = 0; g < set.groups(); g++) {
            set.restore(g);
            for (int p = set.firstOf(g); p < set.firstOf(g + 1); p++) {
                long[] rows = set.rows(p);
                for (int i = 0; i < set.used(p); i += width) {
                    out.add(Arrays.toString(Arrays.copyOfRange(rows, i, i + width)));
                }
            }
            set.release(g);
        }
        out.sort(null);
        return out;
    }

    private List<String> fill(RowPartitions set, int rows, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<String> added = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            long id = random.nextLong(1, 1L << 40);
            set.add(id, i, -i, 7);
            added.add(Arrays.toString(new long[] {id, i, -i, 7}));
        }
        added.sort(null);
        return added;
    }

    private long spillFiles() throws IOException {
        try (Stream<Path> files = Files.list(spillDir)) {
            return files.count();
        }
    }

    @Test
    void rowsPastTheMemoryGoToDiskAndComeBackInTheirPartitions() throws IOException {
        // 1M expected rows: 128 partitions in 64 groups; memory for about 20,000 rows of 4 longs
        try (RowPartitions set = new RowPartitions(1_000_000, 4, 80_000, limits())) {
            assertEquals(64, set.groups());
            List<String> added = fill(set, 200_000, 42);
            assertTrue(set.spilledRows() > 150_000, "spilled " + set.spilledRows());
            assertTrue(spillFiles() > 32 && spillFiles() <= 64, spillFiles() + " files");
            assertEquals(200_000, set.size());
            List<String> back = readBack(set, 4);
            assertEquals(added, back);
            assertEquals(0, spillFiles(), "a group's file is deleted once it is read back");
        }
    }

    @Test
    void everyRowOfAPartitionHasThatPartitionsIdsOnBothSets() {
        try (RowPartitions small = new RowPartitions(1_000_000, 4, 80_000, limits());
                RowPartitions large = new RowPartitions(1_000_000, 4, Long.MAX_VALUE, limits())) {
            fill(small, 50_000, 7);
            fill(large, 50_000, 7);
            assertEquals(0, large.spilledRows());
            assertTrue(small.spilledRows() > 0);
            for (int g = 0; g < small.groups(); g++) {
                small.restore(g);
                large.restore(g);
                for (int p = small.firstOf(g); p < small.firstOf(g + 1); p++) {
                    long[] a = Arrays.copyOf(small.rows(p), small.used(p));
                    long[] b = Arrays.copyOf(large.rows(p), large.used(p));
                    Arrays.sort(a);
                    Arrays.sort(b);
                    assertArrayEquals(b, a, "partition " + p);
                }
            }
        }
    }

    @Test
    void onlyTheGroupsPastTheMemoryGoToDisk() throws IOException {
        // memory for about half the rows: the groups that fit stay, the others are written once
        try (RowPartitions set = new RowPartitions(100_000, 4, 200_000, limits())) {
            List<String> added = fill(set, 100_000, 11);
            assertTrue(set.spilledRows() > 20_000 && set.spilledRows() < 80_000, "spilled " + set.spilledRows());
            long files = spillFiles();
            assertTrue(files > 0 && files < set.groups(), files + " files of " + set.groups() + " groups");
            assertEquals(added, readBack(set, 4));
        }
    }

    @Test
    void closingBeforeReadingBackDeletesTheFiles() throws IOException {
        RowPartitions set = new RowPartitions(1_000_000, 4, 80_000, limits());
        fill(set, 100_000, 3);
        assertTrue(spillFiles() > 0);
        set.close();
        assertEquals(0, spillFiles());
    }

    @Test
    void rowsOfTwoAndThreeLongsComeBackAlsoFromDisk() {
        for (int width : new int[] {2, 3}) {
            try (RowPartitions set = new RowPartitions(1_000_000, width, 40_000, limits())) {
                SplittableRandom random = new SplittableRandom(width);
                List<String> added = new ArrayList<>();
                for (int i = 0; i < 60_000; i++) {
                    long id = random.nextLong(1, 1L << 40);
                    long[] row = width == 2 ? new long[] {id, i} : new long[] {id, i, -i};
                    if (width == 2) {
                        set.add(id, i);
                    } else {
                        set.add(id, i, -i);
                    }
                    added.add(Arrays.toString(row));
                }
                added.sort(null);
                assertTrue(set.spilledRows() > 0, "width " + width);
                assertEquals(added, readBack(set, width), "width " + width);
            }
        }
    }

    @Test
    void batchesOfOneTwoAndThreeLongRowsComeBackAlsoFromDisk() {
        for (int width = 1; width <= 3; width++) {
            try (RowPartitions set = new RowPartitions(1_000_000, width, 20_000 * width, limits())) {
                SplittableRandom random = new SplittableRandom(width);
                List<String> added = new ArrayList<>();
                for (int batch = 0; batch < 60; batch++) {
                    int n = random.nextInt(1, 1025);
                    long[] ids = new long[n];
                    long[] b = new long[n];
                    long[] c = new long[n];
                    for (int i = 0; i < n; i++) {
                        ids[i] = random.nextLong(1, 1L << 40);
                        b[i] = random.nextLong();
                        c[i] = -i;
                        long[] row = width == 1 ? new long[] {ids[i]}
                                : width == 2 ? new long[] {ids[i], b[i]} : new long[] {ids[i], b[i], c[i]};
                        added.add(Arrays.toString(row));
                    }
                    if (width == 3) {
                        set.addAll(ids, b, c, n);
                    } else if (width == 2 && batch % 2 == 1) {
                        set.addAll(ids, b, null, n);
                    } else {
                        set.addAll(ids, width == 2 ? b : null, null, n);
                    }
                }
                added.sort(null);
                assertEquals(added.size(), set.size(), "width " + width);
                assertTrue(set.spilledRows() > 0, "width " + width);
                assertEquals(added, readBack(set, width), "width " + width);
            }
        }
    }

    @Test
    void aSetWithinItsMemoryWritesNoFile() throws IOException {
        try (RowPartitions set = new RowPartitions(100_000, 4, 4_000_000, limits())) {
            List<String> added = fill(set, 100_000, 5);
            assertEquals(0, set.spilledRows());
            assertEquals(0, spillFiles());
            assertEquals(added, readBack(set, 4));
        }
    }
}
