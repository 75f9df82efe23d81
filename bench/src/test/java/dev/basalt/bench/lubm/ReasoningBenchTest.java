package dev.basalt.bench.lubm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The lubm-reasoning bench on one department: native owl-rl loaded through a connection and by the
 * bulk loader give the same closure and answers (the comparison with RDF4J's inferencer and with
 * Jena is {@link NativeReasoningLubmTest}).
 */
class ReasoningBenchTest {
    @TempDir
    Path dir;

    @Test
    @Tag("long")
    void setupsAgree() throws IOException {
        Path data = dir.resolve("lubm.nt");
        new LubmGenerator(1, 5, 1).write(data);
        Path ontology = dir.resolve("univ-bench.owl");
        try (InputStream in = getClass().getResourceAsStream("/lubm/univ-bench.owl")) {
            Files.copy(in, ontology);
        }
        List<String> printed = new ArrayList<>();
        List<ReasoningBench.Row> rows = new ReasoningBench(data, ontology, dir, 1, printed::add)
                .run(List.of("basalt-owl-rl", "basalt-owl-rl-bulk"));
        assertEquals(2, rows.size());
        assertArrayEquals(rows.get(0).queries().counts, rows.get(1).queries().counts, "owl-rl answer counts differ between load paths");
        assertEquals(rows.get(0).total(), rows.get(1).total());
        assertTrue(rows.get(0).total() > rows.get(0).explicit(), "nothing was inferred");
        assertTrue(printed.get(printed.size() - 1).contains("| Q14 |"));
    }
}
