package dev.basalt.store.spatial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The grid's quantization, Z codes, covering cells and conservative bounds. */
class GeoCellsTest {
    @Test
    void zCodesRoundTripAndQuantizationIsMonotone() {
        Random r = new Random(7);
        for (int i = 0; i < 10_000; i++) {
            long x = r.nextLong() & 0xFFFF_FFFFL;
            long y = r.nextLong() & 0xFFFF_FFFFL;
            long z = GeoCells.interleave(x, y);
            assertEquals(x, GeoCells.x(z));
            assertEquals(y, GeoCells.y(z));
            double a = r.nextDouble() * 360 - 180;
            double b = r.nextDouble() * 360 - 180;
            assertTrue(a > b || GeoCells.lon(a) <= GeoCells.lon(b));
            assertTrue(GeoCells.lonOf(GeoCells.lon(a)) <= a);
        }
        assertEquals(0, GeoCells.lon(-180));
        assertEquals(0xFFFF_FFFFL, GeoCells.lon(180));
        assertEquals(0xFFFF_FFFFL, GeoCells.lat(91));
    }

    @Test
    void aBoxIsCoveredByAtMostFourCellsOfItsLevel() {
        Random r = new Random(11);
        for (int i = 0; i < 2_000; i++) {
            double lon = r.nextDouble() * 350 - 175;
            double lat = r.nextDouble() * 170 - 85;
            double w = Math.pow(10, -r.nextInt(7)) * r.nextDouble() * 4;
            GeometryBounds b = new GeometryBounds(lon, lat, Math.min(180, lon + w), Math.min(90, lat + w), false);
            List<byte[]> keys = SpatialKeys.of(42, b);
            assertTrue(keys.size() >= 1 && keys.size() <= 4, keys.size() + " cells");
            int level = SpatialKeys.level(keys.get(0));
            long side = GeoCells.cellSide(level);
            // the cells together hold the box
            long minX = Long.MAX_VALUE, minY = Long.MAX_VALUE, maxX = 0, maxY = 0;
            for (byte[] k : keys) {
                assertEquals(42, SpatialKeys.id(k));
                long z = SpatialKeys.z(k);
                minX = Math.min(minX, GeoCells.x(z));
                minY = Math.min(minY, GeoCells.y(z));
                maxX = Math.max(maxX, GeoCells.x(z) + side - 1);
                maxY = Math.max(maxY, GeoCells.y(z) + side - 1);
            }
            assertTrue(minX <= GeoCells.lon(b.minLon()) && maxX >= GeoCells.lon(b.maxLon()));
            assertTrue(minY <= GeoCells.lat(b.minLat()) && maxY >= GeoCells.lat(b.maxLat()));
        }
    }

    @Test
    void boundsAreConservative() {
        assertEquals(GeometryBounds.WORLD, GeometryBounds.of("POINT(1 2"));
        assertEquals(GeometryBounds.WORLD, GeometryBounds.of("POINT EMPTY"));
        assertEquals(GeometryBounds.WORLD, GeometryBounds.of("<http://www.opengis.net/def/crs/EPSG/0/4326> POINT(1 2)"));
        assertEquals(new GeometryBounds(1, 2, 1, 2, false),
                GeometryBounds.of("<http://www.opengis.net/def/crs/OGC/1.3/CRS84> POINT(1 2)"));
        assertEquals(new GeometryBounds(1, 2, 1, 2, true), GeometryBounds.of(" POINT (1 2) "));
        GeometryBounds across = GeometryBounds.of("POLYGON((170 0, -170 0, -170 10, 170 10, 170 0))");
        assertEquals(new GeometryBounds(-180, 0, 180, 10, false), across);
        assertEquals(new GeometryBounds(-180, 5, 180, 6, false), GeometryBounds.of("LINESTRING(190 5, 200 6)"));
    }
}
