package dev.basalt.store.spatial;

import java.util.PriorityQueue;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;

/**
 * Best-first search of the point entries of a spatial index tree by great-circle distance from a
 * point: {@link #next} gives the point entries in ascending order of a lower bound of their
 * distance (the distance to their level-32 cell, which holds the exact point), so a caller that
 * refines each with its exact distance can stop as soon as the next lower bound passes the k-th
 * exact distance it has. Cells whose entries are few are scanned; larger ones are split into their
 * four children, each queued by its own lower bound (counted by the tree's range counts). Entries
 * of coarser cells (other geometries) are skipped.
 *
 * <p>Not thread-safe: one caller; it reads its tree only.
 */
public final class NearestPoints {
    private static final int SCAN_BELOW = 48;
    private final BTree tree;
    private final double lon;
    private final double lat;
    private final PriorityQueue<Item> queue = new PriorityQueue<>();
    private long id;
    private double bound;

    private record Item(double bound, int level, long start, long id) implements Comparable<Item> {
        boolean isPoint() {
            return level < 0;
        }

        @Override
        public int compareTo(Item o) {
            return Double.compare(bound, o.bound);
        }
    }

    public NearestPoints(BTree tree, double lon, double lat) {
        this.tree = tree;
        this.lon = lon;
        this.lat = lat;
        queue.add(new Item(0, 0, 0, 0));
    }

    /** Moves to the next point entry; false when none is left. */
    public boolean next() {
        while (!queue.isEmpty()) {
            Item it = queue.poll();
            if (it.isPoint()) {
                id = it.id();
                bound = it.bound();
                return true;
            }
            expand(it);
        }
        return false;
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
        while (!queue.isEmpty() && !queue.peek().isPoint()) {
            expand(queue.poll());
        }
        return queue.isEmpty() ? Double.POSITIVE_INFINITY : queue.peek().bound();
    }

    private void expand(Item cell) {
        long end = GeoCells.cellEnd(cell.start(), cell.level());
        byte[] from = SpatialKeys.zKey(cell.start());
        byte[] to = end == -1L ? null : SpatialKeys.zKey(end + 1);
        if (cell.level() == GeoCells.POINT_LEVEL || tree.rangeCount(from, to) <= SCAN_BELOW) {
            BTreeCursor c = tree.cursor(from, to);
            while (c.next()) {
                byte[] k = c.key();
                if (SpatialKeys.level(k) == GeoCells.POINT_LEVEL) {
                    long z = SpatialKeys.z(k);
                    queue.add(new Item(cellBound(GeoCells.x(z), GeoCells.y(z), 1), -1, 0, SpatialKeys.id(k)));
                }
            }
            return;
        }
        int child = cell.level() + 1;
        long side = GeoCells.cellSide(child);
        long x = GeoCells.x(cell.start());
        long y = GeoCells.y(cell.start());
        for (int q = 0; q < 4; q++) {
            long cx = x + ((q & 2) != 0 ? side : 0);
            long cy = y + ((q & 1) != 0 ? side : 0);
            long start = GeoCells.interleave(cx, cy);
            long childEnd = GeoCells.cellEnd(start, child);
            if (tree.rangeCount(SpatialKeys.zKey(start), childEnd == -1L ? null : SpatialKeys.zKey(childEnd + 1)) > 0) {
                queue.add(new Item(cellBound(cx, cy, side), child, start, 0));
            }
        }
    }

    /** A lower bound of the distance from the query point to the cell of {@code side} cell numbers at (x, y). */
    private double cellBound(long x, long y, long side) {
        double west = GeoCells.lonOf(x);
        double east = GeoCells.lonOf(x + side);
        double south = GeoCells.latOf(y);
        double north = GeoCells.latOf(y + side);
        double d = SphereDistance.toBox(lon, lat, west, south, east, north);
        return Math.max(0, d - 1e-9);
    }
}
