package dev.basalt.store.lexicon;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Values put for more terms of one kind than one chunk of offsets holds (32,768) read back by id,
 * on both sides of every chunk boundary and for two kinds at once.
 */
class SpilledTermValuesTest {
    @TempDir
    Path dir;

    private static byte[] value(long id) {
        return ("value of " + id).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void valuesAcrossOffsetChunksReadBack() {
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
            for (long c : new long[]{1, 32_767, 32_768, 32_769, 65_536, 65_537, 98_304, 98_305, n}) {
                assertArrayEquals(value(iri | c), v.get(iri | c), "IRI " + c);
            }
            assertArrayEquals(value(literal | 32_769), v.get(literal | 32_769));
            assertNull(v.get(iri | (n + 1)));
            assertNull(v.get(literal | 40_001));
        } finally {
            v.close();
        }
    }
}
