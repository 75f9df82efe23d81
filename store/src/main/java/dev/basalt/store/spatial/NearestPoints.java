package dev.basalt.store.spatial;

import java.util.Arrays;
import java.util.List;

import dev.basalt.store.btree.BTree;

/**
 * The point entries of a spatial index tree in ascending order of a lower bound of their
 * great-circle distance from a query point, by an expanding ring search: {@link #next} gives each
 * point with {@link #bound} at most its exact distance and no later point has a smaller bound, so a
 * caller that refines each with its exact distance can stop as soon as the next bound passes the
 * k-th exact distance it has.
 *
 * <p>The search scans caps around the query point of growing radius. The first radius is the cap
 * that would hold about twice the expected number of points if the tree's points were spread evenly
 * over the sphere; each next one at least doubles it (more when the last cap held fewer points than
 * expected, a sparse region), up to the whole sphere. A cap is read as one or two latitude/longitude
 * boxes (its bounding box, split at the antimeridian, spanning every longitude when it reaches a
 * pole), each a few dozen key-range scans ({@link SpatialSearch#points}); a point's bound is the
 * distance to its level-32 cell's corner less the cell's size, computed from the key alone. The
 * points of a ring (bound above the last radius, at most the new one) are sorted and handed out;
 * those beyond it are left to the next ring. So a query near a pole reads the thin rows of cells
 * around the pole in a few range scans instead of descending into each of them, and a sparse region
 * costs a few rings more, not a descent per empty cell.
 *
 * <p>Entries of other geometries than points are skipped. Not thread-safe: one caller; it reads its
 * tree only.
 */
public final class NearestPoints {
    /** More than the arc across a level-32 cell (under 1e-7 degrees), with room for rounding. */
    private static final double CELL_SLACK = 2e-7;
    /** Widening of a cap's boxes, in degrees: several cells, so quantization cannot drop a point. */
    private static final double BOX_SLACK = 1e-6;
    private final SpatialSearch search;
    private final double lon;
    private final double lat;
    private final long expected;
    /** Every point whose bound is at most this has been handed out or is in the ring; negative before the first. */
    private double scanned = -1;
    private double radius;
    private int visited;
    private Point[] ring = new Point[32];
    private int n;
    private int pos;
    private long id;
    private double bound;

    private record Point(double bound, long id) {
    }

    public NearestPoints(BTree tree, double lon, double lat) {
        this(tree, lon, lat, 16);
    }

    /** A search for about {@code expected} points (the first cap's size is chosen for it; any number can be read). */
    public NearestPoints(BTree tree, double lon, double lat, long expected) {
        this.search = new SpatialSearch(tree);
        this.lon = lon;
        this.lat = lat;
        this.expected = Math.max(1, expected);
        double share = Math.min(1, 2.0 * this.expected / Math.max(1, tree.size()));
        // a cap of radius r holds (1 - cos r) / 2 of the sphere
        this.radius = Math.max(BOX_SLACK, Math.toDegrees(Math.acos(1 - 2 * share)));
    }

    /** Moves to the next point entry; false when none is left. */
    public boolean next() {
        if (!fill()) {
            return false;
        }
        id = ring[pos].id();
        bound = ring[pos].bound();
        pos++;
        return true;
    }

    /** The term id of the current point. */
    public long id() {
        return id;
    }

    /** A lower bound of the current point's distance, in degrees of arc; no later point has a smaller one. */
    public double bound() {
        return bound;
    }

    /** A lower bound of the next point's distance, or infinity when none is left. */
    public double peekBound() {
        return fill() ? ring[pos].bound() : Double.POSITIVE_INFINITY;
    }

    /** Reads rings until one holds a point not yet handed out; false when the whole sphere is read. */
    private boolean fill() {
        while (pos == n) {
            if (scanned >= 180) {
                return false;
            }
            double r = scanned < 0 ? radius : nextRadius();
            ring(scanned, r);
            scanned = r;
        }
        return true;
    }

    private double nextRadius() {
        // points spread evenly in the last cap would fill a cap sqrt(expected / visited) times wider
        double grow = visited >= expected ? 2 : Math.max(2, Math.sqrt(2.0 * expected / Math.max(1, visited)));
        return Math.min(180, scanned * grow);
    }

    /** Collects the points with a bound in (lo, hi], sorted by bound. */
    private void ring(double lo, double hi) {
        n = 0;
        pos = 0;
        visited = 0;
        search.points(capBoxes(lon, lat, hi), (z, pointId) -> {
            visited++;
            double b = Math.max(0, SphereDistance.between(lon, lat, GeoCells.lonOf(GeoCells.x(z)), GeoCells.latOf(GeoCells.y(z)))
                    - CELL_SLACK);
            if (b > lo && b <= hi) {
                if (n == ring.length) {
                    ring = Arrays.copyOf(ring, n * 2);
                }
                ring[n++] = new Point(b, pointId);
            }
        });
        Arrays.sort(ring, 0, n, (x, y) -> Double.compare(x.bound(), y.bound()));
    }

    /**
     * The latitude/longitude boxes ({@code {west, south, east, north}}, none crossing the
     * antimeridian) that together hold the cap of {@code r} degrees of arc around (lon, lat),
     * widened by a few cells.
     */
    static List<double[]> capBoxes(double lon, double lat, double r) {
        double south = lat - r - BOX_SLACK;
        double north = lat + r + BOX_SLACK;
        if (r >= 90 || south <= -90 || north >= 90) {
            return List.of(new double[] { -180, Math.max(-90, south), 180, Math.min(90, north) });
        }
        double s = Math.sin(Math.toRadians(r)) / Math.cos(Math.toRadians(lat));
        if (s >= 1) {
            return List.of(new double[] { -180, south, 180, north });
        }
        double d = Math.toDegrees(Math.asin(s)) + BOX_SLACK;
        double west = lon - d;
        double east = lon + d;
        if (west < -180) {
            return List.of(new double[] { west + 360, south, 180, north }, new double[] { -180, south, east, north });
        }
        if (east > 180) {
            return List.of(new double[] { west, south, 180, north }, new double[] { -180, south, east - 360, north });
        }
        return List.of(new double[] { west, south, east, north });
    }
}
