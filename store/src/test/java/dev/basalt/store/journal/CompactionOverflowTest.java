package dev.basalt.store.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * While online compaction runs and the space below its target is full (writes going on meanwhile
 * outgrew it), a record overflows into the lowest free space there is, even a region the
 * compaction empties, rather than a new region at the file's end: the round can then cut the file
 * just above it. The allocator counts what overflowed, which the next round keeps free.
 */
class CompactionOverflowTest {
    private static final long START = Journal.DATA_START;

    /** An allocator with a full region of 100-byte records, then a region holding one, and a plan emptying the second. */
    private static SlotAllocator fullBelowTarget(long[] secondRegion) {
        SlotAllocator a = new SlotAllocator(START, 0, "test");
        int c = SizeClasses.classFor(100);
        int perRegion = SizeClasses.slotsForNewRegion(c, 0, 0);
        for (int i = 0; i < perRegion; i++) {
            a.allocate(100);
        }
        long first = a.allocate(100);
        Region second = a.regionOf(first);
        assertTrue(second.offset > START, "a second region");
        a.markCommitted();
        secondRegion[0] = second.offset;
        secondRegion[1] = second.endOffset();
        CompactionPlan plan = new CompactionPlan(second.offset, a.fileEnd, new long[0], new long[0]);
        a.plan = plan;
        FileTail.markEvacuating(a, plan);
        return a;
    }

    @Test
    void aWriteThatFindsNoRoomBelowTheTargetTakesAFreeSlotOfARegionBeingEmptiedBeforeTheFileGrows() {
        long[] second = new long[2];
        SlotAllocator a = fullBelowTarget(second);
        long end = a.fileEnd;
        long address = a.allocate(100);
        long off = Addresses.offset(address);
        assertTrue(off >= second[0] && off < second[1], "the free slot just above the target, not a region at the"
                + " file's end " + end + ": offset " + off);
        assertEquals(end, a.fileEnd, "the file did not grow");
        assertEquals(SizeClasses.SLOT_BYTES[SizeClasses.classFor(100)], a.overflowBytes);
    }

    @Test
    void theLowerOfAFreeSlotAndAFreeExtentIsTaken() {
        long[] second = new long[2];
        SlotAllocator a = fullBelowTarget(second);
        // free space above the target but below the region being emptied cannot exist here; free space
        // past the second region, at the file's end, lies higher than its free slots
        long extentAt = a.fileEnd;
        a.fileEnd += 64 * 1024;
        a.freeExtents.put(extentAt, 64L * 1024);
        long address = a.allocate(100);
        assertTrue(Addresses.offset(address) < extentAt, "the region being emptied lies lower than the free extent");
        // a record of a class with no free slot anywhere takes a small region in the free extent
        long big = a.allocate(3000);
        assertEquals(extentAt, Addresses.offset(big));
        assertEquals(extentAt + 64 * 1024, a.fileEnd, "the file did not grow");
        assertEquals(SizeClasses.SLOT_BYTES[SizeClasses.classFor(100)] + SizeClasses.SLOT_BYTES[SizeClasses.classFor(3000)],
                a.overflowBytes);
    }

    @Test
    void writesThatFitBelowTheTargetDoNotCountAsOverflow() {
        long[] second = new long[2];
        SlotAllocator a = fullBelowTarget(second);
        a.plan = new CompactionPlan(a.fileEnd, a.fileEnd, new long[0], new long[0]);
        FileTail.markEvacuating(a, a.plan);
        a.allocate(100);
        assertEquals(0, a.overflowBytes);
    }
}
