package dev.basalt.compliance.difftest;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Disagreements where RDF4J's MemoryStore, the reference, answers against the SPARQL 1.1
 * specification, so they say nothing about Basalt; each entry names the section of the
 * specification MemoryStore breaks. A disagreement is excluded only if its two answers have the
 * shape the entry describes, not merely because the query has some feature.
 *
 * <p>Thread-safe: immutable.
 */
final class Exclusions {
    /** One known MemoryStore deviation: {@code matches(query, memory, basalt)} tells whether it explains a disagreement. */
    record Exclusion(String name, String spec, Matcher matcher) {
    }

    /** Whether an entry explains the answers of MemoryStore and Basalt to a query. */
    interface Matcher {
        boolean matches(String query, Answer memory, Answer basalt);
    }

    /** An internal exception of MemoryStore's evaluator, also when wrapped in a QueryEvaluationException. */
    private static final Pattern INTERNAL_ERROR = Pattern.compile("(^|\\.)(NullPointerException|ClassCastException|"
            + "NumberFormatException|AssertionError|IllegalStateException|ArrayIndexOutOfBoundsException|"
            + "ValueExprEvaluationException)\\b");

    static final List<Exclusion> LIST = List.of(
            new Exclusion("MIN or MAX over a group holding value-equal terms of different spellings (\"1\" and \"true\" "
                    + "as xsd:boolean, \"1\" and \"01\" as xsd:integer): either term is a correct answer",
                    "18.5.1.4 Min and 18.5.1.5 Max order by the ORDER BY ordering (15.1), which does not order "
                            + "value-equal terms, so the specification does not say which is returned",
                    (query, memory, basalt) -> memory.error() == null && basalt.error() == null
                            && (query.contains("MIN(") || query.contains("MAX(")) && memory.values().equals(basalt.values())),
            new Exclusion("MemoryStore's evaluator fails with an internal exception (NullPointerException, ClassCastException, "
                    + "NumberFormatException of an ill-typed literal, an expression error escaping as ValueExprEvaluationException ...) "
                    + "where the query has an answer",
                    "18.5 Evaluation semantics and 17.2 (an expression error makes a FILTER false or a BIND unbound, "
                            + "18.5.1 an aggregate error leaves the aggregate unbound), none fails the query",
                    (query, memory, basalt) -> memory.error() != null && basalt.error() == null
                            && INTERNAL_ERROR.matcher(memory.error()).find()));

    private Exclusions() {
    }

    /** The exclusion that explains a disagreement, or null. */
    static Exclusion excluded(String query, Answer memory, Answer basalt) {
        for (Exclusion e : LIST) {
            if (e.matcher().matches(query, memory, basalt)) {
                return e;
            }
        }
        return null;
    }

}
