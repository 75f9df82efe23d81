package dev.basalt.store.spatial;

/**
 * Great-circle distances on the unit sphere, in degrees of arc: between two points (haversine, as
 * spatial4j computes geodetic distance) and the smallest from a point to a longitude/latitude box,
 * the lower bound the nearest-point search orders cells by.
 *
 * <p>Stateless; any thread may call it.
 */
public final class SphereDistance {
    private SphereDistance() {
    }

    public static double between(double lon1, double lat1, double lon2, double lat2) {
        double p1 = Math.toRadians(lat1);
        double p2 = Math.toRadians(lat2);
        double dp = p2 - p1;
        double dl = Math.toRadians(lon2 - lon1);
        double h = Math.sin(dp / 2) * Math.sin(dp / 2) + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) * Math.sin(dl / 2);
        return Math.toDegrees(2 * Math.atan2(Math.sqrt(h), Math.sqrt(Math.max(0, 1 - h))));
    }

    /** The smallest distance from (lon, lat) to a point of the box (west <= east, within -180..180). */
    public static double toBox(double lon, double lat, double west, double south, double east, double north) {
        if (lon >= west && lon <= east) {
            return lat < south ? south - lat : lat > north ? lat - north : 0;
        }
        // the nearer meridian edge, going round the antimeridian if that is shorter
        double toWest = gap(lon, west);
        double toEast = gap(lon, east);
        double edge = toWest <= toEast ? west : east;
        double dl = Math.min(toWest, toEast);
        if (dl >= 90) {
            return Math.min(Math.min(between(lon, lat, edge, south), between(lon, lat, edge, north)),
                    Math.min(between(lon, lat, west, south), between(lon, lat, east, north)));
        }
        // foot of the perpendicular from the point to the edge's meridian
        double foot = Math.toDegrees(Math.atan(Math.tan(Math.toRadians(lat)) / Math.cos(Math.toRadians(dl))));
        if (foot >= south && foot <= north) {
            return Math.toDegrees(Math.asin(Math.min(1, Math.abs(Math.cos(Math.toRadians(lat)) * Math.sin(Math.toRadians(dl))))));
        }
        return Math.min(between(lon, lat, edge, south), between(lon, lat, edge, north));
    }

    /** Longitude difference in degrees, 0..180, going either way round. */
    private static double gap(double a, double b) {
        double d = Math.abs(a - b) % 360;
        return d > 180 ? 360 - d : d;
    }
}
