package dev.basalt.optimizer.access;

import java.util.List;

import dev.basalt.store.spatial.NearestPoints;

/**
 * The spatial index of a source's state (docs/FORMAT.md section 7): candidate term ids of the
 * {@code geo:wktLiteral} terms whose bounds meet a window. A superset: every geometry that meets
 * the window is a candidate, and the caller tests candidates exactly. Terms are indexed whether or
 * not a statement still uses them; joining with the statements drops the unused ones.
 *
 * <p>Thread rules: those of the {@link QuadSource} that handed it out.
 */
public interface SpatialIndexReader {
    /**
     * Candidates (ascending, distinct) meeting any of the boxes, each
     * {@code {minLon, minLat, maxLon, maxLat}} in CRS84 degrees, within -180..180 and -90..90.
     */
    long[] window(List<double[]> boxes);

    /**
     * A search of the indexed points in order of distance from (lon, lat), sized for about
     * {@code expected} of them (more can be read), or null if this index cannot give one.
     */
    default NearestPoints nearest(double lon, double lat, long expected) {
        return null;
    }

    /**
     * True if every object of every statement with predicate {@code predicate} (explicit or
     * inferred) is a geometry the index holds as a point: a nearest-point search then meets every
     * such statement's geometry, and none of them makes a distance an error. False when unknown.
     */
    default boolean onlyPoints(long predicate) {
        return false;
    }

    /** Index entries in the cells the boxes decompose into: the planner's estimate of {@link #window}'s size. */
    long estimate(List<double[]> boxes);
}
