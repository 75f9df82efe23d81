package dev.basalt.sail.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.quads.QuadSort;

/**
 * A run file gives back exactly the sorted quads written to it, whatever their ids (the extremes
 * of unsigned order included), takes far fewer than 32 bytes a quad for ids like a load's, and a
 * truncated run is an error naming the file rather than fewer quads.
 */
class SortRunsTest {
    private static final long IRI = 0x2L << 60;
    private static final long LITERAL = 0x3L << 60;
    private static final long DEFAULT_GRAPH = 1;

    @TempDir
    Path tmp;

    private static long[] sorted(List<long[]> quads) {
        long[] q = new long[4 * quads.size()];
        for (int i = 0; i < quads.size(); i++) {
            System.arraycopy(quads.get(i), 0, q, 4 * i, 4);
        }
        QuadSort.sort(q, quads.size(), new long[q.length]);
        return q;
    }

    private static List<long[]> readBack(Path file) {
        List<long[]> out = new ArrayList<>();
        try (SortedQuads s = SortRuns.merge(List.of(file))) {
            while (s.next()) {
                out.add(s.key().clone());
            }
        }
        return out;
    }

    @Test
    void quadsComeBackExactlyAtTheExtremesOfIdOrder() {
        long[] ids = { 0, 1, 2, 127, 128, Long.MAX_VALUE, Long.MIN_VALUE, -2, -1, IRI, IRI + 1, LITERAL };
        Random rnd = new Random(3);
        List<long[]> quads = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            quads.add(new long[] { ids[rnd.nextInt(ids.length)], ids[rnd.nextInt(ids.length)],
                    rnd.nextBoolean() ? ids[rnd.nextInt(ids.length)] : rnd.nextLong(), ids[rnd.nextInt(ids.length)] });
        }
        long[] q = sorted(quads);
        int n = distinct(q, quads.size());
        Path file = tmp.resolve("run");
        long bytes = SortRuns.write(file, q, n);
        assertEquals(bytes, sizeOf(file));
        List<long[]> back = readBack(file);
        assertEquals(n, back.size());
        for (int i = 0; i < n; i++) {
            assertArrayEquals(new long[] { q[4 * i], q[4 * i + 1], q[4 * i + 2], q[4 * i + 3] }, back.get(i), "quad " + i);
        }
    }

    @Test
    void loadLikeQuadsTakeUnderTenBytesEach() {
        // subjects with about ten statements each, few predicates, objects of IRIs and literals
        Random rnd = new Random(5);
        List<long[]> quads = new ArrayList<>();
        for (int s = 0; s < 20_000; s++) {
            for (int k = 0; k < 10; k++) {
                quads.add(new long[] { IRI + 1_000_000 + s, IRI + 1 + rnd.nextInt(40),
                        (rnd.nextBoolean() ? IRI : LITERAL) + rnd.nextInt(3_000_000), DEFAULT_GRAPH });
            }
        }
        long[] q = sorted(quads);
        int n = distinct(q, quads.size());
        Path file = tmp.resolve("run");
        long bytes = SortRuns.write(file, q, n);
        assertTrue(bytes < 10L * n, bytes + " bytes for " + n + " quads");
        assertEquals(n, readBack(file).size());
    }

    @Test
    void truncatedRunIsAnErrorNamingTheFile() throws Exception {
        List<long[]> quads = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            quads.add(new long[] { IRI + i, IRI + 7, LITERAL + 3L * i, DEFAULT_GRAPH });
        }
        long[] q = sorted(quads);
        Path file = tmp.resolve("run");
        long bytes = SortRuns.write(file, q, quads.size());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.truncate(bytes - 3);
        }
        UncheckedIOException e = assertThrows(UncheckedIOException.class, () -> readBack(file));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("truncated"), e.getMessage());
        Path empty = tmp.resolve("empty");
        SortRuns.write(empty, q, 0);
        try (SortedQuads s = SortRuns.merge(List.of(empty))) {
            assertFalse(s.next());
        }
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Drops repeated quads of sorted {@code q}; returns how many remain. */
    private static int distinct(long[] q, int n) {
        int out = 0;
        for (int i = 0; i < n; i++) {
            if (out == 0 || QuadSort.compare(q, i, q, out - 1) != 0) {
                System.arraycopy(q, 4 * i, q, 4 * out, 4);
                out++;
            }
        }
        return out;
    }
}
