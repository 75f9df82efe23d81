package dev.basalt.compliance.difftest;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import org.eclipse.rdf4j.model.Literal;

/**
 * Random SPARQL 1.1 SELECT queries over {@link RandomData}'s vocabulary, from the grammar: basic
 * graph patterns (each new pattern joined to the group's variables, so results stay small), OPTIONAL
 * (nested), UNION, MINUS, FILTER, BIND, VALUES, GRAPH, subqueries (plain, DISTINCT and grouped),
 * property paths, EXISTS and NOT EXISTS; FROM and FROM NAMED; DISTINCT, GROUP BY with aggregates and
 * HAVING, ORDER BY with LIMIT and OFFSET. Expressions ({@link RandomExpressions}) cover comparison,
 * arithmetic and logical operators and the string, numeric, date, hash, cast and type-test functions.
 *
 * <p>Nothing whose result the SPARQL specification leaves open is generated: no LIMIT without an
 * ORDER BY that fixes the order of the rows it keeps (an ordered query projects exactly its sort
 * keys, which are simple literals or integers, so rows that tie are equal), no SAMPLE or
 * GROUP_CONCAT, no REDUCED, no RAND, NOW, UUID, STRUUID or BNODE.
 *
 * <p>Not thread-safe: one generator per thread.
 */
final class RandomQueries {
    static final String PROLOGUE = "PREFIX ex: <" + RandomData.NS + ">\nPREFIX xsd: <http://www.w3.org/2001/XMLSchema#>\n";
    private static final String[] VARS = { "?a", "?b", "?c", "?d", "?e" };
    private static final String[] PATHS = { "ex:p0/ex:p1", "ex:p0|ex:p2", "^ex:p1", "ex:p0*", "ex:p1+", "ex:p2?",
        "!ex:p0", "!(ex:p0|^ex:p1)", "(ex:p0/ex:p1)*", "ex:p0/^ex:p0", "(ex:p0|ex:p1)+", "ex:p3/ex:p0?" };

    /** A generated query; {@code ordered} if its rows must be compared in order. */
    record Query(String text, boolean ordered) {
    }

    private final Random random;
    private final RandomData constants;
    private final RandomExpressions expressions;
    /** Every variable the query mentions so far: expressions may use any of them, bound or not. */
    private final List<String> mentioned = new ArrayList<>();
    private int fresh;

    RandomQueries(Random random) {
        this.random = random;
        this.constants = new RandomData(random);
        this.expressions = new RandomExpressions(random, this);
    }

    Query next() {
        mentioned.clear();
        fresh = 0;
        StringBuilder q = new StringBuilder(PROLOGUE);
        String dataset = datasetClause();
        Set<String> bound = new LinkedHashSet<>();
        String where = group(random.nextInt(4) == 0 ? 2 : 1, bound);
        List<String> vars = new ArrayList<>(bound);
        int form = random.nextInt(10);
        if (form < 5 || vars.isEmpty()) {
            String projection = vars.isEmpty() || random.nextInt(3) == 0 ? "*" : String.join(" ", some(vars));
            q.append("SELECT ").append(random.nextInt(4) == 0 ? "DISTINCT " : "").append(projection).append(dataset)
                    .append(" WHERE {").append(where).append("}");
            return new Query(q.toString(), false);
        }
        if (form < 8) {
            q.append(aggregateQuery(vars, dataset, where));
            return new Query(q.toString(), false);
        }
        String k1 = freshVar();
        String k2 = freshVar();
        q.append("SELECT ").append(k1).append(' ').append(k2).append(dataset).append(" WHERE {").append(where)
                .append(" BIND(").append(sortKey(pick(vars))).append(" AS ").append(k1).append(")")
                .append(" BIND(").append(sortKey(pick(vars))).append(" AS ").append(k2).append(")} ORDER BY ");
        List<String> keys = random.nextBoolean() ? List.of(k1, k2) : List.of(k2, k1);
        for (String k : keys) {
            q.append(random.nextBoolean() ? "DESC(" + k + ") " : k + " ");
        }
        q.append("LIMIT ").append(1 + random.nextInt(10));
        if (random.nextBoolean()) {
            q.append(" OFFSET ").append(random.nextInt(6));
        }
        return new Query(q.toString(), true);
    }

