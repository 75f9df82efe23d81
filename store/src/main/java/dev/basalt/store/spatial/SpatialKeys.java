package dev.basalt.store.spatial;

import java.util.ArrayList;
import java.util.List;

/**
 * Keys of the spatial index tree (docs/FORMAT.md, "Spatial index"), 17 bytes, compared as unsigned
 * bytes, with an empty value:
 *
 * <pre>
 *  bytes 0..7   Z code of the cell's first point ({@link GeoCells#interleave}), big-endian
 *  byte  8      the cell's level, 0..32 (32: the key is a point's own cell)
 *  bytes 9..16  the term id of the geometry, big-endian
 * </pre>
 *
 * A point has one key at level 32; any other geometry one key per cell of the (at most four) cells
 * at its {@link GeoCells#coveringLevel} (at most 31) that cover its {@link GeometryBounds}; the
 * whole world is the one level-0 cell.
 *
 * <p>Stateless; any thread may call it.
 */
public final class SpatialKeys {
    public static final int LENGTH = 17;

    private SpatialKeys() {
    }

    /** The keys of one geometry. */
    public static List<byte[]> of(long id, GeometryBounds b) {
        long x0 = GeoCells.lon(b.minLon());
        long y0 = GeoCells.lat(b.minLat());
        List<byte[]> out = new ArrayList<>(4);
        if (b.point()) {
            out.add(key(GeoCells.interleave(x0, y0), GeoCells.POINT_LEVEL, id));
            return out;
        }
        long x1 = GeoCells.lon(b.maxLon());
        long y1 = GeoCells.lat(b.maxLat());
        // level 32 is for points only: a degenerate box (a point with a CRS IRI) takes level 31
        int level = b.isWorld() ? 0 : Math.min(GeoCells.POINT_LEVEL - 1, GeoCells.coveringLevel(x0, y0, x1, y1));
        int shift = GeoCells.POINT_LEVEL - level;
        for (long cx = x0 >>> shift; cx <= x1 >>> shift; cx++) {
            for (long cy = y0 >>> shift; cy <= y1 >>> shift; cy++) {
                long z = level == 0 ? 0 : GeoCells.interleave(cx << shift, cy << shift);
                out.add(key(z, level, id));
            }
        }
        return out;
    }

    public static byte[] key(long z, int level, long id) {
        byte[] k = new byte[LENGTH];
        putLong(k, 0, z);
        k[8] = (byte) level;
        putLong(k, 9, id);
        return k;
    }

    /** The first key of cell {@code z} at {@code level} (any id). */
    static byte[] cellKey(long z, int level) {
        byte[] k = new byte[9];
        putLong(k, 0, z);
        k[8] = (byte) level;
        return k;
    }

    /** The first key at or after Z code {@code z} (any level and id). */
    static byte[] zKey(long z) {
        byte[] k = new byte[8];
        putLong(k, 0, z);
        return k;
    }

    public static long z(byte[] key) {
        return getLong(key, 0);
    }

    public static int level(byte[] key) {
        return key[8] & 0xFF;
    }

    public static long id(byte[] key) {
        return getLong(key, 9);
    }

    private static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = v << 8 | (b[off + i] & 0xFF);
        }
        return v;
    }
}
