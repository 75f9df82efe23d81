package dev.basalt.store.lexicon;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.junit.jupiter.api.Test;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.spatial.GeoCells;
import dev.basalt.store.spatial.GeometryBounds;
import dev.basalt.store.spatial.SpatialIndex;
import dev.basalt.store.spatial.SpatialSearch;

/**
 * The spatial index as the dictionary keeps it: every geometry term gets entries in the same
 * transaction, a window search returns every geometry whose bounds meet the window (and no point
 * outside it), a rollback leaves no entry, the index survives reopen, and a store whose index is
 * missing or stale is detected and rebuilt to the same entries.
 */
class SpatialIndexTest extends StoreFixture {
    private static final IRI WKT = VF.createIRI(SpatialTerms.WKT_LITERAL);

    static String randomGeometry(Random r) {
        double lon = r.nextDouble() * 360 - 180;
        double lat = r.nextDouble() * 180 - 90;
        switch (r.nextInt(6)) {
            case 0, 1, 2:
                return String.format(Locale.ROOT, "POINT(%.7f %.7f)", lon, lat);
            case 3: {
                double w = r.nextDouble() * 5;
                return String.format(Locale.ROOT, "LINESTRING(%.5f %.5f, %.5f %.5f)", lon, lat,
                        Math.min(180, lon + w), Math.max(-90, lat - w));
            }
            case 4: {
                double w = r.nextDouble() * 3;
                double x1 = Math.min(180, lon + w);
                double y1 = Math.min(90, lat + w);
                return String.format(Locale.ROOT, "POLYGON((%.5f %.5f, %.5f %.5f, %.5f %.5f, %.5f %.5f, %.5f %.5f))",
                        lon, lat, x1, lat, x1, y1, lon, y1, lon, lat);
            }
            default: {
                // across the antimeridian: from east of 170 to west of -170
                double a = 170 + r.nextDouble() * 10;
                double b = -170 - r.nextDouble() * 10;
                return String.format(Locale.ROOT, "POLYGON((%.5f %.5f, %.5f %.5f, %.5f %.5f, %.5f %.5f, %.5f %.5f))",
                        a, lat / 2, b, lat / 2, b, lat / 2 + 1, a, lat / 2 + 1, a, lat / 2);
            }
        }
    }