    private String sortKey(String var) {
        switch (random.nextInt(3)) {
        case 0:
            return "STR(" + var + ")";
        case 1:
            return "STRLEN(STR(" + var + "))";
        default:
            return "LCASE(STR(" + var + "))";
        }
    }

    private String aggregateQuery(List<String> vars, String dataset, String where) {
        List<String> keys = random.nextInt(4) == 0 ? List.of() : some(vars);
        StringBuilder q = new StringBuilder("SELECT ");
        for (String k : keys) {
            q.append(k).append(' ');
        }
        int aggregates = 1 + random.nextInt(3);
        for (int i = 0; i < aggregates; i++) {
            q.append('(').append(aggregate(vars)).append(" AS ").append(freshVar()).append(") ");
        }
        q.append(dataset).append(" WHERE {").append(where).append("}");
        if (!keys.isEmpty()) {
            q.append(" GROUP BY ").append(String.join(" ", keys));
        }
        if (random.nextInt(4) == 0) {
            q.append(" HAVING (").append(aggregate(vars)).append(pick(" > ", " < ", " = ", " >= "))
                    .append(random.nextInt(4)).append(')');
        }
        return q.toString();
    }

    private String aggregate(List<String> vars) {
        String v = pick(vars);
        switch (random.nextInt(9)) {
        case 0:
            return "COUNT(*)";
        case 1:
            return "COUNT(" + v + ")";
        case 2:
            return "COUNT(DISTINCT " + v + ")";
        case 3:
            return "SUM(" + v + ")";
        case 4:
            return "AVG(" + v + ")";
        case 5:
            return pick("MIN", "MAX") + "(STR(" + v + "))";
        case 6:
            return pick("MIN", "MAX") + "(" + v + ")";
        case 7:
            return "SUM(DISTINCT " + v + ")";
        default:
            return pick("MIN", "MAX", "SUM", "AVG") + "(" + expressions.numeric(1) + ")";
        }
    }

    private String datasetClause() {
        if (random.nextInt(7) != 0) {
            return "";
        }
        StringBuilder d = new StringBuilder();
        for (int i = 0; i < 1 + random.nextInt(2); i++) {
            d.append(random.nextBoolean() ? " FROM " : " FROM NAMED ").append("ex:g").append(random.nextInt(RandomData.GRAPHS));
        }
        return d.toString();
    }

    /** The inside of a group graph pattern; adds the variables its patterns bind to {@code bound}. */
    String group(int depth, Set<String> bound) {
        StringBuilder g = new StringBuilder();
        int patterns = 1 + random.nextInt(depth >= 2 ? 3 : 2);
        for (int i = 0; i < patterns; i++) {
            g.append(triple(bound, random.nextInt(8) == 0));
        }
        int extras = depth <= 0 ? random.nextInt(2) : random.nextInt(4);
        for (int i = 0; i < extras; i++) {
            g.append(element(depth, bound));
        }
        return g.toString();
    }

    private String element(int depth, Set<String> bound) {
        int choice = depth <= 0 ? 8 + random.nextInt(4) : random.nextInt(12);
        switch (choice) {
        case 0:
            return " OPTIONAL {" + group(depth - 1, new LinkedHashSet<>(bound)) + "}";
        case 1: {
            Set<String> left = new LinkedHashSet<>(bound);
            Set<String> right = new LinkedHashSet<>(bound);
            String u = " {" + group(depth - 1, left) + "} UNION {" + group(depth - 1, right) + "}";
            bound.addAll(left);
            bound.addAll(right);
            return u;
        }
        case 2:
            return " MINUS {" + group(depth - 1, new LinkedHashSet<>(bound)) + "}";
        case 3: {
            String graph = random.nextBoolean() ? "?g" + random.nextInt(2) : "ex:g" + random.nextInt(RandomData.GRAPHS);
            if (graph.startsWith("?")) {
                mention(graph);
                bound.add(graph);
            }
            return " GRAPH " + graph + " {" + group(depth - 1, bound) + "}";
        }
        case 4:
            return subquery(depth, bound);
        case 5:
            return " FILTER(" + pick("", "NOT ") + "EXISTS {" + group(depth - 1, new LinkedHashSet<>(bound)) + "})";
        case 6:
            return triple(bound, true);
        case 7:
            return " OPTIONAL {" + triple(new LinkedHashSet<>(bound), false) + " FILTER(" + expressions.bool(2) + ")}";
        case 8:
        case 9:
            return " FILTER(" + expressions.bool(2) + ")";
        case 10: {
            String v = freshVar();
            String bind = " BIND(" + expressions.any(2) + " AS " + v + ")";
            bound.add(v);
            return bind;
        }
        default:
            return values(bound);
        }
    }

