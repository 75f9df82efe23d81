package dev.basalt.store.spatial;

/**
 * The grid of the spatial index: CRS84 longitude and latitude, each quantized to a 32-bit
 * unsigned cell number, and the Z-order (Morton) code that interleaves the two (longitude in the
 * odd bits, latitude in the even bits, most significant first). A cell at level {@code L} (0..32)
 * is one of {@code 2^L x 2^L}: its Z codes are those sharing the first {@code 2L} bits, so a cell
 * is one contiguous range of Z codes and a window decomposes into a few ranges.
 *
 * <p>Quantization is monotone: {@code a <= b} implies {@code q(a) <= q(b)}, so a point inside a
 * window in degrees has its cell numbers inside the window's cell numbers, whatever the rounding.
 *
 * <p>Stateless; any thread may call it.
 */
public final class GeoCells {
    /** The finest level: one cell per quantized point. */
    public static final int POINT_LEVEL = 32;
    private static final double CELLS = 4294967296.0; // 2^32
    private static final long MAX_CELL = 0xFFFF_FFFFL;

    private GeoCells() {
    }

    /** Longitude in [-180, 180] to its cell number (values outside are clamped). */
    public static long lon(double lon) {
        return quantize((lon + 180.0) / 360.0 * CELLS);
    }

    /** Latitude in [-90, 90] to its cell number (values outside are clamped). */
    public static long lat(double lat) {
        return quantize((lat + 90.0) / 180.0 * CELLS);
    }

    private static long quantize(double scaled) {
        if (!(scaled > 0)) { // NaN too
            return 0;
        }
        return scaled >= MAX_CELL ? MAX_CELL : (long) scaled;
    }

    /** The smallest longitude whose cell number is {@code cell} or more (a lower bound of the cell's west edge). */
    public static double lonOf(long cell) {
        return cell / CELLS * 360.0 - 180.0;
    }

    public static double latOf(long cell) {
        return cell / CELLS * 180.0 - 90.0;
    }

    /** The Z-order code of a pair of cell numbers. */
    public static long interleave(long x, long y) {
        return spread(x) << 1 | spread(y);
    }

    /** The longitude cell number of a Z code. */
    public static long x(long z) {
        return compact(z >>> 1);
    }

    /** The latitude cell number of a Z code. */
    public static long y(long z) {
        return compact(z);
    }

    private static long spread(long v) {
        v &= MAX_CELL;
        v = (v | v << 16) & 0x0000FFFF0000FFFFL;
        v = (v | v << 8) & 0x00FF00FF00FF00FFL;
        v = (v | v << 4) & 0x0F0F0F0F0F0F0F0FL;
        v = (v | v << 2) & 0x3333333333333333L;
        v = (v | v << 1) & 0x5555555555555555L;
        return v;
    }

    private static long compact(long v) {
        v &= 0x5555555555555555L;
        v = (v | v >>> 1) & 0x3333333333333333L;
        v = (v | v >>> 2) & 0x0F0F0F0F0F0F0F0FL;
        v = (v | v >>> 4) & 0x00FF00FF00FF00FFL;
        v = (v | v >>> 8) & 0x0000FFFF0000FFFFL;
        v = (v | v >>> 16) & 0x00000000FFFFFFFFL;
        return v;
    }

    /** The first Z code of the level-{@code level} cell holding Z code {@code z}. */
    public static long cellStart(long z, int level) {
        int low = 2 * (POINT_LEVEL - level);
        return low == 64 ? 0 : z >>> low << low;
    }

    /** The last Z code of the level-{@code level} cell starting at {@code start} (unsigned). */
    public static long cellEnd(long start, int level) {
        int low = 2 * (POINT_LEVEL - level);
        return low == 64 ? -1L : start | ((1L << low) - 1);
    }

    /** Cell numbers per side of a level-{@code level} cell. */
    public static long cellSide(int level) {
        return 1L << (POINT_LEVEL - level);
    }

    /**
     * The finest level at which the cell-number box {@code [x0, x1] x [y0, y1]} meets at most two
     * cells per axis, so at most four cells cover it.
     */
    public static int coveringLevel(long x0, long y0, long x1, long y1) {
        for (int level = POINT_LEVEL; level > 0; level--) {
            int shift = POINT_LEVEL - level;
            if ((x1 >>> shift) - (x0 >>> shift) <= 1 && (y1 >>> shift) - (y0 >>> shift) <= 1) {
                return level;
            }
        }
        return 0;
    }
}
