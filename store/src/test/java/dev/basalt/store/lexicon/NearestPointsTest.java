package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.junit.jupiter.api.Test;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.spatial.NearestPoints;
import dev.basalt.store.spatial.SpatialIndex;
import dev.basalt.store.spatial.SphereDistance;

/**
 * The nearest-point search against brute force, over points spread over the sphere, crowded at both
 * poles, on both sides of the antimeridian and in one dense cluster (so most of the sphere is sparse
 * next to it), with lines and polygons it must skip: every point comes out exactly once, in
 * ascending order of a bound that never exceeds its exact great-circle distance, and the k nearest
 * taken with the stopping rule a caller uses are the true k nearest, from query points anywhere,
 * at the poles and on the antimeridian.
 */
class NearestPointsTest extends StoreFixture {
    private static final IRI WKT = VF.createIRI(SpatialTerms.WKT_LITERAL);

    private static String point(double lon, double lat) {
        return String.format(Locale.ROOT, "POINT(%.7f %.7f)", lon, lat);
    }

    /** Term id to {lon, lat} of every point loaded; the other geometries are loaded but not returned. */
    private Map<Long, double[]> load(Random r) {
        List<double[]> coords = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            coords.add(new double[] { r.nextDouble() * 360 - 180, Math.toDegrees(Math.asin(r.nextDouble() * 2 - 1)) });
        }
        for (int i = 0; i < 300; i++) {
            coords.add(new double[] { r.nextDouble() * 360 - 180, 89.5 + r.nextDouble() * 0.5 });
            coords.add(new double[] { r.nextDouble() * 360 - 180, -89.5 - r.nextDouble() * 0.5 });
            coords.add(new double[] { (r.nextBoolean() ? 1 : -1) * (179.9 + r.nextDouble() * 0.1), r.nextDouble() * 40 - 20 });
        }
        for (int i = 0; i < 1_000; i++) {
            coords.add(new double[] { 30 + r.nextDouble(), 10 + r.nextDouble() });
        }
        coords.add(new double[] { 180, 0 });
        coords.add(new double[] { -180, 0.5 });
        coords.add(new double[] { 0, 90 });
        coords.add(new double[] { 0, -90 });
        List<Value> values = new ArrayList<>();
        for (double[] c : coords) {
            values.add(VF.createLiteral(point(c[0], c[1]), WKT));
        }
        values.add(VF.createLiteral("LINESTRING(30 10, 31 11)", WKT));
        values.add(VF.createLiteral("POLYGON((170 -5, -170 -5, -170 5, 170 5, 170 -5))", WKT));
        values.add(VF.createLiteral("POLYGON((1 2, 3 4", WKT));
        Map<Long, double[]> byId = new HashMap<>();
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            long[] ids = w.getOrCreateAll(values);
            for (int i = 0; i < coords.size(); i++) {
                // the literal's text rounds the coordinates: measure from what is stored
                String[] xy = values.get(i).stringValue().replaceAll("[A-Z()]", "").trim().split(" ");
                byId.put(ids[i], new double[] { Double.parseDouble(xy[0]), Double.parseDouble(xy[1]) });
            }
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        return byId;
    }

    private static List<double[]> queryPoints(Random r) {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            out.add(new double[] { r.nextDouble() * 360 - 180, r.nextDouble() * 180 - 90 });
        }
        for (double[] q : new double[][] { { 0, 90 }, { 123, 90 }, { 0, -90 }, { -45, 89.999 }, { 170, -89.7 },
            { 180, 0 }, { -180, 0 }, { 179.99, 10 }, { -179.99, -10 }, { 180, 90 }, { 30.5, 10.5 }, { -150, -30 } }) {
            out.add(q);
        }
        return out;
    }

    @Test
    void everyPointComesOutOnceInBoundOrderAndTheNearestAreExact() {
        Random r = new Random(Long.getLong("basalt.seed", 11));
        Map<Long, double[]> points = load(r);
        try (Snapshot s = store.snapshot()) {
            for (double[] q : queryPoints(r)) {
                for (long expected : new long[] { 1, 200 }) {
                    String at = "query " + q[0] + " " + q[1] + ", expected " + expected;
                    NearestPoints search = new NearestPoints(s.tree(SpatialIndex.TREE), q[0], q[1], expected);
                    Set<Long> seen = new HashSet<>();
                    double last = 0;
                    while (search.next()) {
                        double[] p = points.get(search.id());
                        assertTrue(p != null, "only points come out: " + at);
                        assertTrue(seen.add(search.id()), "once: " + at);
                        assertTrue(search.bound() >= last, "ascending bounds: " + at);
                        assertTrue(search.bound() <= SphereDistance.between(q[0], q[1], p[0], p[1]) + 1e-12,
                                "a bound is at most the distance: " + at);
                        last = search.bound();
                    }
                    assertEquals(points.size(), seen.size(), "every point: " + at);
                    assertFalse(search.next());
                }
                assertEquals(bruteForce(points, q, 10), nearest(s, points, q, 10), "10 nearest to " + q[0] + " " + q[1]);
            }
        }
    }

    /** The k smallest exact distances, taken as a caller does: refine each point, stop when no bound can beat the k-th. */
    private static List<Double> nearest(Snapshot s, Map<Long, double[]> coords, double[] q, int k) {
        NearestPoints search = new NearestPoints(s.tree(SpatialIndex.TREE), q[0], q[1], k);
        PriorityQueue<Double> exact = new PriorityQueue<>();
        List<Double> out = new ArrayList<>();
        while (out.size() < k) {
            while (exact.isEmpty() || search.peekBound() <= exact.peek()) {
                if (!search.next()) {
                    break;
                }
                double[] p = coords.get(search.id());
                exact.add(SphereDistance.between(q[0], q[1], p[0], p[1]));
            }
            if (exact.isEmpty()) {
                break;
            }
            out.add(exact.poll());
        }
        return out;
    }

    private static List<Double> bruteForce(Map<Long, double[]> points, double[] q, int k) {
        List<Double> all = new ArrayList<>();
        for (double[] p : points.values()) {
            all.add(SphereDistance.between(q[0], q[1], p[0], p[1]));
        }
        all.sort(null);
        return all.subList(0, k);
    }

    @Test
    void anIndexWithoutPointsGivesNone() {
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            w.getOrCreate(VF.createLiteral("POLYGON((0 0, 1 0, 1 1, 0 1, 0 0))", WKT));
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        try (Snapshot s = store.snapshot()) {
            NearestPoints search = new NearestPoints(s.tree(SpatialIndex.TREE), 0, 0, 10);
            assertEquals(Double.POSITIVE_INFINITY, search.peekBound());
            assertFalse(search.next());
        }
    }
}