    private String subquery(int depth, Set<String> bound) {
        Set<String> inner = new LinkedHashSet<>();
        String where = group(depth - 1, inner);
        List<String> vars = new ArrayList<>(inner);
        if (vars.isEmpty()) {
            return "";
        }
        List<String> projected = some(vars);
        bound.addAll(projected);
        if (random.nextInt(3) == 0) {
            String count = freshVar();
            bound.add(count);
            return " {SELECT " + String.join(" ", projected) + " (COUNT(*) AS " + count + ") WHERE {" + where
                    + "} GROUP BY " + String.join(" ", projected) + "}";
        }
        return " {SELECT " + (random.nextBoolean() ? "DISTINCT " : "") + String.join(" ", projected) + " WHERE {"
                + where + "}}";
    }

    private String values(Set<String> bound) {
        String v = pick(VARS);
        mention(v);
        bound.add(v);
        StringBuilder s = new StringBuilder(" VALUES ").append(v).append(" {");
        for (int i = 0; i < 1 + random.nextInt(4); i++) {
            s.append(' ').append(random.nextInt(6) == 0 ? "UNDEF" : constant());
        }
        return s.append(" }").toString();
    }

    /** A triple pattern joined to {@code bound} when it has variables; a path in the predicate if asked. */
    private String triple(Set<String> bound, boolean path) {
        String join = bound.isEmpty() ? null : pick(new ArrayList<>(bound));
        boolean joinSubject = random.nextBoolean();
        String s = join != null && joinSubject ? join : random.nextInt(4) == 0 ? "ex:s" + random.nextInt(RandomData.SUBJECTS) : var();
        String p = path ? PATHS[random.nextInt(PATHS.length)]
                : random.nextInt(6) == 0 ? var() : "ex:p" + Math.min(random.nextInt(RandomData.PREDICATES), random.nextInt(RandomData.PREDICATES));
        String o = join != null && !joinSubject ? join : random.nextInt(3) == 0 ? constant() : var();
        for (String t : new String[] { s, p, o }) {
            if (t.startsWith("?")) {
                bound.add(t);
            }
        }
        return " " + s + " " + p + " " + o + " .";
    }

    private String var() {
        String v = pick(VARS);
        mention(v);
        return v;
    }

    private String freshVar() {
        String v = "?v" + fresh++;
        mention(v);
        return v;
    }

    private void mention(String v) {
        if (!mentioned.contains(v)) {
            mentioned.add(v);
        }
    }

    /** A variable the query mentions, or one of the shared names if it mentions none yet. */
    String anyVar() {
        return mentioned.isEmpty() ? var() : pick(mentioned);
    }

    /** A constant term in SPARQL syntax: a subject IRI or a literal of {@link RandomData}. */
    String constant() {
        if (random.nextInt(4) == 0) {
            return "ex:s" + random.nextInt(RandomData.SUBJECTS);
        }
        return literal(constants.literal());
    }

    static String literal(Literal l) {
        String label = "\"" + l.getLabel().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        if (l.getLanguage().isPresent()) {
            return label + "@" + l.getLanguage().get();
        }
        return label + "^^<" + l.getDatatype().stringValue() + ">";
    }

    private List<String> some(List<String> vars) {
        List<String> out = new ArrayList<>();
        for (String v : vars) {
            if (random.nextBoolean()) {
                out.add(v);
            }
        }
        if (out.isEmpty()) {
            out.add(pick(vars));
        }
        return out;
    }

    private <T> T pick(List<T> options) {
        return options.get(random.nextInt(options.size()));
    }

    @SafeVarargs
    private <T> T pick(T... options) {
        return options[random.nextInt(options.length)];
    }
}
