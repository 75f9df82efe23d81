package dev.basalt.store.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The allocator fills low space first (a freed slot in the lowest region, a new region in the lowest
 * free extent) so the file's tail stays free for a compaction to cut; and the compaction plan counts
 * a record of class c as fitting only into slots of class c or c + 1, as the allocator places it.
 */
class LowSpaceFirstTest {
    private static final long START = Journal.DATA_START;

    @Test
    void aFreedSlotInTheLowestRegionIsTakenFirst() {
        SlotAllocator a = new SlotAllocator(START, 0, "test");
        int c = SizeClasses.classFor(100);
        int perRegion = SizeClasses.slotsForNewRegion(c, 0);
        long[] first = new long[perRegion * 3];
        for (int i = 0; i < first.length; i++) {
            first[i] = a.allocate(100);
        }
        a.markCommitted();
        long low = first[5];
        long high = first[first.length - 5];
        a.release(low);
        a.release(high);
        assertEquals(low, a.allocate(100), "the slot in the lowest region comes first");
        assertEquals(high, a.allocate(100));
    }

    @Test
    void aNewRegionGoesIntoTheLowestFreeExtentBeforeTheFileGrows() {
        SlotAllocator a = new SlotAllocator(START + (1 << 20), 0, "test");
        a.freeExtents.put(START + 4096, 64L * 1024);
        long end = a.fileEnd;
        long address = a.allocate(300);
        assertEquals(START + 4096, Addresses.offset(address));
        assertEquals(end, a.fileEnd, "the file did not grow");
        assertTrue(a.isInUse(address));
    }

    @Test
    void aFreeExtentTooSmallForACarvedRegionIsLeftAlone() {
        SlotAllocator a = new SlotAllocator(START + (1 << 20), 0, "test");
        a.freeExtents.put(START + 4096, 4096L);
        long end = a.fileEnd;
        long address = a.allocate(300);
        assertEquals(end, Addresses.offset(address), "the new region is made at the file's end");
    }

    @Test
    void smallerSlotsDoNotHoldLargerRecords() {
        int classes = SizeClasses.SLOT_BYTES.length;
        long[] demand = new long[classes];
        long[] supply = new long[classes];
        demand[1] = 10;
        supply[0] = 1000;
        assertFalse(FileTail.fits(demand, supply, 0, 0, 0), "128-byte records do not fit 64-byte slots");
        supply[2] = 20;
        assertTrue(FileTail.fits(demand, supply, 0, 0, 0), "they fit 192-byte slots");
        supply[2] = 0;
        assertTrue(FileTail.fits(demand, supply, 0, 10 * 128 * 2, 0), "or new regions in wholly free space");
        supply[3] = 1000;
        assertFalse(FileTail.fits(demand, supply, 0, 0, 0), "but not slots two classes up");
        supply[3] = 0;
        supply[0] = 0;
        supply[2] = 20; // 17 planned, 10 taken: 7 x 192 bytes left over
        assertTrue(FileTail.fits(demand, supply, 0, 0, 1000), "192-byte slots left over hold a reserve of 1000 bytes");
        assertFalse(FileTail.fits(demand, supply, 0, 0, 10_000), "but not one of 10,000");
    }
}
