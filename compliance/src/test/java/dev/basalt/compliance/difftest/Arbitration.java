package dev.basalt.compliance.difftest;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Weighs a disagreement between Basalt and MemoryStore with two more answers to the same query: Jena
 * ARQ's ({@link JenaReference}, an independent engine) and MemoryStore's with RDF4J's optimizer
 * pipeline switched off (RDF4J's evaluator on the algebra as parsed). A disagreement is explained only
 * by a {@link Category}: a known way MemoryStore departs from the SPARQL 1.1 specification, reduced
 * by hand to an example and named with the section it breaks (docs/differential-testing.md). Agreement
 * of two engines is evidence a category requires, never the definition of the right answer: Jena has
 * deviations of its own (it fails a whole query on some function errors, and evaluates a zero-length
 * path with the left side's bindings substituted, as MemoryStore does).
 *
 * <p>Thread-safe: stateless.
 */
final class Arbitration {
    /** One explanation: {@code matches} tells whether it explains a disagreement. */
    record Category(String id, String name, String spec, Matcher matcher) {
    }

    /** What a category looks at: the query, the dataset's nodes and the four answers. */
    interface Matcher {
        boolean matches(String query, Set<String> nodes, Answers a);
    }

    /** The answers to one query: MemoryStore's, Basalt's, Jena's and unoptimized MemoryStore's. */
    record Answers(Answer memory, Answer basalt, Answer jena, Answer unoptimized) {
    }

    /** A {@code ?} or {@code *} path: a zero-length path in RDF4J's algebra. */
    private static final Pattern ZERO_LENGTH = Pattern.compile("[>0-9)][?*] ");

    /** A {@code ?}, {@code *} or {@code +} path. */
    private static final Pattern PATH = Pattern.compile("[>0-9)][?*+] ");

    /** A VALUES of one variable and one row. */
    private static final Pattern ONE_ROW_VALUES = Pattern.compile("VALUES \\?\\w+ \\{ (\"[^\"]*\"\\S*|[^\\s\"]+) \\}");

    static final List<Category> LIST = List.of(
            new Category("optimizer", "MemoryStore's optimizer pipeline changes the answer of the query as parsed",
                    "18.2 (translation to the algebra) and 18.5 (its evaluation) give each query one answer, which an "
                            + "optimizer's rewrite must keep; RDF4J's evaluator without the pipeline and Jena both give "
                            + "Basalt's. Reduced: M2, M3, M5 (18.5 LeftJoin, Minus; 18.2.2 group order; 18.2.1 scope)",
                    (query, nodes, a) -> same(a.unoptimized(), a.basalt()) && same(a.jena(), a.basalt())),
            new Category("M1", "VALUES in a UNION branch, MemoryStore answers no row",
                    "18.5 Union: Union(Ω1, Ω2) holds every solution of Ω1, so a second branch cannot remove the first "
                            + "one's rows; Jena gives Basalt's. Reduced: M1",
                    (query, nodes, a) -> query.contains("UNION") && query.contains("VALUES") && rows(a.memory()) == 0
                            && rows(a.basalt()) > 0 && same(a.jena(), a.basalt())),
            new Category("M4", "zero-length path over a term that is no node of the graph",
                    "18.4 ZeroLengthPath: with a variable at both ends the path ranges over the nodes of the active "
                            + "graph, and a join (18.3) does not substitute the left side's bindings into it; "
                            + "MemoryStore (and Jena) substitute, adding rows whose path ends at a predicate or a graph "
                            + "name. Reduced: M4",
                    (query, nodes, a) -> ZERO_LENGTH.matcher(query).find() && extraRowsHoldNonNodes(a, nodes)),
            new Category("M7", "FILTER applied to a VALUES row that leaves its variable UNDEF, before the join that binds it",
                    "18.2.2.6: a group's filters apply to the solutions of the whole group; 10.2.2 and 18.5 Join: a "
                            + "VALUES row with UNDEF leaves the variable unbound and joins with any value of it. "
                            + "MemoryStore's filter placement (and Jena's) counts a VALUES variable as bound in every row "
                            + "and filters there; MemoryStore without its optimizer pipeline gives Basalt's answer. Reduced: M7",
                    (query, nodes, a) -> query.contains("UNDEF") && query.contains("FILTER")
                            && same(a.unoptimized(), a.basalt()) && rows(a.memory()) >= 0
                            && rows(a.memory()) < rows(a.basalt())),
            new Category("M8", "MINUS after a BIND that left its variable unbound, MemoryStore removes more rows",
                    "18.6 Extend: a BIND whose expression fails (or copies an unbound variable) leaves its variable out "
                            + "of the solution's domain; 18.5 Minus removes a solution only for a right-side solution "
                            + "sharing a bound variable with it. MemoryStore, with or without its optimizer pipeline, "
                            + "counts the variable as shared; Jena gives Basalt's answer. Reduced: M8",
                    (query, nodes, a) -> query.contains("MINUS") && query.contains("BIND(") && same(a.jena(), a.basalt())
                            && rows(a.memory()) >= 0 && rows(a.memory()) < rows(a.basalt())),
            new Category("M11", "a join whose right side is a subquery, a braced group or a UNION, MemoryStore's evaluator "
                    + "answers fewer rows",
                    "18.5 Join: two solutions are compatible where no variable bound in both has different values, so a "
                            + "variable one side leaves unbound (an OPTIONAL on the left, an UNDEF or a UNION branch on the "
                            + "right) joins with any value. RDF4J evaluates a join whose right side is a new variable scope "
                            + "as a hash join keyed on the variables either side may bind, and a row that leaves a key "
                            + "unbound joins with nothing; MemoryStore without its optimizer pipeline answers as MemoryStore, "
                            + "Jena as Basalt. Reduced: M11",
                    (query, nodes, a) -> (query.contains("{SELECT") || query.contains("UNION")) && same(a.jena(), a.basalt())
                            && same(a.unoptimized(), a.memory()) && rows(a.memory()) >= 0
                            && rows(a.memory()) < rows(a.basalt())),
            new Category("M12", "a one-row VALUES inside a MINUS, an EXISTS or a subquery, RDF4J's optimizer changes the answer",
                    "18.5 Minus, 18.6 exists, 18.2.1: a VALUES binds its variable within its own group only. RDF4J's "
                            + "one-row VALUES inlining replaces the variable by the term in every pattern its walk meets "
                            + "afterwards, also outside that group; MemoryStore without its optimizer pipeline answers as "
                            + "Basalt. Reduced: M12",
                    (query, nodes, a) -> ONE_ROW_VALUES.matcher(query).find()
                            && (query.contains("MINUS") || query.contains("EXISTS") || query.contains("{SELECT"))
                            && same(a.unoptimized(), a.basalt())),
            new Category("M13", "a property path inside GRAPH with a graph variable",
                    "18.5 Graph: the union over the named graphs of the pattern evaluated within each; 18.4: a path "
                            + "follows the triples of the active graph and its zero-length part relates that graph's nodes "
                            + "to themselves. RDF4J's path iterations join steps of different graphs, bind one graph per "
                            + "pair of ends, or leave the graph variable unbound; Jena answers as Basalt. Reduced: M13",
                    (query, nodes, a) -> query.contains("GRAPH ?") && PATH.matcher(query).find() && same(a.jena(), a.basalt())));

    private Arbitration() {
    }

    /** The category that explains a disagreement, or null. */
    static Category explain(String query, Set<String> nodes, Answers answers) {
        for (Category c : LIST) {
            if (c.matcher().matches(query, nodes, answers)) {
                return c;
            }
        }
        return null;
    }

    /** Whether two answers are the same: both failed, or the same rows (terms, or values where spellings differ). */
    static boolean same(Answer a, Answer b) {
        if (a.skip() || b.skip()) {
            return false;
        }
        if (a.error() != null || b.error() != null) {
            return a.error() != null && b.error() != null;
        }
        return a.rows().equals(b.rows()) || a.values().equals(b.values());
    }

    private static int rows(Answer a) {
        return a.rows() == null ? -1 : a.rows().size();
    }

    /**
     * Whether Basalt's rows are some of MemoryStore's and each row only MemoryStore has binds a term
     * that is not a node of the dataset (a subject or object of some statement).
     */
    private static boolean extraRowsHoldNonNodes(Answers a, Set<String> nodes) {
        if (a.memory().rows() == null || a.basalt().rows() == null || a.memory().rows().size() <= a.basalt().rows().size()) {
            return false;
        }
        List<String> extra = new ArrayList<>(a.memory().rows());
        for (String row : a.basalt().rows()) {
            if (!extra.remove(row)) {
                return false;
            }
        }
        for (String row : extra) {
            if (Answer.terms(row).stream().allMatch(nodes::contains)) {
                return false;
            }
        }
        return true;
    }

    /** How the third answer sides, for the report. */
    static String verdict(Answer memory, Answer basalt, Answer third) {
        if (third.skip()) {
            return "skipped";
        }
        boolean withBasalt = same(third, basalt);
        boolean withMemory = same(third, memory);
        String rows = third.error() != null ? third.error() : third.rows().size() + " rows";
        if (withBasalt && !withMemory) {
            return "as Basalt (" + rows + ")";
        }
        if (withMemory && !withBasalt) {
            return "as MemoryStore (" + rows + ")";
        }
        return "neither (" + rows + ")";
    }
}
