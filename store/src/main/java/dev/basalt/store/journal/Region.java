package dev.basalt.store.journal;

import java.util.BitSet;

/**
 * A run of equal slots of one size class with its allocation bitmap (bit set = in use, including
 * slots freed but not yet released). {@code fresh} marks slots allocated since the last commit:
 * those are invisible to every commit point and can be reused at once when freed.
 *
 * <p>Not thread-safe: belongs to the {@link SlotAllocator}, which the {@link Journal} calls under
 * its monitor.
 */
final class Region {
    final int classIndex;
    final int slotBytes;
    final long offset;
    final int slotCount;
    final BitSet used;
    final BitSet fresh = new BitSet();
    int usedCount;
    /** Where this region's bitmap was stored at the last commit (0 if never). */
    long bitmapAddress;
    int bitmapCrc;
    /** Online compaction empties this region: no slot of it is handed out (see {@link CompactionPlan}). */
    boolean evacuating;
    /**
     * Carved since the last commit: its free slots are its own class's space being filled now, not
     * space a shift of record sizes stranded, so records of smaller classes leave them alone.
     */
    boolean carvedUncommitted;
    private int searchHint;

    Region(int classIndex, long offset, int slotCount, BitSet used) {
        this.classIndex = classIndex;
        this.slotBytes = SizeClasses.SLOT_BYTES[classIndex];
        this.offset = offset;
        this.slotCount = slotCount;
        this.used = used;
        this.usedCount = used.cardinality();
    }

    long endOffset() {
        return offset + (long) slotCount * slotBytes;
    }

    boolean hasFree() {
        return usedCount < slotCount;
    }

    /** Takes a free slot and returns its file offset, or -1 if the region is full. */
    long take() {
        int i = used.nextClearBit(searchHint);
        if (i >= slotCount) {
            i = used.nextClearBit(0);
            if (i >= slotCount) {
                return -1;
            }
        }
        used.set(i);
        fresh.set(i);
        usedCount++;
        searchHint = i + 1;
        return offset + (long) i * slotBytes;
    }

    int slotIndex(long fileOffset) {
        long rel = fileOffset - offset;
        if (rel < 0 || rel % slotBytes != 0 || rel / slotBytes >= slotCount) {
            return -1;
        }
        return (int) (rel / slotBytes);
    }

    void release(int slot) {
        if (!used.get(slot)) {
            throw new IllegalStateException("slot " + slot + " of region at " + offset + " is already free");
        }
        used.clear(slot);
        fresh.clear(slot);
        usedCount--;
        if (slot < searchHint) {
            searchHint = slot;
        }
    }

    int bitmapBytes() {
        return ((slotCount + 63) / 64) * 8;
    }
}
