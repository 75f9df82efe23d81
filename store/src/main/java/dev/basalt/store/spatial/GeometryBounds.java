package dev.basalt.store.spatial;

import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKTReader;

/**
 * The part of the globe a {@code geo:wktLiteral} can touch, as the spatial index keeps it: a box
 * in CRS84 longitude/latitude degrees, a point, or the whole world. It is conservative: every
 * reading of the literal (JTS's, and spatial4j's geodetic one that RDF4J's GeoSPARQL functions
 * use, which takes a shape wider than 180 degrees of longitude to cross the antimeridian) lies in
 * it. So a literal JTS cannot parse, an empty geometry, another CRS than CRS84, and a shape wider
 * than 180 degrees or with longitudes outside [-180, 180] get a box spanning every longitude (the
 * whole world for the first three), never no entry: the index narrows, the exact test decides.
 *
 * <p>Immutable; any thread may use it. {@link #of} makes its own reader per call.
 */
public record GeometryBounds(double minLon, double minLat, double maxLon, double maxLat, boolean point) {
    public static final GeometryBounds WORLD = new GeometryBounds(-180, -90, 180, 90, false);
    private static final String CRS84 = "<http://www.opengis.net/def/crs/OGC/1.3/CRS84>";

    /** The bounds of a WKT literal's lexical form. */
    public static GeometryBounds of(String wkt) {
        String text = wkt.strip();
        boolean crs = text.startsWith("<");
        if (crs) {
            if (!text.startsWith(CRS84)) {
                return WORLD;
            }
            text = text.substring(CRS84.length());
        }
        Geometry g;
        try {
            g = new WKTReader().read(text);
        } catch (ParseException | RuntimeException e) {
            return WORLD;
        }
        if (g.isEmpty()) {
            return WORLD;
        }
        Envelope e = g.getEnvelopeInternal();
        if (!Double.isFinite(e.getMinX()) || !Double.isFinite(e.getMaxX()) || !Double.isFinite(e.getMinY())
                || !Double.isFinite(e.getMaxY())) {
            return WORLD;
        }
        double minLat = Math.max(-90, e.getMinY());
        double maxLat = Math.min(90, e.getMaxY());
        if (minLat > maxLat) {
            return WORLD;
        }
        if (e.getMinX() < -180 || e.getMaxX() > 180 || e.getWidth() > 180) {
            return new GeometryBounds(-180, minLat, 180, maxLat, false);
        }
        // a point with a CRS IRI is kept as a box: RDF4J's functions do not read the IRI, so a distance
        // from it is an error, which a nearest-point search must not take for a distance
        return new GeometryBounds(e.getMinX(), minLat, e.getMaxX(), maxLat, g instanceof Point && !crs);
    }

    public boolean isWorld() {
        return equals(WORLD);
    }
}
