package dev.basalt.bench.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import dev.basalt.bench.bsbm.BsbmBiQueries;
import dev.basalt.bench.bsbm.BsbmQueries;

/** The cross-check's verdict: a difference fails the run unless its query was declared to differ. */
class CountDifferencesTest {

	private static Map<String, Map<String, Long>> counts(long q8b, long q9b) {
		Map<String, Map<String, Long>> c = new LinkedHashMap<>();
		c.put("Q8", new LinkedHashMap<>(Map.of("a", 5L)));
		c.get("Q8").put("b", q8b);
		c.put("Q9", new LinkedHashMap<>(Map.of("a", 12L)));
		c.get("Q9").put("b", q9b);
		return c;
	}

	private static CountDifferences.Verdict judge(Map<String, Map<String, Long>> counts, Set<String> expected) {
		return CountDifferences.judge(counts, q -> q.equals("Q9") ? "statements" : "solutions", expected);
	}

	@Test
	void aDifferenceInADeclaredQueryIsPrintedButPasses() {
		CountDifferences.Verdict v = judge(counts(5, 50), Set.of("Q9"));
		assertFalse(v.failed());
		assertEquals(List.of("Q8 result counts (solutions) {a=5, b=5}",
				"Q9 result counts (statements) {a=12, b=50}  DIFFERENCE EXPECTED"), v.lines());
	}

	@Test
	void aDifferenceInAnyOtherQueryFails() {
		CountDifferences.Verdict v = judge(counts(6, 50), Set.of("Q9"));
		assertTrue(v.failed());
		assertEquals("Q8 result counts (solutions) {a=5, b=6}  MISMATCH", v.lines().get(0));
		assertTrue(judge(counts(5, 50), Set.of()).failed(), "nothing declared: Q9's difference fails");
		assertTrue(judge(counts(6, 12), Set.of("Q9")).failed());
	}

	@Test
	void agreementPassesAndADeclaredDifferenceThatIsAbsentIsNoted() {
		CountDifferences.Verdict v = judge(counts(5, 12), Set.of("Q9"));
		assertFalse(v.failed());
		assertTrue(v.lines().get(1).endsWith("(equal, though declared to differ)"), v.lines().get(1));
		assertFalse(judge(counts(5, 12), Set.of()).failed());
	}

	@Test
	void queriesAreNamedByNameOrNumber() {
		assertEquals(Set.of("Q9", "Q12"), CountDifferences.queryNames(List.of("9", "q12"), BsbmQueries.ALL));
		assertEquals(Set.of("BI3"), CountDifferences.queryNames(List.of("BI3"), BsbmBiQueries.ALL));
		assertThrows(IllegalArgumentException.class, () -> CountDifferences.queryNames(List.of("13"), BsbmQueries.ALL));
		assertThrows(IllegalArgumentException.class, () -> CountDifferences.queryNames(List.of("Q9x"), BsbmQueries.ALL));
	}
}
