package dev.basalt.compliance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Renders {@code docs/native-coverage.md} from the rows of {@code native-coverage.tsv}: per suite
 * how many tests ran natively, then every reason RDF4J's evaluator took over with the tests it
 * concerns.
 */
final class NativeCoverageDoc {

    private NativeCoverageDoc() {
    }

    static String markdown(List<NativeCoverageFile.Row> rows) {
        StringBuilder md = new StringBuilder();
        md.append("# Native evaluation coverage of the SPARQL query compliance tests\n\n");
        md.append("Generated from `compliance/src/test/resources/native-coverage.tsv` by the W3C query suites run with\n")
                .append("`-D").append(NativeCoverage.WRITE_PROPERTY).append("=true`; do not edit by hand. ")
                .append("Regenerate after the native engine changes:\n\n")
                .append("    mvn -o -B -pl compliance -am test -Dtest='BasaltSPARQL1*QueryComplianceTest' ")
                .append("-Dsurefire.failIfNoSpecifiedTests=false -D").append(NativeCoverage.WRITE_PROPERTY)
                .append("=true\n\n")
                .append("A test is *native* when every query it ran was evaluated by Basalt's engine alone, *fallback* ")
                .append("when RDF4J's evaluator took over a part (the counters of `BasaltStore.getNativeQueryStats()`, ")
                .append("read before and after each test), *no-query* when it compiled no plan and counted no ")
                .append("fallback. Without the property the suites fail when a test listed as native falls back.\n\n");
        md.append("| Suite | Tests | Native | Fallback | No query |\n|---|---:|---:|---:|---:|\n");
        Map<String, List<NativeCoverageFile.Row>> bySuite = new TreeMap<>();
        rows.forEach(r -> bySuite.computeIfAbsent(r.suite(), k -> new ArrayList<>()).add(r));
        bySuite.forEach((suite, rs) -> {
            Map<String, Long> c = NativeCoverageFile.statusCounts(rs);
            md.append("| ").append(suite).append(" | ").append(rs.size()).append(" | ")
                    .append(c.getOrDefault(NativeCoverageFile.NATIVE, 0L)).append(" | ")
                    .append(c.getOrDefault(NativeCoverageFile.FALLBACK, 0L)).append(" | ")
                    .append(c.getOrDefault(NativeCoverageFile.NO_QUERY, 0L)).append(" |\n");
        });
        md.append("\n## Fallbacks by reason\n\n");
        md.append("Each reason as the store counted it (`node type: reason`, or `run time: reason` when a compiled ")
                .append("plan handed over while running), with the tests it occurred in.\n\n");
        // reason, then suite, then the tests of that suite with the reason
        Map<String, Map<String, TreeSet<String>>> byReason = new TreeMap<>();
        for (NativeCoverageFile.Row r : rows) {
            if (r.status().equals(NativeCoverageFile.FALLBACK)) {
                for (String reason : r.reasons().split("; ")) {
                    String bare = reason.replaceAll(" \\(x\\d+\\)$", "");
                    byReason.computeIfAbsent(bare, k -> new TreeMap<>())
                            .computeIfAbsent(r.suite(), k -> new TreeSet<>()).add(r.test());
                }
            }
        }
        if (byReason.isEmpty()) {
            md.append("None: every test ran natively.\n");
        }
        byReason.forEach((reason, suites) -> {
            int count = suites.values().stream().mapToInt(TreeSet::size).sum();
            md.append("### ").append(reason).append(" (").append(count).append(count == 1 ? " test" : " tests")
                    .append(")\n\n");
            suites.forEach((suite, tests) -> {
                if (tests.size() == bySuite.get(suite).size()) {
                    md.append("- all ").append(tests.size()).append(" tests of ").append(suite).append('\n');
                } else {
                    tests.forEach(t -> md.append("- ").append(suite).append(": ").append(t).append('\n'));
                }
            });
            md.append('\n');
        });
        return md.toString();
    }
}
