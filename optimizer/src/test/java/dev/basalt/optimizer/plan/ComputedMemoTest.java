package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Predicate;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.RowCursor;

/**
 * A pure expression of an Extend or an ORDER BY key (BSBM BI3's {@code xsd:float(?monthCount) / ?monthBeforeCount})
 * is evaluated once per distinct tuple of its operand ids in an evaluation ({@link ComputedMemo}), an impure one
 * once per row; both give the same rows.
 */
class ComputedMemoTest {
    private static final String EX = "http://example.org/";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final int ROWS = 300;
    /** ?a takes 5 values and ?b 3, so the rows hold 15 distinct pairs. */
    private static final int PAIRS = 15;

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    private static MemoryQuadSource source() {
        MemoryQuadSource src = new MemoryQuadSource();
        for (int i = 0; i < ROWS; i++) {
            src.add(iri("x" + i), iri("a"), VF.createLiteral(String.valueOf(i % 5 + 1), XSD.INTEGER));
            src.add(iri("x" + i), iri("b"), VF.createLiteral(String.valueOf(i % 3 + 1), XSD.INTEGER));
        }
        return src;
    }

    /** Evaluates every expression as xsd:float(?a) / ?b, counting the calls. */
    private static final class CountingFunctions implements ValueFunctions {
        final AtomicInteger calls = new AtomicInteger();

        @Override
        public Predicate<BindingSet> compile(ValueExpr condition) {
            return bs -> false;
        }

        @Override
        public Function<BindingSet, Value> evaluator(ValueExpr expr) {
            return bs -> {
                calls.incrementAndGet();
                Value a = bs.getValue("a");
                Value b = bs.getValue("b");
                if (a == null || b == null) {
                    return null;
                }
                return VF.createLiteral(((Literal) a).floatValue() / ((Literal) b).intValue());
            };
        }

        @Override
        public boolean strictComparison() {
            return false;
        }
    }

    private static List<String> run(String query, CountingFunctions functions) throws Exception {
        MemoryQuadSource src = source();
        TupleExpr e = new SPARQLParser()
                .parseQuery("PREFIX : <" + EX + "> PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> " + query, null)
                .getTupleExpr();
        if (e instanceof QueryRoot root) {
            e = root.getArg();
        }
        CompiledPlan plan = new PlanCompiler(src, functions, functions, new CardinalityEstimator(src),
                OrderingPolicy.DEFAULT, null).compileRoot(e);
        List<String> out = new ArrayList<>();
        ExecContext ctx = new ExecContext(src, false);
        try (RowCursor c = plan.root().open(new long[plan.vars().size()], ctx)) {
            long[] row;
            while ((row = c.next()) != null) {
                long[] projected = new long[plan.outputSlots().length];
                for (int i = 0; i < projected.length; i++) {
                    projected[i] = row[plan.outputSlots()[i]];
                }
                StringBuilder sb = new StringBuilder();
                for (Value v : ctx.resolve(projected)) {
                    sb.append(v == null ? "-" : v.stringValue()).append(' ');
                }
                out.add(sb.toString().trim());
            }
        }
        return out;
    }

    /** The top 10 by the ratio, descending, then by ?x's IRI. */
    private static List<String> expected() {
        List<Integer> xs = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            xs.add(i);
        }
        Comparator<Integer> byRatio = Comparator.comparingDouble(i -> (float) (i % 5 + 1) / (i % 3 + 1));
        xs.sort(byRatio.reversed().thenComparing(i -> EX + "x" + i));
        List<String> out = new ArrayList<>();
        for (int i : xs.subList(0, 10)) {
            out.add(EX + "x" + i + " " + VF.createLiteral((float) (i % 5 + 1) / (i % 3 + 1)).stringValue());
        }
        return out;
    }

    /** Runs BI3's shape with {@code ratio} as its SELECT expression and ORDER BY key; returns the evaluator's calls. */
    private static int ratioCalls(String ratio) throws Exception {
        CountingFunctions functions = new CountingFunctions();
        List<String> rows = run("SELECT ?x (" + ratio + " AS ?r) WHERE { ?x :a ?a . ?x :b ?b } ORDER BY DESC(" + ratio
                + ") ?x LIMIT 10", functions);
        assertEquals(expected(), rows);
        return functions.calls.get();
    }

    @Test
    void aPureRatioIsComputedOncePerPairInTheExtendAndTheSort() throws Exception {
        assertEquals(2 * PAIRS, ratioCalls("xsd:float(?a) / ?b"), "one call per distinct pair in the Extend and in the sort key");
    }

    @Test
    void anImpureExpressionIsComputedPerRow() throws Exception {
        assertEquals(2 * ROWS, ratioCalls("xsd:float(?a) / ?b + 0 * RAND()"), "RAND() is evaluated for every row");
    }

    @Test
    void theMemoKeepsAResultPerOperandTupleUpToItsBound() {
        ComputedMemo memo = new ComputedMemo(new int[] { 0, 2, -1 });
        memo.put(new long[] { 11, 99, 12 }, 7);
        assertEquals(7L, memo.get(new long[] { 11, 5, 12 }), "slot 1 is no operand");
        assertNull(memo.get(new long[] { 11, 99, 13 }));
        assertNull(memo.get(new long[] { 12, 99, 11 }));
        for (long i = 0; i < ComputedMemo.MAX_ENTRIES + 10; i++) {
            memo.put(new long[] { i, 0, 1_000_000 }, i);
        }
        assertEquals(ComputedMemo.MAX_ENTRIES, memo.size());
        assertNull(memo.get(new long[] { ComputedMemo.MAX_ENTRIES + 5, 0, 1_000_000 }));
    }
}
