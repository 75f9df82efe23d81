package dev.basalt.sail.geo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


/**
 * GeoSPARQL on Basalt answers as RDF4J's MemoryStore with RDF4J's GeoSPARQL functions does:
 * random spatial queries ({@value #QUERIES} in the default run, {@value #LONG_QUERIES} in the
 * run tagged {@code long}; RDF4J's functions cost most of the time) (relations with constant windows and points, distances
 * in four units, joins with another pattern, windows across the antimeridian and over empty
 * regions) over random points, lines and polygons, some of them removed again (their terms stay in
 * the dictionary and the index). Seed printed; {@code -Dbasalt.seed=N} reruns one. Also checks that
 * the plans use the spatial index.
 */
class GeoSparqlDifferentialTest {
    private static final Logger LOG = LoggerFactory.getLogger(GeoSparqlDifferentialTest.class);
    static final int QUERIES = 300;
    static final int LONG_QUERIES = 1_500;
    static final String[] RELATIONS = { "sfWithin", "sfIntersects", "sfContains", "ehContains", "ehInside",
        "sfOverlaps", "sfTouches", "rcc8ntpp", "ehCoveredBy", "sfEquals", "sfDisjoint" };
    static final String[] UNITS = { "metre", "degree", "radian", "unity" };

    @TempDir
    File dir;

    @Test
    void basaltAnswersSpatialQueriesAsMemoryStoreDoes() {
        compare(QUERIES);
    }

    @Test
    @Tag("long")
    void basaltAnswersManySpatialQueriesAsMemoryStoreDoes() {
        compare(LONG_QUERIES);
    }

    private void compare(int queries) {
        long seed = Long.getLong("basalt.seed", System.nanoTime() % 1_000_000);
        LOG.info("GeoSPARQL differential test, seed {} (rerun with -Dbasalt.seed={})", seed, seed);
        System.out.println("GeoSPARQL differential test seed: " + seed);
        Random r = new Random(seed);
        GeoData data = new GeoData(r);
        List<Statement> all = data.features(300);
        List<Statement> removed = new ArrayList<>();
        for (Statement st : all) {
            if (st.getPredicate().equals(GeoData.AS_WKT) && r.nextInt(10) == 0) {
                removed.add(st);
            }
        }
        SailRepository basalt = GeoData.basalt(dir);
        SailRepository memory = GeoData.memory();
        try {
            for (Repository repo : List.of(basalt, memory)) {
                try (RepositoryConnection c = repo.getConnection()) {
                    c.add(all);
                }
                try (RepositoryConnection c = repo.getConnection()) {
                    c.remove(removed);
                }
            }
            int indexed = 0;
            int nonEmpty = 0;
            long memoryNanos = 0;
            long basaltNanos = 0;
            for (int i = 0; i < queries; i++) {
                String q = GeoData.PREFIXES + query(data, r);
                long t0 = System.nanoTime();
                List<String> expected = run(memory, q);
                long t1 = System.nanoTime();
                List<String> actual = run(basalt, q);
                memoryNanos += t1 - t0;
                basaltNanos += System.nanoTime() - t1;
                assertEquals(expected, actual, "seed " + seed + ", query " + i + ": " + q);
                nonEmpty += expected.isEmpty() ? 0 : 1;
                if (i % 20 == 0) {
                    try (RepositoryConnection c = basalt.getConnection()) {
                        String plan = c.prepareTupleQuery(q).explain(Explanation.Level.Optimized).toString();
                        indexed += plan.contains("SpatialScan") ? 1 : 0;
                    }
                }
            }
            System.out.printf("%d queries, %d with answers, %d of %d explained plans use the index; MemoryStore %d ms, Basalt %d ms%n",
                    queries, nonEmpty, indexed, queries / 20, memoryNanos / 1_000_000, basaltNanos / 1_000_000);
            assertTrue(nonEmpty > queries / 6, nonEmpty + " queries with answers");
            assertTrue(nonEmpty < queries, "some queries have empty results");
            assertTrue(indexed > queries / 20 / 2, indexed + " of " + queries / 20 + " plans use the index");
        } finally {
            basalt.shutDown();
            memory.shutDown();
        }
    }

    static List<String> run(Repository repo, String query) {
        List<String> out = GeoData.rows(repo, query);
        out.sort(null);
        return out;
    }

    /** A window: a box of any size, one across the antimeridian, or one over the poles' empty region. */
    static String window(GeoData data, Random r) {
        return switch (r.nextInt(8)) {
            case 0 -> data.acrossAntimeridian();
            case 1 -> GeoData.box(-180, 89.5, 180, 90);
            case 2 -> data.box(120);
            case 3 -> data.box(2);
            default -> data.box(50);
        };
    }

    static String query(GeoData data, Random r) {
        String select = "SELECT ?f ?g WHERE { ?f geo:asWKT ?g . ";
        String join = r.nextInt(4) == 0 ? "?f ex:cat " + r.nextInt(4) + " . " : "";
        if (r.nextInt(3) == 0) {
            String unit = UNITS[r.nextInt(UNITS.length)];
            double degrees = r.nextInt(3) == 0 ? r.nextDouble() * 40 : r.nextDouble() * 4;
            double radius = switch (unit) {
                case "metre" -> Math.toRadians(degrees) * 6371008.7714;
                case "radian" -> Math.toRadians(degrees);
                case "unity" -> degrees / 180;
                default -> degrees;
            };
            String op = r.nextBoolean() ? "<" : "<=";
            String call = "geof:distance(?g, \"" + data.point() + "\"^^geo:wktLiteral, uom:" + unit + ")";
            String cond = r.nextBoolean() ? call + " " + op + " " + radius : radius + " " + (op.equals("<") ? ">" : ">=") + " " + call;
            return select + join + "FILTER(" + cond + ") }";
        }
        String rel = RELATIONS[r.nextInt(RELATIONS.length)];
        String constant = switch (rel) {
            case "sfContains", "ehContains" -> r.nextBoolean() ? data.point() : data.box(1);
            case "sfEquals" -> data.point();
            default -> window(data, r);
        };
        String lit = "\"" + constant + "\"^^geo:wktLiteral";
        String call = r.nextInt(5) == 0 ? "geof:" + rel + "(" + lit + ", ?g)" : "geof:" + rel + "(?g, " + lit + ")";
        if (rel.equals("sfDisjoint")) {
            // not narrowed by the index: only a category keeps the result small
            return select + "?f ex:cat 0 . FILTER(" + call + ") }";
        }
        return select + join + "FILTER(" + call + ") }";
    }
}
