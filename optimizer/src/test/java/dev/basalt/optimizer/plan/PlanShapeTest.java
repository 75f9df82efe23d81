package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;
import dev.basalt.optimizer.exec.ExecContext;
import dev.basalt.optimizer.exec.RowCursor;

/**
 * Plan shapes from data statistics, against the in-memory twin: given the counts the data makes,
 * the compiler must pick this join order and these operators.
 */
class PlanShapeTest {
    private static final String EX = "http://example.org/";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    private static IRI iri(String local) {
        return VF.createIRI(EX, local);
    }

    /** 1000 people with a name, 5 friends each, 2 of them of the rare type; 50 cities. */
    private static MemoryQuadSource people() {
        MemoryQuadSource src = new MemoryQuadSource();
        for (int i = 0; i < 1000; i++) {
            IRI p = iri("person" + i);
            src.add(p, iri("name"), VF.createLiteral("name" + i));
            for (int f = 1; f <= 5; f++) {
                src.add(p, iri("knows"), iri("person" + (i + f * 37) % 1000));
            }
            src.add(p, iri("livesIn"), iri("city" + i % 50));
            src.add(p, iri("age"), VF.createLiteral(i % 90));
        }
        src.add(iri("person7"), RDF.TYPE, iri("Rare"));
        src.add(iri("person8"), RDF.TYPE, iri("Rare"));
        for (int c = 0; c < 50; c++) {
            src.add(iri("city" + c), iri("label"), VF.createLiteral("city" + c));
        }
        return src;
    }

    private static CompiledPlan compile(MemoryQuadSource src, String where) throws Exception {
        TupleExpr e = new SPARQLParser().parseQuery("PREFIX : <" + EX + "> SELECT * WHERE { " + where + " }", null)
                .getTupleExpr();
        if (e instanceof org.eclipse.rdf4j.query.algebra.QueryRoot root) {
            e = root.getArg();
        }
        return new PlanCompiler(src, expr -> bs -> false).compileRoot(e);
    }

    private static long run(MemoryQuadSource src, CompiledPlan plan) {
        long n = 0;
        try (RowCursor c = plan.root().open(new long[plan.vars().size()], new ExecContext(src, false))) {
            while (c.next() != null) {
                n++;
            }
        }
        return n;
    }

    @Test
    void mostSelectivePatternFirstThenCheapestConnectedFanOut() throws Exception {
        MemoryQuadSource src = people();
        CompiledPlan plan = compile(src, "?x :knows ?y . ?x :name ?n . ?x a :Rare");
        assertEquals(List.of("?x :type :Rare", "?x :name ?n", "?x :knows ?y"), plan.scanOrder(), plan.explain());
        assertTrue(plan.explain().startsWith("PipelineJoin"), plan.explain());
        assertEquals(10, run(src, plan));
    }

    @Test
    void connectedPatternsBeforeSmallerDisconnectedOnes() throws Exception {
        MemoryQuadSource src = people();
        // :label (50) is smaller than :livesIn (1000) but only connected through ?c, bound by :livesIn
        CompiledPlan plan = compile(src, "?c :label ?l . ?x a :Rare . ?x :livesIn ?c");
        assertEquals(List.of("?x :type :Rare", "?x :livesIn ?c", "?c :label ?l"), plan.scanOrder(), plan.explain());
        assertEquals(2, run(src, plan));
    }

    @Test
    void filterPlacedRightAfterItsVariablesAreBound() throws Exception {
        MemoryQuadSource src = people();
        CompiledPlan plan = compile(src, "?x a :Rare . ?x :knows ?y . ?y :age ?a . ?x :age ?b FILTER(?b > 3)");
        String explain = plan.explain();
        assertEquals(List.of("?x :type :Rare", "?x :age ?b", "?x :knows ?y", "?y :age ?a"), plan.scanOrder(), explain);
        List<String> lines = List.of(explain.split("\n"));
        int filter = indexOf(lines, "Filter ?b > \"3\"");
        // below the two later joins, directly above the join that binds ?b
        assertTrue(lines.get(filter).startsWith("    Filter"), explain);
        assertTrue(lines.get(filter + 1).startsWith("      PipelineJoin"), explain);
        assertTrue(lines.get(filter).contains("[ids]"), explain);
        assertEquals(10, run(src, plan));
    }

    @Test
    void optionalGroupOfPatternsJoinsByIndexLookups() throws Exception {
        CompiledPlan plan = compile(people(), "?x a :Rare OPTIONAL { ?x :knows ?y . ?y :name ?n }");
        assertTrue(plan.explain().startsWith("IndexLeftJoin"), plan.explain());
    }

    @Test
    void optionalUnionIsHashJoined() throws Exception {
        MemoryQuadSource src = people();
        CompiledPlan plan = compile(src, "?x a :Rare OPTIONAL { { ?x :name ?n } UNION { ?x :age ?n } }");
        assertTrue(plan.explain().startsWith("HashLeftJoin"), plan.explain());
        assertEquals(4, run(src, plan));
    }

    @Test
    void unknownConstantMatchesNothing() throws Exception {
        MemoryQuadSource src = people();
        CompiledPlan plan = compile(src, "?x :knows ?y . ?y :unknownPredicate ?z");
        assertEquals("?y :unknownPredicate ?z", plan.scanOrder().get(0), plan.explain());
        assertEquals(0, run(src, plan));
    }

    @Test
    void unionBranchesAndHashJoinWithTheRest() throws Exception {
        MemoryQuadSource src = people();
        CompiledPlan plan = compile(src, "{ ?x a :Rare } UNION { ?x :name \"name3\" } ?x :livesIn ?c");
        assertEquals(3, run(src, plan));
        assertTrue(plan.explain().contains("Union"), plan.explain());
    }

    private static int indexOf(List<String> lines, String text) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(text)) {
                return i;
            }
        }
        return -1;
    }
}
