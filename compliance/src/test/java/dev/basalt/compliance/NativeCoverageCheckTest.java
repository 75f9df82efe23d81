package dev.basalt.compliance;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

class NativeCoverageCheckTest {
    static final String SUITE = "S";

    static NativeCoverageFile.Row row(String test, String status, String reasons) {
        return new NativeCoverageFile.Row(SUITE, test, status, reasons);
    }

    @Test
    void aNativeTestThatFallsBackFailsTheSuite() {
        Map<String, NativeCoverageFile.Row> expected = Map.of("a", row("a", "native", ""));
        AssertionError e = assertThrows(AssertionError.class,
                () -> new NativeCoverageCheck(SUITE, expected, List.of(row("a", "fallback", "Order: no"))).verify());
        assertTrue(e.getMessage().contains("a fell back: Order: no"), e.getMessage());
        assertTrue(e.getMessage().contains(NativeCoverage.WRITE_PROPERTY), e.getMessage());
    }

    @Test
    void improvementsAndNewTestsDoNotFail() {
        Map<String, NativeCoverageFile.Row> expected = Map.of("a", row("a", "fallback", "Order: no"), "gone",
                row("gone", "native", ""));
        assertDoesNotThrow(() -> new NativeCoverageCheck(SUITE, expected,
                List.of(row("a", "native", ""), row("b", "fallback", "Dataset: x"))).verify());
    }

    @Test
    void aSuiteWithoutExpectedRowsFails() {
        assertThrows(AssertionError.class,
                () -> new NativeCoverageCheck(SUITE, Map.of(), List.of(row("a", "native", ""))).verify());
    }

    @Test
    void rowsRoundTripAndRepeatedNamesBecomeUnique() {
        List<NativeCoverageFile.Row> rows = NativeCoverageFile.uniqueNames(
                List.of(row("t", "native", ""), row("t", "fallback", "Order: no (x2)"), row("u\tv", "no-query", "")));
        assertEquals(List.of("t", "t #2", "u v"), rows.stream().map(NativeCoverageFile.Row::test).toList());
        String text = String.join("\n", rows.stream().map(NativeCoverageFile.Row::line).toList());
        assertEquals(rows, NativeCoverageFile.parse("# comment\n" + text));
        assertThrows(IllegalStateException.class, () -> NativeCoverageFile.parse("S\tt\tmaybe\t"));
    }
}
