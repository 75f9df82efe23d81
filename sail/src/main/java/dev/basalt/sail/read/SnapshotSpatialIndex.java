package dev.basalt.sail.read;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.basalt.optimizer.access.SpatialIndexReader;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.quads.QuadCursor;
import dev.basalt.store.spatial.GeoCells;
import dev.basalt.store.spatial.NearestPoints;
import dev.basalt.store.spatial.SpatialKeys;
import dev.basalt.store.spatial.SpatialSearch;

/**
 * The spatial index of one committed {@link ReadView}, kept with the view so that what it works
 * out once (the ids of the indexed points, and per predicate whether all its objects are such
 * points) serves every query of that commit point.
 *
 * <p>Thread-safe: the view is immutable; the lazily computed sets are published through a
 * volatile field and a concurrent map (two threads may compute the same answer once each).
 */
final class SnapshotSpatialIndex implements SpatialIndexReader {
    private final ReadView view;
    private final BTree tree;
    private final SpatialSearch search;
    private volatile long[] points;
    private final Map<Long, Boolean> onlyPoints = new ConcurrentHashMap<>();

    SnapshotSpatialIndex(ReadView view, BTree tree) {
        this.view = view;
        this.tree = tree;
        this.search = new SpatialSearch(tree);
    }

    @Override
    public long[] window(List<double[]> boxes) {
        return search.window(boxes);
    }

    @Override
    public long estimate(List<double[]> boxes) {
        return search.estimate(boxes);
    }

    @Override
    public NearestPoints nearest(double lon, double lat, long expected) {
        return new NearestPoints(tree, lon, lat, expected);
    }

    /** Worked out once per predicate and view: a scan of the predicate's statements against the sorted point ids. */
    @Override
    public boolean onlyPoints(long predicate) {
        return onlyPoints.computeIfAbsent(predicate, this::allObjectsArePoints);
    }

    private boolean allObjectsArePoints(long predicate) {
        long[] ids = pointIds();
        for (StatementSet set : StatementSet.values()) {
            QuadCursor c = view.quads(set).scan(new long[] { 0, predicate, 0, 0 });
            while (c.next()) {
                if (Arrays.binarySearch(ids, c.quad()[2]) < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    private long[] pointIds() {
        long[] p = points;
        if (p == null) {
            long[] out = new long[1024];
            int n = 0;
            BTreeCursor c = tree.cursor(null, null);
            while (c.next()) {
                byte[] k = c.keyView();
                if (SpatialKeys.level(k) == GeoCells.POINT_LEVEL) {
                    if (n == out.length) {
                        out = Arrays.copyOf(out, n * 2);
                    }
                    out[n++] = SpatialKeys.id(k);
                }
            }
            p = Arrays.copyOf(out, n);
            Arrays.sort(p);
            points = p;
        }
        return p;
    }
}
