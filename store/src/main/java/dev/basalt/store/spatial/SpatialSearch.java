package dev.basalt.store.spatial;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;

/**
 * Window search over a spatial index tree ({@link SpatialIndex#TREE}): the term ids of every
 * geometry whose indexed bounds meet a window (a superset of the geometries that meet it; the
 * caller tests each exactly).
 *
 * <p>A window (boxes in degrees, none crossing the antimeridian) is decomposed into at most about
 * {@value #RANGE_BUDGET} cells per box: cells inside it and, where the budget stops refining,
 * cells on its edge. Each is one key-range scan; a point found in an edge cell is kept only if its
 * cell numbers are in the window, a coarser entry only if its cell meets it. Entries of cells
 * coarser than a scanned cell (large geometries) are found by one prefix scan per such ancestor
 * cell. So a search costs a few dozen range scans plus the entries near the window.
 *
 * <p>Reads its tree only: as thread-safe as the tree (a snapshot's trees serve any number of
 * threads).
 */
public final class SpatialSearch {
    static final int RANGE_BUDGET = 48;
    private final BTree tree;

    public SpatialSearch(BTree tree) {
        this.tree = tree;
    }

    /** Number of index entries (points count once, other geometries up to four times). */
    public long size() {
        return tree.size();
    }

    /** A cell of the decomposition: level and first Z code. */
    private record Cell(int level, long start) {
    }

    /** A window box in cell numbers. */
    private record Box(long x0, long y0, long x1, long y1) {
        boolean meets(long cx0, long cy0, long cx1, long cy1) {
            return cx0 <= x1 && cx1 >= x0 && cy0 <= y1 && cy1 >= y0;
        }

        boolean holds(long cx0, long cy0, long cx1, long cy1) {
            return cx0 >= x0 && cx1 <= x1 && cy0 >= y0 && cy1 <= y1;
        }
    }

    /**
     * Candidate term ids (ascending, distinct) of the geometries meeting any of the boxes, each
     * {@code {minLon, minLat, maxLon, maxLat}} in degrees with {@code minLon <= maxLon}.
     */
    public long[] window(List<double[]> boxes) {
        long[] out = new long[64];
        int n = 0;
        Set<Cell> ancestorsDone = new HashSet<>();
        for (double[] b : boxes) {
            Box box = new Box(GeoCells.lon(b[0]), GeoCells.lat(b[1]), GeoCells.lon(b[2]), GeoCells.lat(b[3]));
            List<Cell> cells = decompose(box);
            Set<Cell> ancestors = new HashSet<>();
            for (Cell c : cells) {
                for (int level = c.level() - 1; level >= 0; level--) {
                    ancestors.add(new Cell(level, GeoCells.cellStart(c.start(), level)));
                }
            }
            for (Cell a : ancestors) {
                if (!ancestorsDone.add(a)) {
                    continue;
                }
                BTreeCursor cur = tree.prefixCursor(SpatialKeys.cellKey(a.start(), a.level()));
                while (cur.next()) {
                    out = grow(out, n);
                    out[n++] = SpatialKeys.id(cur.key());
                }
            }
            for (Cell c : cells) {
                long end = GeoCells.cellEnd(c.start(), c.level());
                BTreeCursor cur = tree.cursor(SpatialKeys.zKey(c.start()), end == -1L ? null : SpatialKeys.zKey(end + 1));
                while (cur.next()) {
                    byte[] k = cur.key();
                    int level = SpatialKeys.level(k);
                    long z = SpatialKeys.z(k);
                    long x = GeoCells.x(z);
                    long y = GeoCells.y(z);
                    long side = GeoCells.cellSide(level) - 1;
                    if (box.meets(x, y, x + side, y + side)) {
                        out = grow(out, n);
                        out[n++] = SpatialKeys.id(k);
                    }
                }
            }
        }
        long[] ids = Arrays.copyOf(out, n);
        Arrays.sort(ids);
        int w = 0;
        for (int i = 0; i < ids.length; i++) {
            if (i == 0 || ids[i] != ids[i - 1]) {
                ids[w++] = ids[i];
            }
        }
        return Arrays.copyOf(ids, w);
    }

