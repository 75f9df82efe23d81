package dev.basalt.compliance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compares one suite's recorded native coverage with the expected rows: a test expected
 * {@value NativeCoverageFile#NATIVE} that fell back is a regression and fails the suite; any other
 * difference (a test became native, a new or vanished test, other reasons) is logged with the
 * command that regenerates the file.
 */
final class NativeCoverageCheck {
    private static final Logger LOG = LoggerFactory.getLogger(NativeCoverageCheck.class);

    private final String suite;
    private final Map<String, NativeCoverageFile.Row> expected;
    private final List<NativeCoverageFile.Row> actual;

    NativeCoverageCheck(String suite, Map<String, NativeCoverageFile.Row> expected,
            List<NativeCoverageFile.Row> actual) {
        this.suite = suite;
        this.expected = expected;
        this.actual = actual;
    }

    /** Fails listing the regressions, if any; logs the other differences. */
    void verify() {
        List<String> regressions = new ArrayList<>();
        List<String> changes = new ArrayList<>();
        for (NativeCoverageFile.Row r : actual) {
            NativeCoverageFile.Row e = expected.get(r.test());
            if (e == null) {
                changes.add("new test " + r.test() + ": " + r.status());
            } else if (e.status().equals(NativeCoverageFile.NATIVE) && r.status().equals(NativeCoverageFile.FALLBACK)) {
                regressions.add(r.test() + " fell back: " + r.reasons());
            } else if (!e.status().equals(r.status()) || !e.reasons().equals(r.reasons())) {
                changes.add(r.test() + ": " + e.status() + " " + e.reasons() + " -> " + r.status() + " " + r.reasons());
            }
        }
        Set<String> ran = actual.stream().map(NativeCoverageFile.Row::test).collect(Collectors.toSet());
        expected.keySet().stream().filter(t -> !ran.contains(t)).forEach(t -> changes.add("test did not run: " + t));
        String hint = "regenerate " + NativeCoverageFile.SOURCE + " (and docs/native-coverage.md) with -D"
                + NativeCoverage.WRITE_PROPERTY + "=true";
        if (expected.isEmpty()) {
            throw new AssertionError(suite + " has no rows in " + NativeCoverageFile.RESOURCE + "; " + hint);
        }
        if (!changes.isEmpty()) {
            LOG.warn("{}: native coverage differs from {} in {} tests (no regression); {}:\n  {}", suite,
                    NativeCoverageFile.RESOURCE, changes.size(), hint, String.join("\n  ", changes));
        }
        if (!regressions.isEmpty()) {
            throw new AssertionError(suite + ": " + regressions.size() + " tests listed as native in "
                    + NativeCoverageFile.RESOURCE + " fell back to RDF4J's evaluator:\n  "
                    + String.join("\n  ", regressions) + "\nIf that is intended, " + hint);
        }
    }
}
