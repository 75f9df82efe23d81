package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.rdf4j.BasaltPlanNode;

/**
 * Integer arithmetic in comparisons (BSBM Q5's shape) decided on ids gives RDF4J's answers: every
 * integer datatype, negative values, values near the inline range's ends (overflow is left to
 * RDF4J), decimals, doubles and strings mixed in (left to RDF4J), and unbound operands (errors).
 */
class IntegerComparisonTest {
    private static final String EX = "http://example.org/";
    private static final String PREFIX = "PREFIX ex: <" + EX + ">\n";
    private static NativeRunner runner;

    @BeforeAll
    static void load() {
        ValueFactory vf = SimpleValueFactory.getInstance();
        Random r = new Random(3);
        List<Statement> data = new ArrayList<>();
        IRI[] types = { XSD.INTEGER, XSD.INT, XSD.LONG, XSD.SHORT, XSD.NON_NEGATIVE_INTEGER };
        for (int i = 0; i < 300; i++) {
            IRI s = vf.createIRI(EX, "s" + i);
            long a = r.nextInt(2000) - 1000;
            IRI type = types[r.nextInt(types.length)];
            if (type.equals(XSD.NON_NEGATIVE_INTEGER) || type.equals(XSD.SHORT)) {
                a = Math.abs(a) % 30000;
            }
            data.add(vf.createStatement(s, vf.createIRI(EX, "a"), vf.createLiteral(Long.toString(a), type)));
            switch (r.nextInt(10)) {
                case 0 -> data.add(vf.createStatement(s, vf.createIRI(EX, "b"), vf.createLiteral(r.nextDouble() * 100)));
                case 1 -> data.add(vf.createStatement(s, vf.createIRI(EX, "b"),
                        vf.createLiteral(new java.math.BigDecimal(r.nextInt(1000)).movePointLeft(1))));
                case 2 -> data.add(vf.createStatement(s, vf.createIRI(EX, "b"), vf.createLiteral("text " + i)));
                case 3 -> { } // ex:b unbound under OPTIONAL
                case 4 -> data.add(vf.createStatement(s, vf.createIRI(EX, "b"),
                        vf.createLiteral((i % 2 == 0 ? 1 : -1) * ((1L << 55) - 1 - r.nextInt(3)))));
                default -> data.add(vf.createStatement(s, vf.createIRI(EX, "b"),
                        vf.createLiteral(Integer.toString(r.nextInt(2000) - 1000), XSD.INTEGER)));
            }
        }
        runner = new NativeRunner(data);
    }

    @AfterAll
    static void close() {
        runner.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT ?s WHERE { ?s ex:a ?a . ?s ex:b ?b FILTER (?b < (?a + 120) && ?b > (?a - 120)) }",
            "SELECT ?s WHERE { ?s ex:a ?a . ?s ex:b ?b FILTER (?a * 3 >= ?b - 7) }",
            "SELECT ?s WHERE { ?s ex:a ?a . ?s ex:b ?b FILTER (?a + ?b = 0 || ?a - ?b != 5) }",
            "SELECT ?s WHERE { ?s ex:a ?a . ?s ex:b ?b FILTER (?b + ?b > 100) }",
            "SELECT ?s WHERE { ?s ex:a ?a . OPTIONAL { ?s ex:b ?b } FILTER (!(?b <= ?a + 1)) }",
            "SELECT ?s WHERE { ?s ex:a ?a . ?s ex:b ?b FILTER (?a / 2 < ?b) }" })
    void sameAnswersAsRdf4j(String query) {
        List<String> expected = sorted(runner.memory(PREFIX + query));
        List<String> actual = sorted(runner.basalt(PREFIX + query));
        assertEquals(expected, actual, query);
        assertTrue(((QueryRoot) runner.lastPlan()).getArg() instanceof BasaltPlanNode, query);
    }

    @org.junit.jupiter.api.Test
    void decidedOnIds() {
        runner.basalt(PREFIX + "SELECT ?s WHERE { ?s ex:a ?a . ?s ex:b ?b FILTER (?b < (?a + 120)) }");
        String plan = ((BasaltPlanNode) ((QueryRoot) runner.lastPlan()).getArg()).plan().explain();
        assertTrue(plan.contains("?b < (?a + ") && plan.contains("(integers) [ids]"), plan);
    }

    private static List<String> sorted(List<org.eclipse.rdf4j.query.BindingSet> rows) {
        List<String> out = new ArrayList<>();
        for (var bs : rows) {
            out.add(String.valueOf(bs.getValue("s")));
        }
        out.sort(null);
        return out;
    }
}
