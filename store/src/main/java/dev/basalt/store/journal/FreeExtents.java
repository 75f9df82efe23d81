package dev.basalt.store.journal;

import java.util.BitSet;
import java.util.Map;
import java.util.TreeMap;

/**
 * The free extents of an RW journal's file ({@link SlotAllocator#freeExtents}): a map from offset to
 * length of the pieces of the file below its end that hold no region and no record. Kept coalesced
 * (no two pieces touch) by {@link #add}, and taken from lowest offset first (first fit), so the file's
 * tail stays free for a compaction to cut. The operations here are the allocator's; the map itself
 * is also read by the compaction planner ({@link FileTail}), the space audit and the allocator's
 * persistence, and its changes are tracked in the {@link RegionTable} (the map is its
 * {@link RegionTable.TrackedMap}).
 *
 * <p>Stateless: static methods over the allocator's map, not thread-safe, called under the
 * {@link Journal}'s monitor as the allocator is.
 */
final class FreeExtents {
    private FreeExtents() {
    }

    /**
     * Adds {@code [off, off + len)} to {@code extents}, merged with its free neighbours.
     *
     * @throws IllegalStateException if part of it is free already
     */
    static void add(TreeMap<Long, Long> extents, long off, long len) {
        Map.Entry<Long, Long> before = extents.floorEntry(off);
        if (before != null && before.getKey() + before.getValue() > off) {
            throw new IllegalStateException("extent at offset " + off + " (" + len + " bytes) is already free");
        }
        if (before != null && before.getKey() + before.getValue() == off) {
            extents.remove(before.getKey());
            off = before.getKey();
            len += before.getValue();
        }
        Long after = extents.get(off + len);
        if (after != null) {
            extents.remove(off + len);
            len += after;
        }
        extents.put(off, len);
    }

    /** Offset of the lowest free extent of at least {@code bytes}, or -1. */
    static long lowestHolding(TreeMap<Long, Long> extents, long bytes) {
        for (Map.Entry<Long, Long> e : extents.entrySet()) {
            if (e.getValue() >= bytes) {
                return e.getKey();
            }
        }
        return -1;
    }

    /** Takes {@code len} bytes from the start of the lowest extent that holds them: their offset, or -1 if none. */
    static long takeLowest(TreeMap<Long, Long> extents, long len) {
        for (Map.Entry<Long, Long> e : extents.entrySet()) {
            if (e.getValue() >= len) {
                // read both before removing: TreeMap's remove may move another mapping into this entry
                long off = e.getKey();
                long have = e.getValue();
                extents.remove(off);
                if (have > len) {
                    extents.put(off + len, have - len);
                }
                return off;
            }
        }
        return -1;
    }

    /**
     * A new region of class c with up to {@code slots} slots, taken from the start of the lowest free
     * extent below {@code limit} that holds at least {@code minSlots} of them, or null.
     */
    static Region carveRegion(TreeMap<Long, Long> extents, int c, int slots, int minSlots, long limit) {
        int slotBytes = SizeClasses.SLOT_BYTES[c];
        for (Map.Entry<Long, Long> e : extents.entrySet()) {
            long off = e.getKey();
            long len = e.getValue();
            if (off >= limit) {
                return null;
            }
            long room = Math.min(len, limit - off);
            int n = (int) Math.min(slots, room / slotBytes);
            if (n >= minSlots) {
                extents.remove(off);
                long taken = (long) n * slotBytes;
                if (len > taken) {
                    extents.put(off + taken, len - taken);
                }
                return new Region(c, off, n, new BitSet(n));
            }
        }
        return null;
    }
}
