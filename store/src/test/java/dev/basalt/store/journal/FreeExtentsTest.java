package dev.basalt.store.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

/**
 * {@link FreeExtents} on a plain map: coalescing, double frees refused, lowest first fit, carving
 * regions below a limit.
 */
class FreeExtentsTest {
    @Test
    void addedExtentsMergeWithTheirNeighbours() {
        TreeMap<Long, Long> m = new TreeMap<>();
        FreeExtents.add(m, 1000, 100);
        FreeExtents.add(m, 1200, 100);
        assertEquals(Map.of(1000L, 100L, 1200L, 100L), m);
        FreeExtents.add(m, 1100, 100);
        assertEquals(Map.of(1000L, 300L), m, "the middle piece joins both neighbours");
        assertThrows(IllegalStateException.class, () -> FreeExtents.add(m, 1250, 10));
        assertThrows(IllegalStateException.class, () -> FreeExtents.add(m, 1000, 1));
        assertEquals(Map.of(1000L, 300L), m, "a refused add changes nothing");
    }

    @Test
    void takesFromTheLowestExtentThatHolds() {
        TreeMap<Long, Long> m = new TreeMap<>(Map.of(1000L, 50L, 2000L, 500L, 3000L, 500L));
        assertEquals(2000, FreeExtents.lowestHolding(m, 100));
        assertEquals(-1, FreeExtents.lowestHolding(m, 501));
        assertEquals(2000, FreeExtents.takeLowest(m, 100));
        assertEquals(Map.of(1000L, 50L, 2100L, 400L, 3000L, 500L), m);
        assertEquals(2100, FreeExtents.takeLowest(m, 400));
        assertEquals(Map.of(1000L, 50L, 3000L, 500L), m, "an extent taken whole leaves the map");
        assertEquals(-1, FreeExtents.takeLowest(m, 501));
    }

    @Test
    void carvesRegionsBelowTheLimit() {
        int c = SizeClasses.classFor(100);
        int slotBytes = SizeClasses.SLOT_BYTES[c];
        TreeMap<Long, Long> m = new TreeMap<>(Map.of(10_000L, 3L * slotBytes, 100_000L, 40L * slotBytes));
        Region r = FreeExtents.carveRegion(m, c, 16, 4, Long.MAX_VALUE);
        assertEquals(100_000, r.offset, "the first extent holds fewer than the fewest slots");
        assertEquals(16, r.slotCount);
        assertEquals(Map.of(10_000L, 3L * slotBytes, 100_000L + 16L * slotBytes, 24L * slotBytes), m);
        assertNull(FreeExtents.carveRegion(m, c, 16, 4, 100_000L + 16L * slotBytes + 2L * slotBytes),
                "only two slots' room lies below the limit");
        Region low = FreeExtents.carveRegion(m, c, 16, 2, 100_000L + 16L * slotBytes + 2L * slotBytes);
        assertEquals(10_000, low.offset, "the lowest extent that holds the fewest slots");
        assertEquals(3, low.slotCount);
        assertEquals(Map.of(100_000L + 16L * slotBytes, 24L * slotBytes), m);
        Region cut = FreeExtents.carveRegion(m, c, 16, 2, 100_000L + 16L * slotBytes + 2L * slotBytes);
        assertEquals(2, cut.slotCount, "cut at the limit");
        assertEquals(Map.of(100_000L + 18L * slotBytes, 22L * slotBytes), m);
    }
}
