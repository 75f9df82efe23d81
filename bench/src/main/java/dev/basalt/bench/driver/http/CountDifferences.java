package dev.basalt.bench.driver.http;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import dev.basalt.bench.driver.QueryTemplate;

/**
 * The cross-check's verdict on the result counts that several endpoints gave for the same queries: one line per
 * query with the counts and their unit, marked {@value #MISMATCH} where they differ, or {@value #EXPECTED} where they
 * differ in a query declared to differ by design (such as a DESCRIBE that servers answer with different descriptions,
 * all allowed by SPARQL). The run fails on a mismatch only; an expected difference is printed all the same.
 *
 * <p>Stateless; any thread may call it.
 */
final class CountDifferences {

	static final String MISMATCH = "MISMATCH";
	static final String EXPECTED = "DIFFERENCE EXPECTED";

	/** The lines to print, and whether any query's counts differ without being declared to. */
	record Verdict(List<String> lines, boolean failed) {
	}

	private CountDifferences() {
	}

	/**
	 * @param counts   query name, then endpoint, then its result count (summed over the parameter sets)
	 * @param unitOf   the unit of query name's counts
	 * @param expected names of the queries whose counts may differ
	 */
	static Verdict judge(Map<String, Map<String, Long>> counts, Function<String, String> unitOf, Set<String> expected) {
		List<String> lines = new ArrayList<>();
		boolean failed = false;
		for (Map.Entry<String, Map<String, Long>> e : counts.entrySet()) {
			String q = e.getKey();
			boolean agree = e.getValue().values().stream().distinct().count() <= 1;
			String mark = agree ? (expected.contains(q) ? "  (equal, though declared to differ)" : "")
					: "  " + (expected.contains(q) ? EXPECTED : MISMATCH);
			lines.add(q + " result counts (" + unitOf.apply(q) + ") " + e.getValue() + mark);
			failed |= !agree && !expected.contains(q);
		}
		return new Verdict(lines, failed);
	}

	/**
	 * The template names that {@code declared} gives, each a name ("Q9", "BI3", any case) or the number of a query
	 * of {@code templates} ("9"); anything else throws {@link IllegalArgumentException} naming it.
	 */
	static Set<String> queryNames(List<String> declared, List<QueryTemplate> templates) {
		Set<String> names = new LinkedHashSet<>();
		for (String d : declared) {
			String given = d.trim();
			QueryTemplate match = null;
			for (QueryTemplate t : templates) {
				if (t.name().equalsIgnoreCase(given) || t.name().replaceAll("\\D", "").equals(given)) {
					match = t;
				}
			}
			if (match == null) {
				throw new IllegalArgumentException("no query " + given + " in this mix's templates (expected a name such as "
						+ templates.get(0).name() + " or its number)");
			}
			names.add(match.name());
		}
		return names;
	}
}
