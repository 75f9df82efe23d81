package dev.basalt.sail.geo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Every GeoSPARQL query function RDF4J registers, as the compliance benchmark's query-function
 * requirements exercise them (GeoSPARQL 1.0 /req/geometry-extension/query-functions and
 * srid-function, /req/geometry-topology-extension/relate-query-function, sf-, eh- and
 * rcc8-query-functions), gives on Basalt (its native engine, the functions through RDF4J's
 * registry, filters narrowed by the spatial index) the answers MemoryStore gives: as a projected
 * value over every pair of a small set of geometries, and as a FILTER.
 */
class GeoFunctionsTest {
    static final List<String> GEOMETRIES = List.of("POINT(1 1)", "POINT(5 5)", "POINT(20 20)",
            "LINESTRING(0 0, 10 10)", "LINESTRING(0 10, 10 0)", "POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))",
            "POLYGON((5 5, 15 5, 15 15, 5 15, 5 5))", "POLYGON((2 2, 4 2, 4 4, 2 4, 2 2))",
            "POLYGON((10 0, 20 0, 20 10, 10 10, 10 0))", "POLYGON((175 -5, -175 -5, -175 5, 175 5, 175 -5))",
            "<http://www.opengis.net/def/crs/OGC/1.3/CRS84> POINT(3 3)", "POLYGON((1 2, 3 4");
    static final List<String> RELATIONS = List.of("sfEquals", "sfDisjoint", "sfIntersects", "sfTouches", "sfCrosses",
            "sfWithin", "sfContains", "sfOverlaps", "ehEquals", "ehDisjoint", "ehMeet", "ehOverlap", "ehCovers",
            "ehCoveredBy", "ehInside", "ehContains", "rcc8eq", "rcc8dc", "rcc8ec", "rcc8po", "rcc8tppi", "rcc8tpp",
            "rcc8ntpp", "rcc8ntppi");
    static final List<String> CONSTRUCTIVE = List.of("intersection", "union", "difference", "symDifference");
    static final List<String> UNARY = List.of("envelope", "boundary", "convexHull", "getSRID");

    @TempDir
    static File dir;
    static Repository basalt;
    static Repository memory;

    @BeforeAll
    static void load() {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        basalt = new SailRepository(new BasaltStore(dir, config));
        basalt.init();
        memory = new SailRepository(new MemoryStore());
        memory.init();
        List<Statement> data = new ArrayList<>();
        for (int i = 0; i < GEOMETRIES.size(); i++) {
            data.add(GeoData.VF.createStatement(GeoData.VF.createIRI(GeoData.EX, "g" + i), GeoData.AS_WKT,
                    GeoData.VF.createLiteral(GEOMETRIES.get(i), GeoData.WKT)));
        }
        for (Repository r : List.of(basalt, memory)) {
            try (RepositoryConnection c = r.getConnection()) {
                c.add(data);
            }
        }
    }

    @AfterAll
    static void close() {
        basalt.shutDown();
        memory.shutDown();
    }

    static Stream<String> queries() {
        List<String> out = new ArrayList<>();
        String pairs = "?a geo:asWKT ?ga . ?b geo:asWKT ?gb . ";
        for (String f : RELATIONS) {
            out.add("SELECT ?a ?b ?x WHERE { " + pairs + "BIND(geof:" + f + "(?ga, ?gb) AS ?x) }");
            out.add("SELECT ?a WHERE { ?a geo:asWKT ?ga . FILTER(geof:" + f
                    + "(?ga, \"POLYGON((0 0, 10 0, 10 10, 0 10, 0 0))\"^^geo:wktLiteral)) }");
        }
        out.add("SELECT ?a ?b ?x WHERE { " + pairs + "BIND(geof:relate(?ga, ?gb, \"T*F**FFF*\") AS ?x) }");
        for (String f : CONSTRUCTIVE) {
            out.add("SELECT ?a ?b ?x WHERE { " + pairs + "BIND(geof:" + f + "(?ga, ?gb) AS ?x) }");
        }
        for (String f : UNARY) {
            out.add("SELECT ?a ?x WHERE { ?a geo:asWKT ?ga . BIND(geof:" + f + "(?ga) AS ?x) }");
        }
        out.add("SELECT ?a ?x WHERE { ?a geo:asWKT ?ga . BIND(geof:buffer(?ga, 1, uom:degree) AS ?x) }");
        for (String unit : List.of("metre", "degree", "radian", "unity")) {
            out.add("SELECT ?a ?b ?x WHERE { " + pairs + "BIND(geof:distance(?ga, ?gb, uom:" + unit + ") AS ?x) }");
        }
        out.add("SELECT ?a WHERE { ?a geo:asWKT ?ga . FILTER(geof:distance(?ga, \"POINT(0 0)\"^^geo:wktLiteral, uom:metre) < 700000) }");
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("queries")
    void answersAsMemoryStore(String query) {
        List<String> expected = run(memory, GeoData.PREFIXES + query);
        if (query.contains("BIND")) {
            assertFalse(expected.isEmpty(), query);
        }
        assertEquals(expected, run(basalt, GeoData.PREFIXES + query), query);
    }

    static List<String> run(Repository repo, String query) {
        List<String> out = new ArrayList<>();
        try (RepositoryConnection c = repo.getConnection()) {
            for (BindingSet bs : c.prepareTupleQuery(query).evaluate()) {
                StringBuilder row = new StringBuilder();
                for (String n : List.of("a", "b", "x")) {
                    row.append(n).append('=').append(bs.getValue(n)).append(' ');
                }
                out.add(row.toString());
            }
        }
        out.sort(null);
        return out;
    }
}