    private Map<Long, String> load(List<String> wkts) {
        Map<Long, String> byId = new HashMap<>();
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            List<Value> values = new ArrayList<>();
            for (String s : wkts) {
                values.add(VF.createLiteral(s, WKT));
            }
            long[] ids = w.getOrCreateAll(values);
            for (int i = 0; i < ids.length; i++) {
                byId.put(ids[i], wkts.get(i));
            }
            w.getOrCreate(VF.createLiteral("not a geometry"));
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
        }
        return byId;
    }

    private static boolean meets(GeometryBounds b, double[] w) {
        return b.minLon() <= w[2] && b.maxLon() >= w[0] && b.minLat() <= w[3] && b.maxLat() >= w[1];
    }

    private void checkWindows(Map<Long, String> byId, Random r, int windows) {
        try (Snapshot s = store.snapshot()) {
            SpatialSearch search = new SpatialSearch(s.tree(SpatialIndex.TREE));
            Map<Long, GeometryBounds> bounds = new HashMap<>();
            byId.forEach((id, wkt) -> bounds.put(id, GeometryBounds.of(wkt)));
            for (int i = 0; i < windows; i++) {
                double lon = r.nextDouble() * 360 - 180;
                double lat = r.nextDouble() * 180 - 90;
                double w = Math.pow(10, -r.nextInt(4)) * r.nextDouble() * 40;
                double[] box = { lon, lat, Math.min(180, lon + w), Math.min(90, lat + w) };
                long[] found = search.window(List.of(box));
                Set<Long> got = new TreeSet<>();
                for (long id : found) {
                    got.add(id);
                }
                assertEquals(found.length, got.size(), "distinct ids");
                for (Map.Entry<Long, String> e : byId.entrySet()) {
                    GeometryBounds b = bounds.get(e.getKey());
                    if (meets(b, box)) {
                        assertTrue(got.contains(e.getKey()), e.getValue() + " meets window " + java.util.Arrays.toString(box));
                    } else if (b.point()) {
                        boolean sameCell = GeoCells.lon(b.minLon()) >= GeoCells.lon(box[0])
                                && GeoCells.lon(b.minLon()) <= GeoCells.lon(box[2])
                                && GeoCells.lat(b.minLat()) >= GeoCells.lat(box[1])
                                && GeoCells.lat(b.minLat()) <= GeoCells.lat(box[3]);
                        assertEquals(sameCell, got.contains(e.getKey()), e.getValue() + " outside the window");
                    }
                }
                assertTrue(search.estimate(List.of(box)) >= 0);
            }
        }
    }

    @Test
    void windowSearchFindsEveryGeometryMeetingTheWindowAndSurvivesReopen() {
        Random r = new Random(Long.getLong("basalt.seed", 5));
        List<String> wkts = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            wkts.add(randomGeometry(r));
        }
        wkts.add("POINT(180 10)");
        wkts.add("POINT(-180 10)");
        wkts.add("POLYGON((1 2, 3 4");
        Map<Long, String> byId = load(wkts);
        checkWindows(byId, r, 300);
        // a second transaction adds to a tree that is no longer empty
        List<String> more = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            more.add(randomGeometry(r));
        }
        byId.putAll(load(more));
        close();
        open();
        checkWindows(byId, r, 300);
        try (Snapshot s = store.snapshot()) {
            assertTrue(SpatialIndex.isCurrent(s.property(SpatialIndex.PROPERTY), s.property(Lexicon.ALLOCATOR_PROPERTY)));
            // the malformed literal is a candidate of every window (the exact test rejects it)
            long bad = byId.entrySet().stream().filter(e -> e.getValue().startsWith("POLYGON((1 2, 3 4"))
                    .findFirst().orElseThrow().getKey();
            long[] found = new SpatialSearch(s.tree(SpatialIndex.TREE)).window(List.of(new double[] { 50, 50, 50.1, 50.1 }));
            assertTrue(java.util.Arrays.stream(found).anyMatch(id -> id == bad));
        }
    }

    @Test
    void rollbackLeavesNoEntries() {
        load(List.of("POINT(1 1)"));
        long before;
        try (Snapshot s = store.snapshot()) {
            before = s.tree(SpatialIndex.TREE).size();
        }
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            w.getOrCreate(VF.createLiteral("POINT(2 2)", WKT));
            // a reader of the open transaction sees the new entry
            lexicon.reader(w);
            assertEquals(before + 1, tx.tree(SpatialIndex.TREE).size());
            tx.rollback();
        }
        try (Snapshot s = store.snapshot()) {
            assertEquals(before, s.tree(SpatialIndex.TREE).size());
            assertEquals(0, new SpatialSearch(s.tree(SpatialIndex.TREE)).window(List.of(new double[] { 1.5, 1.5, 2.5, 2.5 })).length);
        }
    }

    @Test
    void aStoreWithoutTheIndexIsDetectedAndRebuilt() {
        Random r = new Random(3);
        List<String> wkts = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            wkts.add(randomGeometry(r));
        }
        wkts.add("P".repeat(300) + " a long malformed literal stored as a large term");
        Map<Long, String> byId = load(wkts);
        long[] expected;
        double[] world = { -180, -90, 180, 90 };
        try (Snapshot s = store.snapshot()) {
            expected = new SpatialSearch(s.tree(SpatialIndex.TREE)).window(List.of(world));
        }
        assertEquals(byId.size(), expected.length);
        // as a Basalt without the index leaves it: no tree, no property
        try (WriteTransaction tx = store.begin()) {
            tx.dropTree(SpatialIndex.TREE);
            tx.setProperty(SpatialIndex.PROPERTY, null);
            tx.commit();
        }
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            assertFalse(w.spatialIndexCurrent());
            // terms added while the index is stale are not indexed, and the index stays marked stale
            w.getOrCreate(VF.createLiteral("POINT(7 7)", WKT));
            w.beforeCommit();
            tx.commit();
        }
        try (Snapshot s = store.snapshot()) {
            assertNull(s.tree(SpatialIndex.TREE));
            assertFalse(SpatialIndex.isCurrent(s.property(SpatialIndex.PROPERTY), s.property(Lexicon.ALLOCATOR_PROPERTY)));
        }
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            assertEquals(byId.size() + 1, w.rebuildSpatialIndex());
            w.beforeCommit();
            tx.commit();
        }
        try (Snapshot s = store.snapshot()) {
            assertTrue(SpatialIndex.isCurrent(s.property(SpatialIndex.PROPERTY), s.property(Lexicon.ALLOCATOR_PROPERTY)));
            long[] rebuilt = new SpatialSearch(s.tree(SpatialIndex.TREE)).window(List.of(world));
            assertEquals(expected.length + 1, rebuilt.length);
            long seven = lexicon.reader(s).lookup(VF.createLiteral("POINT(7 7)", WKT));
            long[] near = new SpatialSearch(s.tree(SpatialIndex.TREE)).window(List.of(new double[] { 6.9, 6.9, 7.1, 7.1 }));
            assertTrue(java.util.Arrays.stream(near).anyMatch(id -> id == seven), "the term added while stale is indexed");
        }
    }

    @Test
    void anUnknownIndexVersionIsRefused() {
        byte[] v = SpatialIndex.coverage(null);
        v[0] = 9;
        try {
            SpatialIndex.isCurrent(v, new byte[] { 1 });
            throw new AssertionError("accepted version 9");
        } catch (dev.basalt.store.journal.StoreException e) {
            assertTrue(e.getMessage().contains("version 9"), e.getMessage());
        }
    }
}
