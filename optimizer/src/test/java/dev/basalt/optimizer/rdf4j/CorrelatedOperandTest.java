package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;

import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.basalt.optimizer.NativeRunner;

/**
 * A UNION, BIND, OPTIONAL or filtered group that follows a selective pattern runs once per row of
 * that pattern, with the row's bindings as input (CorrelatedJoin), where that gives the group's own
 * solutions restricted to the row; where a bound variable would change what the group computes
 * (a filter or BIND reading a variable the group does not bind, a BIND target, an OPTIONAL's
 * right-side variable) the group is evaluated once and hash-joined. Both kinds are compared with
 * MemoryStore; the plan must show the join the rule asks for, so a wrong rule fails either way.
 */
class CorrelatedOperandTest {
    private static final String PREFIX = SolutionModifiersTest.PREFIX;
    private static NativeRunner runner;

    @BeforeAll
    static void load() {
        runner = new NativeRunner(SolutionModifiersTest.mixedData(new Random(11), 400));
    }

    @AfterAll
    static void close() {
        runner.close();
    }

    /** Groups whose solutions given the left row's bindings are the compatible ones: run per row. */
    static Stream<String> perRow() {
        return Stream.of(
                "SELECT * WHERE { ?s ex:k \"k1\" . { ?s ex:v ?o } UNION { ?s ex:n ?o } }",
                "SELECT * WHERE { ?s ex:k \"k1\" . { ?s ex:v ?o FILTER(isLiteral(?o)) } UNION { ?s ex:n ?o } }",
                "SELECT * WHERE { ?s ex:k \"k2\" . { ?s ex:v ?o BIND(STR(?o) AS ?t) } }",
                "SELECT * WHERE { ?s ex:k \"k3\" . { ?s ex:v ?o OPTIONAL { ?s ex:w ?w } BIND(1 AS ?one) } }",
                "SELECT * WHERE { ?s ex:k \"k1\" . { ?s ex:v ?o OPTIONAL { ?s ex:n ?n FILTER(?n > 10) } BIND(2 AS ?two) } }",
                "SELECT * WHERE { ?s ex:k \"k0\" . { ?s ex:v ?o . ?o ex:k ?k } UNION { ?s ex:w ?o } UNION { ?s ex:n ?o } }",
                // ?w may be unbound in a left row (OPTIONAL): where bound it restricts the union's patterns
                "SELECT * WHERE { ?s ex:k \"k2\" OPTIONAL { ?s ex:w ?w } { ?s ex:n ?w } UNION { ?s ex:v ?w } }",
                "SELECT ?s (COUNT(*) AS ?c) WHERE { ?s ex:k \"k1\" . { ?s ex:v ?o } UNION { ?s ex:n ?o } } GROUP BY ?s",
                "SELECT DISTINCT ?o WHERE { ?s ex:k \"k3\" . { ?s ex:v ?o } UNION { ?s ex:w ?o } } ORDER BY ?o");
    }

    /** Groups a bound variable would change: evaluated once and hash-joined. */
    static Stream<String> once() {
        return Stream.of(
                // ?w is unbound inside the group: the filter fails there (an error), so nothing joins
                "SELECT * WHERE { ?s ex:k \"k1\" . ?s ex:w ?w . { ?s ex:v ?o FILTER(?w > 2) } }",
                "SELECT * WHERE { ?s ex:k \"k1\" . ?s ex:w ?w . { ?s ex:v ?o FILTER(!bound(?w)) } }",
                // the group binds ?k itself; only rows where both agree join
                "SELECT * WHERE { ?s ex:k ?k . { ?s ex:v ?o BIND(\"k1\" AS ?k) } }",
                "SELECT * WHERE { ?s ex:k \"k2\" . ?s ex:w ?w . { ?s ex:v ?o BIND(?w AS ?x) } }",
                // the OPTIONAL binds ?w from ex:n; a row whose ex:n differs from its ex:w does not join
                "SELECT * WHERE { ?s ex:k \"k1\" . ?s ex:w ?w . { ?s ex:v ?o OPTIONAL { ?s ex:n ?w } BIND(1 AS ?one) } }",
                "SELECT * WHERE { ?s ex:k ?k . ?s ex:w ?w . { ?s ex:v ?o OPTIONAL { ?s ex:n ?n } FILTER(?n != ?w) } }");
    }

