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
        int perRegion = SizeClasses.slotsForNewRegion(c, 0, 0);
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
    void aFreePieceOf4KiBHoldsASmallRegionBeforeTheFileGrows() {
        SlotAllocator a = new SlotAllocator(START + (1 << 20), 0, "test");
        a.freeExtents.put(START + 4096, 4096L);
        long end = a.fileEnd;
        long address = a.allocate(300);
        assertEquals(START + 4096, Addresses.offset(address));
        assertEquals(end, a.fileEnd, "the file did not grow");
    }

    @Test
    void aFreePieceSmallerThan4KiBIsLeftAlone() {
        SlotAllocator a = new SlotAllocator(START + (1 << 20), 0, "test");
        a.freeExtents.put(START + 4096, 2048L);
        long end = a.fileEnd;
        long address = a.allocate(300);
        assertEquals(end, Addresses.offset(address), "the new region is made at the file's end");
    }

    /**
     * Two writers of one transaction (a load's index builds and its dictionary write) fill regions
     * of neighbouring classes at once: a record never takes a larger class's slot in a region carved
     * in this transaction, else the slots each tree's records occupy would depend on how the two
     * threads interleave.
     */
    @Test
    void aRegionCarvedInThisTransactionKeepsItsSlotsForItsOwnClass() {
        SlotAllocator a = new SlotAllocator(START, 0, "test");
        int small = SizeClasses.classFor(4096);
        long large = a.allocate(4500); // carves a region of 5120-byte slots with free slots left
        assertEquals(SizeClasses.SLOT_BYTES[small + 1], Addresses.span(large));
        long address = a.allocate(4096);
        assertEquals(4096, Addresses.span(address), "a region of its own class, not a free 5120-byte slot");
        for (int i = 0; i < 200; i++) {
            assertEquals(4096, Addresses.span(a.allocate(4000)));
            assertEquals(5120, Addresses.span(a.allocate(4500)));
        }
        while (!hasFreeSlotOfClass(a, small + 1)) {
            a.allocate(4500);
        }
        a.markCommitted();
        while (hasFreeSlotOfClass(a, small)) {
            a.allocate(4000);
        }
        assertEquals(5120, Addresses.span(a.allocate(4000)),
                "once committed, a free 5120-byte slot serves the smaller class");
    }

    /**
     * A region carved in this transaction whose slots are all released again (a bulk merge frees
     * the tree it rebuilt) is free space at once: a record of another class takes it before the
     * file grows, instead of after the commit.
     */
    @Test
    void aRegionEmptiedInTheTransactionThatCarvedItServesEveryClassAtOnce() {
        SlotAllocator a = new SlotAllocator(START, 0, "test");
        long[] pages = new long[40];
        for (int i = 0; i < pages.length; i++) {
            pages[i] = a.allocate(8000);
        }
        long end = a.fileEnd;
        for (long p : pages) {
            a.release(p);
        }
        assertFalse(a.freeExtents.isEmpty(), "the emptied regions are free extents");
        for (int i = 0; i < 60; i++) {
            assertEquals(4096, Addresses.span(a.allocate(4000)));
        }
        assertEquals(end, a.fileEnd, "the 4 KiB records went into the freed space");
    }

    private static boolean hasFreeSlotOfClass(SlotAllocator a, int c) {
        return a.regions.values().stream().anyMatch(r -> r.classIndex == c && r.hasFree());
    }

    @Test
    void aSlotUpToTwiceTheSizeIsTakenBeforeTheFileGrows() {
        SlotAllocator a = new SlotAllocator(START, 0, "test");
        int big = SizeClasses.classFor(600); // 640-byte slots; 300 bytes is class 320, two classes down
        long[] slots = new long[SizeClasses.slotsForNewRegion(big, 0, 0)];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = a.allocate(600);
        }
        a.markCommitted();
        a.release(slots[3]);
        long end = a.fileEnd;
        assertEquals(slots[3], a.allocate(300), "the free 640-byte slot holds a 300-byte record");
        assertEquals(end, a.fileEnd, "the file did not grow");
        long next = a.allocate(300);
        assertTrue(Addresses.offset(next) >= end, "no free slot is left: a new region at the end");
        assertEquals(SizeClasses.SLOT_BYTES[SizeClasses.classFor(300)], Addresses.span(next));
    }

    @Test
    void aRegionWhoseSlotsAreAllReleasedBecomesFreeSpaceForAnyClass() {
        SlotAllocator a = new SlotAllocator(START, 0, "test");
        int c = SizeClasses.classFor(1000);
        long[] slots = new long[SizeClasses.slotsForNewRegion(c, 0, 0)];
        for (int i = 0; i < slots.length; i++) {
            slots[i] = a.allocate(1000);
        }
        long regionStart = Addresses.offset(slots[0]);
        a.allocate(5000); // a second region after it, so the first is not the file's tail
        a.markCommitted();
        for (long s : slots) {
            a.release(s);
        }
        java.util.List<Long> freedBitmaps = new java.util.ArrayList<>();
        long bytes = a.dissolveEmptyRegions(freedBitmaps::add);
        assertEquals((long) slots.length * SizeClasses.SLOT_BYTES[c], bytes);
        long end = a.fileEnd;
        long other = a.allocate(100);
        assertEquals(regionStart, Addresses.offset(other), "a region of another class is made in its space");
        assertEquals(end, a.fileEnd, "the file did not grow");
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
