package dev.basalt.optimizer.rdf4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.NativeRunner;
import dev.basalt.optimizer.exec.Batch;
import dev.basalt.optimizer.exec.BatchCursor;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.optimizer.exec.HashJoin;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.RowCursor;
import dev.basalt.optimizer.plan.CompiledPlan;

/**
 * The batch form of {@code HashJoin} (its left side probing in batches, its right side read as rows),
 * against RDF4J's evaluator (MemoryStore) on the same statements (prices summed as decimals, which
 * add up alike in any order): products of two types with
 * features, offers with prices (some without), GROUP BYs over a hash join whose build side is a
 * {@code SELECT DISTINCT} subquery (the shape of BSBM's BI query 4), over OPTIONALs (left outer, with
 * and without a filter) and over joins with and without keys. Every answer equals MemoryStore's as
 * planned, with hash joins forced, and with the build side past the memory budget (spilled, then
 * read as rows); the GROUP BY over a hash join reads batches, and each hash join's batch form
 * gives the same rows in the same order as its row form.
 */
class HashJoinBatchTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    private static final String PREFIX = "PREFIX : <" + EX + "> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
    private static final String FORCE = " . [] <http://basalt.dev/hint#joins> \"hash-merge\" ";
    /** The second half of BSBM's BI query 4: the average price of a type's products without each feature. */
    private static final String WITHOUT_FEATURE = "SELECT ?feature (AVG(xsd:decimal(str(?price))) AS ?avg) "
            + "(COUNT(*) AS ?n) WHERE { { SELECT DISTINCT ?feature WHERE { ?p a :TypeA ; :feature ?feature } } "
            + "?product a :TypeA . ?offer :product ?product ; :price ?price "
            + "FILTER NOT EXISTS { ?product :feature ?feature } HINT } GROUP BY ?feature";
    private static final List<String> QUERIES = List.of(
            WITHOUT_FEATURE,
            "SELECT ?feature (COUNT(*) AS ?n) WHERE { { SELECT DISTINCT ?feature WHERE { ?p a :TypeB ; :feature ?feature } } "
                    + "?product a :TypeB ; :feature ?feature . ?offer :product ?product HINT } GROUP BY ?feature",
            "SELECT ?product (COUNT(?price) AS ?n) (SUM(xsd:decimal(str(?price))) AS ?s) WHERE { ?offer :product ?product . "
                    + "OPTIONAL { { ?offer :price ?price } UNION { ?offer :product ?price } } HINT } GROUP BY ?product",
            "SELECT ?product (COUNT(?price) AS ?n) WHERE { ?offer :product ?product . "
                    + "OPTIONAL { { ?offer :price ?price } UNION { ?offer :product ?price } FILTER (xsd:decimal(str(?price)) > 40) } "
                    + "HINT } GROUP BY ?product",
            "SELECT ?t (COUNT(*) AS ?n) WHERE { ?product a ?t . { SELECT DISTINCT ?f WHERE { ?x :feature ?f } } HINT } "
                    + "GROUP BY ?t");
    private static NativeRunner shop;

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    private static void add(List<Statement> out, String s, String p, Value o) {
        out.add(VF.createStatement(iri(s), iri(p), o));
    }

    /** 40 products (types A and B, 0 to 4 of 12 features each) and 700 offers, every eleventh without a price. */
    private static List<Statement> statements() {
        return shop(40, 700, p -> p % 3 == 0 ? "TypeB" : "TypeA", p -> p % 5);
    }

    /**
     * A shop of BSBM's shape: {@code products} products, product p of type {@code type(p)} with
     * {@code features(p)} of 12 features, and {@code offers} offers spread evenly over the products,
     * every eleventh without a price (custom-typed decimals).
     */
    static List<Statement> shop(int products, int offers, IntFunction<String> type, IntUnaryOperator features) {
        List<Statement> out = new ArrayList<>();
        IRI rdfType = VF.createIRI("http://www.w3.org/1999/02/22-rdf-syntax-ns#type");
        for (int p = 0; p < products; p++) {
            out.add(VF.createStatement(iri("product" + p), rdfType, iri(type.apply(p))));
            for (int f = 0; f < features.applyAsInt(p); f++) {
                add(out, "product" + p, "feature", iri("feature" + (p * 7 + f * 5) % 12));
            }
        }
        for (int o = 0; o < offers; o++) {
            add(out, "offer" + o, "product", iri("product" + o * 13 % products));
            if (o % 11 != 4) {
                add(out, "offer" + o, "price", VF.createLiteral((o * 37 % 90) + "." + o % 10, iri("USD")));
            }
        }
        return out;
    }

    @BeforeAll
    static void load() {
        shop = new NativeRunner(statements());
    }

    @AfterAll
    static void close() {
        shop.close();
    }

    private static List<String> basalt(String query, String hint) {
        return PlanProbe.basalt(shop, PREFIX + query.replace("HINT", hint));
    }

    private static List<String> memory(String query) {
        return PlanProbe.memory(shop, PREFIX + query.replace("HINT", ""));
    }

    private static CompiledPlan plan() {
        return PlanProbe.plan(shop);
    }

    private static void hashJoins(Operator op, List<HashJoin> out) {
        if (op instanceof HashJoin h) {
            out.add(h);
        }
        for (Operator c : op.children()) {
            hashJoins(c, out);
        }
    }

    /** The rows of {@code op}'s row form and of its batch form, each row's ids joined, in order. */
    private static List<List<String>> bothForms(Operator op, int width, ExecLimits limits) {
        List<String> rows = new ArrayList<>();
        try (RowCursor c = op.open(new long[width], new ExecContext(shop.twin(), false, limits))) {
            long[] r;
            while ((r = c.next()) != null) {
                rows.add(Arrays.toString(r));
            }
        }
        List<String> batches = new ArrayList<>();
        try (BatchCursor c = op.openBatch(new long[width], new ExecContext(shop.twin(), false, limits))) {
            Batch b;
            while ((b = c.next()) != null) {
                for (int i = 0; i < b.size(); i++) {
                    long[] r = new long[b.width()];
                    for (int s = 0; s < r.length; s++) {
                        r[s] = b.id(i, s);
                    }
                    batches.add(Arrays.toString(r));
                }
            }
        }
        return List.of(rows, batches);
    }

    @Test
    void groupsOverHashJoinsReadBatchesAndEqualRdf4js() {
        for (String q : QUERIES) {
            List<String> expected = memory(q);
            assertFalse(expected.isEmpty(), q);
            assertEquals(expected, basalt(q, ""), q + "\n" + plan().explain());
            assertEquals(expected, basalt(q, FORCE), q + "\n" + plan().explain());
            String explain = plan().explain();
            List<HashJoin> joins = new ArrayList<>();
            hashJoins(plan().root(), joins);
            assertFalse(joins.isEmpty(), explain);
            assertTrue(explain.contains("[batches of 1024 rows"), q + "\n" + explain);
            assertFalse(explain.contains("HashJoin has no batch form"), explain);
            for (HashJoin h : joins) {
                if (h.batchable()) {
                    List<List<String>> forms = bothForms(h, plan().vars().size(), ExecLimits.defaults());
                    assertFalse(forms.get(0).isEmpty(), h.describe());
                    assertEquals(forms.get(0), forms.get(1), h.describe());
                    forms = bothForms(h, plan().vars().size(), ExecLimits.defaults().withHashJoinRows(3));
                    assertEquals(forms.get(0), forms.get(1), h.describe() + " spilled");
                }
            }
        }
    }

    @Test
    void spilledBuildSidesGiveRdf4jsAnswers() {
        shop.setLimits(ExecLimits.defaults().withHashJoinRows(3));
        try {
            for (String q : QUERIES) {
                assertEquals(memory(q), basalt(q, FORCE), q + "\n" + plan().explain());
            }
        } finally {
            shop.setLimits(ExecLimits.defaults());
        }
    }
}
