package dev.basalt.optimizer.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.parser.sparql.SPARQLParser;
import org.junit.jupiter.api.Test;

import dev.basalt.optimizer.MemoryQuadSource;

/**
 * Plan shapes of spatial queries against the in-memory twin with a spatial index: a FILTER with a
 * GeoSPARQL relation or distance against a constant adds a SpatialScan operand, placed first when
 * its window is small and after a more selective pattern when it is large; without an index there
 * is none; a k-nearest query over one pattern gets a KnnScan over its sort.
 */
class SpatialPlanShapeTest {
    private static final String EX = "http://example.org/";
    private static final String PREFIXES = "PREFIX : <" + EX + "> PREFIX geo: <http://www.opengis.net/ont/geosparql#> "
            + "PREFIX geof: <http://www.opengis.net/def/function/geosparql/> PREFIX uom: <http://www.opengis.net/def/uom/OGC/1.0/> ";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    /** 2000 features on a 1-degree grid of points, 2 of them of the rare type. */
    private static MemoryQuadSource features() {
        MemoryQuadSource src = new MemoryQuadSource().spatial(true);
        IRI asWkt = VF.createIRI("http://www.opengis.net/ont/geosparql#asWKT");
        IRI wkt = VF.createIRI("http://www.opengis.net/ont/geosparql#wktLiteral");
        for (int i = 0; i < 2000; i++) {
            IRI f = VF.createIRI(EX, "f" + i);
            src.add(f, asWkt, VF.createLiteral(String.format(Locale.ROOT, "POINT(%d %d)", i % 100 - 50, i / 100 - 10), wkt));
            src.add(f, VF.createIRI(EX, "cat"), VF.createIRI(EX, i % 1000 == 7 ? "Rare" : "Common" + i % 10));
        }
        return src;
    }

    private static CompiledPlan compile(MemoryQuadSource src, String query) throws Exception {
        TupleExpr e = new SPARQLParser().parseQuery(PREFIXES + query, null).getTupleExpr();
        if (e instanceof org.eclipse.rdf4j.query.algebra.QueryRoot root) {
            e = root.getArg();
        }
        ValueFunctions none = new ValueFunctions() {
            @Override
            public java.util.function.Predicate<org.eclipse.rdf4j.query.BindingSet> compile(
                    org.eclipse.rdf4j.query.algebra.ValueExpr condition) {
                return bs -> false;
            }

            @Override
            public java.util.function.Function<org.eclipse.rdf4j.query.BindingSet, org.eclipse.rdf4j.model.Value> evaluator(
                    org.eclipse.rdf4j.query.algebra.ValueExpr expr) {
                return bs -> null;
            }

            @Override
            public boolean strictComparison() {
                return false;
            }
        };
        return new PlanCompiler(src, none, none, new CardinalityEstimator(src), OrderingPolicy.DEFAULT, null).compileRoot(e);
    }

    private static String window(int x0, int y0, int x1, int y1) {
        return "\"POLYGON((" + x0 + " " + y0 + ", " + x1 + " " + y0 + ", " + x1 + " " + y1 + ", " + x0 + " " + y1 + ", " + x0 + " "
                + y0 + "))\"^^geo:wktLiteral";
    }

    @Test
    void aSmallWindowLeadsTheJoin() throws Exception {
        String plan = compile(features(), "SELECT * WHERE { ?f geo:asWKT ?g . ?f :cat ?c . FILTER(geof:sfWithin(?g, "
                + window(0, 0, 3, 3) + ")) }").explain();
        List<String> lines = plan.lines().toList();
        int spatial = indexOf(lines, "SpatialScan ?g geo.cells sfWithin");
        int wktScan = indexOf(lines, "Scan ?f :asWKT ?g");
        int catScan = indexOf(lines, "Scan ?f :cat ?c");
        assertTrue(spatial >= 0 && wktScan > spatial && catScan > wktScan, plan);
        assertTrue(lines.get(spatial).contains("est 16"), plan);
    }

    @Test
    void aLargeWindowComesAfterASelectivePattern() throws Exception {
        String plan = compile(features(), "SELECT * WHERE { ?f geo:asWKT ?g . ?f :cat :Rare . FILTER(geof:sfIntersects(?g, "
                + window(-60, -20, 60, 20) + ")) }").explain();
        List<String> lines = plan.lines().toList();
        int rare = indexOf(lines, "Scan ?f :cat :Rare");
        int spatial = indexOf(lines, "SpatialScan");
        assertTrue(rare >= 0 && spatial >= 0, plan);
        // the rare pattern starts the join; the spatial operand is joined after it
        assertTrue(lines.get(rare).length() - lines.get(rare).stripLeading().length()
                >= lines.get(spatial).length() - lines.get(spatial).stripLeading().length(), plan);
    }

    @Test
    void aDistanceFilterUsesTheIndexAndNoIndexMeansNoOperand() throws Exception {
        String query = "SELECT * WHERE { ?f geo:asWKT ?g . FILTER(geof:distance(?g, \"POINT(0 0)\"^^geo:wktLiteral, uom:metre) < 200000) }";
        String plan = compile(features(), query).explain();
        assertTrue(plan.contains("SpatialScan ?g geo.cells distance(POINT(0 0), 200000 metre)"), plan);
        String without = compile(features().spatial(false), query).explain();
        assertFalse(without.contains("SpatialScan"), without);
        // sfDisjoint does not imply that the geometries meet: no operand
        String disjoint = compile(features(), "SELECT * WHERE { ?f geo:asWKT ?g . FILTER(geof:sfDisjoint(?g, "
                + window(0, 0, 3, 3) + ")) }").explain();
        assertFalse(disjoint.contains("SpatialScan"), disjoint);
    }

    @Test
    void aNearestQueryGetsAKnnScanOverItsSort() throws Exception {
        String plan = compile(features(), "SELECT ?f WHERE { ?f geo:asWKT ?g } ORDER BY geof:distance(?g, "
                + "\"POINT(1 1)\"^^geo:wktLiteral, uom:metre) LIMIT 5").explain();
        List<String> lines = plan.lines().toList();
        int knn = indexOf(lines, "KnnScan geo.cells nearest 5 to POINT(1 1)");
        int sort = indexOf(lines, "Sort");
        assertTrue(knn >= 0 && sort > knn, plan);
        String descending = compile(features(), "SELECT ?f WHERE { ?f geo:asWKT ?g } ORDER BY DESC(geof:distance(?g, "
                + "\"POINT(1 1)\"^^geo:wktLiteral, uom:metre)) LIMIT 5").explain();
        assertFalse(descending.contains("KnnScan"), descending);
        assertEquals(-1, indexOf(compile(features().spatial(false), "SELECT ?f WHERE { ?f geo:asWKT ?g } ORDER BY "
                + "geof:distance(?g, \"POINT(1 1)\"^^geo:wktLiteral, uom:metre) LIMIT 5").explain().lines().toList(), "KnnScan"));
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
