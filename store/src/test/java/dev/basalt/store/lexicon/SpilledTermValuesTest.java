package dev.basalt.store.lexicon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values put for more terms of one kind than the offsets' write buffer holds (8,192) read back by
 * id, on both sides of every buffer boundary, from the offsets file and from the buffer, for two
 * kinds at once; and the offsets kept in files, not in the heap.
 */
class SpilledTermValuesTest {
    @TempDir
    Path dir;

    private static byte[] value(long id) {
        return ("value of " + id).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void valuesAcrossOffsetBuffersReadBack() throws IOException {
        long iri = (long) TermIds.KIND_IRI << TermIds.KIND_SHIFT;
        long literal = (long) TermIds.KIND_LITERAL << TermIds.KIND_SHIFT;
        int n = 3 * 32_768 + 5;
        SpilledTermValues v = new SpilledTermValues(dir);
        try {
            for (long c = 1; c <= n; c++) {
                v.put(iri | c, value(iri | c));
                if (c <= 40_000) {
                    v.put(literal | c, value(literal | c));
                }
            }
            for (long c : new long[]{1, 8_191, 8_192, 8_193, 8_194, 16_384, 16_385, 32_768, 32_769, 98_304, 98_305,
                    98_306, n - 1, n}) {
                assertArrayEquals(value(iri | c), v.get(iri | c), "IRI " + c);
            }
            assertArrayEquals(value(literal | 32_769), v.get(literal | 32_769));
            assertNull(v.get(iri | (n + 1)));
            long offsetBytes;
            try (Stream<Path> files = Files.list(dir)) {
                offsetBytes = files.filter(f -> f.toString().endsWith(".offsets")).mapToLong(f -> {
                    try {
                        return Files.size(f);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }).sum();
            }
            // all but the unflushed tail of each kind's offsets (at most 8,192 each) are on disk
            assertTrue(offsetBytes >= 8L * (n + 40_000 - 2 * 8_192), "offsets on disk: " + offsetBytes);
            assertNull(v.get(literal | 40_001));
        } finally {
            v.close();
        }
    }
}