    /** OPTIONAL right sides other than a plain group that run per left row. */
    static Stream<String> optionalPerRow() {
        return Stream.of(
                "SELECT * WHERE { ?s ex:k \"k1\" OPTIONAL { { ?s ex:w ?x } UNION { ?s ex:n ?x } } }",
                "SELECT * WHERE { ?s ex:k \"k2\" OPTIONAL { ?s ex:w ?x BIND(STR(?x) AS ?t) } }",
                "SELECT * WHERE { ?s ex:k \"k0\" OPTIONAL { { ?s ex:w ?x } UNION { ?s ex:n ?x } FILTER(?x > 3) } }");
    }

    /** OPTIONAL right sides a left binding would change: evaluated once. */
    static Stream<String> optionalOnce() {
        return Stream.of(
                "SELECT * WHERE { ?s ex:k \"k1\" . ?s ex:w ?w OPTIONAL { { ?s ex:v ?x FILTER(?w > 2) } UNION { ?s ex:n ?x } } }",
                "SELECT * WHERE { ?s ex:k \"k3\" . ?s ex:w ?w OPTIONAL { { ?s ex:v ?o FILTER(!bound(?w)) } UNION { ?s ex:n ?o } } }");
    }

    @ParameterizedTest
    @MethodSource("optionalPerRow")
    void optionalGroupsRunPerRowWhereTheBindingsOnlyRestrict(String query) {
        String plan = check(query, false);
        assertTrue(plan.contains("IndexLeftJoin") && !plan.contains("HashLeftJoin"), query + "\n" + plan);
    }

    @ParameterizedTest
    @MethodSource("optionalOnce")
    void optionalGroupsRunOnceWhereABindingWouldChangeThem(String query) {
        String plan = check(query, false);
        assertTrue(plan.contains("HashLeftJoin"),
                query + "\n" + plan);
        assertFalse(plan.contains("IndexLeftJoin"), query + "\n" + plan);
    }

    @ParameterizedTest
    @MethodSource("perRow")
    void groupsRunPerRowWhereTheBindingsOnlyRestrict(String query) {
        String plan = check(query, false);
        assertTrue(plan.contains("CorrelatedJoin"), query + "\n" + plan);
    }

    @ParameterizedTest
    @MethodSource("once")
    void groupsRunOnceWhereABindingWouldChangeThem(String query) {
        String plan = check(query, true);
        assertFalse(plan.contains("CorrelatedJoin"), query + "\n" + plan);
        assertTrue(plan.contains("HashJoin"), query + "\n" + plan);
    }

    /**
     * Same solutions as MemoryStore (in order where the query orders), one plan; its EXPLAIN text.
     * A group run once may have no solutions (several are empty by SPARQL's rules and would not be
     * if the left rows' bindings were passed in); one run per row must have some.
     */
    private static String check(String query, boolean mayBeEmpty) {
        List<String> expected = SolutionModifiersTest.rows(runner.memory(PREFIX + query));
        List<String> actual = SolutionModifiersTest.rows(runner.basalt(PREFIX + query));
        if (!query.contains("ORDER BY")) {
            expected = new ArrayList<>(expected);
            actual = new ArrayList<>(actual);
            expected.sort(null);
            actual.sort(null);
        }
        SolutionModifiersTest.assertSameList(expected, actual, query);
        assertTrue(mayBeEmpty || !expected.isEmpty(),
                () -> query + " has no solutions on this data; it tests nothing");
        assertInstanceOf(BasaltPlanNode.class, ((QueryRoot) runner.lastPlan()).getArg(),
                () -> query + " did not compile to one plan:\n" + runner.lastPlan());
        return ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan().explain();
    }
}
