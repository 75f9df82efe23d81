package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.spatial.GeometryBounds;

/**
 * The index window of a spatial condition against one geometry: the boxes (CRS84 degrees, split
 * at the antimeridian) that every geometry satisfying the condition meets. A topological relation
 * that implies the two geometries meet (within, contains, intersects, equals, overlaps, touches,
 * crosses, covers, covered by, and their Egenhofer and RCC8 names except disjoint) gives the
 * constant's bounds; {@code geof:distance(?g, point) <= d} gives the bounds of the spherical cap of
 * angular radius {@code d} around the point (the sphere spatial4j's geodetic distance uses). Each
 * window is widened by a hair so that rounding never loses a geometry on its edge.
 *
 * <p>Immutable; any thread may use it.
 */
public record SpatialWindow(List<double[]> boxes) {
    static final String WKT_LITERAL = "http://www.opengis.net/ont/geosparql#wktLiteral";
    private static final double EPSILON = 1e-9;
    public static final SpatialWindow NONE = new SpatialWindow(List.of());

    static final String UOM = "http://www.opengis.net/def/uom/OGC/1.0/";
    /** Mean earth radius in metres of spatial4j's geodetic distance (DistanceUtils.EARTH_MEAN_RADIUS_KM). */
    static final double EARTH_RADIUS_METRES = 6371008.7714;

    /** A distance in {@code unit} as degrees of arc, or NaN for a unit RDF4J's functions do not know. */
    public static double degrees(double distance, String unit) {
        return switch (unit.startsWith(UOM) ? unit.substring(UOM.length()) : "") {
            case "metre" -> Math.toDegrees(distance / EARTH_RADIUS_METRES);
            case "degree" -> distance;
            case "radian" -> Math.toDegrees(distance);
            case "unity" -> distance * 180;
            default -> Double.NaN;
        };
    }

    /** The bounds of a geometry value, or null if it is not a {@code geo:wktLiteral} (every relation with it is an error). */
    public static GeometryBounds bounds(Value geometry) {
        if (!(geometry instanceof Literal l) || !WKT_LITERAL.equals(l.getDatatype().stringValue())) {
            return null;
        }
        return GeometryBounds.of(l.getLabel());
    }

    /** The window of geometries meeting {@code geometry}; {@link #NONE} if it is not a geometry. */
    public static SpatialWindow meeting(Value geometry) {
        GeometryBounds b = bounds(geometry);
        if (b == null) {
            return NONE;
        }
        return boxes(b.minLon() - EPSILON, b.minLat() - EPSILON, b.maxLon() + EPSILON, b.maxLat() + EPSILON);
    }

    /**
     * The window of geometries within {@code degrees} of arc of the point {@code geometry};
     * {@link #NONE} if it is not a point geometry, null if it is another geometry (the caller then
     * does not use the index).
     */
    public static SpatialWindow near(Value geometry, double degrees) {
        GeometryBounds b = bounds(geometry);
        if (b == null || Double.isNaN(degrees) || degrees < 0) {
            return NONE;
        }
        if (!b.point()) {
            return null;
        }
        double d = degrees * (1 + 1e-9) + EPSILON;
        double lon = b.minLon();
        double lat = b.minLat();
        if (d >= 180) {
            return boxes(-180, -90, 180, 90);
        }
        double south = lat - d;
        double north = lat + d;
        if (south <= -90 || north >= 90) {
            return boxes(-180, south, 180, north);
        }
        double ratio = Math.sin(Math.toRadians(d)) / Math.cos(Math.toRadians(lat));
        if (ratio >= 1) {
            return boxes(-180, south, 180, north);
        }
        double dLon = Math.toDegrees(Math.asin(ratio)) * (1 + 1e-9) + EPSILON;
        return boxes(lon - dLon, south, lon + dLon, north);
    }

    /** A box that may pass the antimeridian (west below -180 or east above 180), split into boxes within it. */
    static SpatialWindow boxes(double west, double south, double east, double north) {
        double s = Math.max(-90, south);
        double n = Math.min(90, north);
        List<double[]> out = new ArrayList<>(2);
        if (east - west >= 360) {
            out.add(new double[] { -180, s, 180, n });
        } else if (west < -180) {
            out.add(new double[] { west + 360, s, 180, n });
            out.add(new double[] { -180, s, east, n });
        } else if (east > 180) {
            out.add(new double[] { west, s, 180, n });
            out.add(new double[] { -180, s, east - 360, n });
        } else {
            out.add(new double[] { west, s, east, n });
        }
        return new SpatialWindow(out);
    }
}