    /** Receives point entries: the Z code of the point's cell and its term id. */
    @FunctionalInterface
    public interface PointVisitor {
        void point(long z, long id);
    }

    /**
     * Visits the point entries (level {@value GeoCells#POINT_LEVEL}) whose cell numbers are in one
     * of the boxes (as {@link #window} takes them); a point in two overlapping boxes is visited twice.
     * Entries of other geometries are skipped.
     */
    public void points(List<double[]> boxes, PointVisitor visitor) {
        for (double[] b : boxes) {
            Box box = new Box(GeoCells.lon(b[0]), GeoCells.lat(b[1]), GeoCells.lon(b[2]), GeoCells.lat(b[3]));
            for (Cell c : decompose(box)) {
                long end = GeoCells.cellEnd(c.start(), c.level());
                BTreeCursor cur = tree.cursor(SpatialKeys.zKey(c.start()), end == -1L ? null : SpatialKeys.zKey(end + 1));
                boolean inside = c.level() == GeoCells.POINT_LEVEL || box.holds(GeoCells.x(c.start()), GeoCells.y(c.start()),
                        GeoCells.x(c.start()) + GeoCells.cellSide(c.level()) - 1,
                        GeoCells.y(c.start()) + GeoCells.cellSide(c.level()) - 1);
                while (cur.next()) {
                    byte[] k = cur.key();
                    if (SpatialKeys.level(k) != GeoCells.POINT_LEVEL) {
                        continue;
                    }
                    long z = SpatialKeys.z(k);
                    if (inside || box.meets(GeoCells.x(z), GeoCells.y(z), GeoCells.x(z), GeoCells.y(z))) {
                        visitor.point(z, SpatialKeys.id(k));
                    }
                }
            }
        }
    }

    /** Entries in the cells the window decomposes into: an estimate of {@link #window}'s size (before its tests). */
    public long estimate(List<double[]> boxes) {
        long total = 0;
        for (double[] b : boxes) {
            Box box = new Box(GeoCells.lon(b[0]), GeoCells.lat(b[1]), GeoCells.lon(b[2]), GeoCells.lat(b[3]));
            for (Cell c : decompose(box)) {
                long end = GeoCells.cellEnd(c.start(), c.level());
                total += tree.rangeCount(SpatialKeys.zKey(c.start()), end == -1L ? null : SpatialKeys.zKey(end + 1));
            }
        }
        return total;
    }

    private static long[] grow(long[] a, int n) {
        return n < a.length ? a : Arrays.copyOf(a, a.length * 2);
    }

    /** Cells covering the box: inside it, or on its edge where refining would pass the budget; ascending. */
    private static List<Cell> decompose(Box box) {
        List<Cell> done = new ArrayList<>();
        List<Cell> edge = List.of(new Cell(0, 0));
        while (!edge.isEmpty()) {
            List<Cell> next = new ArrayList<>();
            for (Cell c : edge) {
                if (c.level() == GeoCells.POINT_LEVEL) {
                    done.add(c);
                    continue;
                }
                int child = c.level() + 1;
                long side = GeoCells.cellSide(child);
                long x = GeoCells.x(c.start());
                long y = GeoCells.y(c.start());
                for (int q = 0; q < 4; q++) {
                    long cx = x + ((q & 2) != 0 ? side : 0);
                    long cy = y + ((q & 1) != 0 ? side : 0);
                    if (!box.meets(cx, cy, cx + side - 1, cy + side - 1)) {
                        continue;
                    }
                    Cell cell = new Cell(child, GeoCells.interleave(cx, cy));
                    if (box.holds(cx, cy, cx + side - 1, cy + side - 1)) {
                        done.add(cell);
                    } else {
                        next.add(cell);
                    }
                }
            }
            if (done.size() + next.size() * 4 > RANGE_BUDGET) {
                done.addAll(next);
                break;
            }
            edge = next;
        }
        done.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
        return done;
    }
}
