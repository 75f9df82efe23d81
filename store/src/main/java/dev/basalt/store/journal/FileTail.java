package dev.basalt.store.journal;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * The space arithmetic of online compaction over an RW allocator (see docs/FORMAT.md, "Online
 * compaction"): where the file could end if every record above some offset moved into free space
 * below it ({@link #plan}), how much is still in use above an offset ({@link #bytesInUseAbove}),
 * and giving the file's free tail back ({@link #trim}).
 *
 * <p>The unit that can be cut off is a whole region or extent: the file ends at a region or extent
 * boundary. Records of size class {@code c} may move into free slots of class {@code c} or
 * {@code c + 1} (what {@link SlotAllocator#allocate} takes) or into new regions made in free
 * extents, large records into free extents.
 * Stateless; the caller (the {@link Journal}, under its monitor) owns the allocator, one thread at a time.
 */
final class FileTail {
    /** Of the free space below the target, at most this share is planned for records moved from above. */
    static final double PLANNED_SHARE = 0.85;

    private FileTail() {
    }

    /** A region or extent of the file in offset order. */
    private record Item(long offset, long end, int classIndex, int used, int free, boolean freeExtent) {
    }

    private static List<Item> layout(SlotAllocator a) {
        List<Item> items = new ArrayList<>();
        for (Region r : a.regions.values()) {
            items.add(new Item(r.offset, r.endOffset(), r.classIndex, r.usedCount, r.slotCount - r.usedCount, false));
        }
        for (Map.Entry<Long, Long> e : a.freeExtents.entrySet()) {
            items.add(new Item(e.getKey(), e.getKey() + e.getValue(), -1, 0, 0, true));
        }
        items.sort((x, y) -> Long.compare(x.offset, y.offset));
        // the gaps between regions and free extents are extents in use
        List<Item> all = new ArrayList<>();
        long at = Journal.DATA_START;
        for (Item i : items) {
            if (i.offset > at) {
                all.add(new Item(at, i.offset, -1, 0, 0, false));
            }
            all.add(i);
            at = i.end;
        }
        if (a.fileEnd > at) {
            all.add(new Item(at, a.fileEnd, -1, 0, 0, false));
        }
        return all;
    }

    /**
     * The plan: the lowest region or extent boundary {@code T} such that everything in use at or
     * above it and in the sparse regions below it fits, with headroom, into the free space below
     * it; {@code T} is the file's end if no lower boundary qualifies. Records of class c go to free
     * slots of class c or c + 1 of the dense regions below T; the rest, and large records, to space
     * that is wholly free below T (free extents and empty regions), where new regions of any class
     * are made. The sparse regions' space is not counted: it is free only once they are emptied,
     * and the next round's plan counts it. {@code reserveBytes} of the free space below T (slots
     * left over or wholly free space) is kept for the writes going on meanwhile.
     */
    static CompactionPlan plan(SlotAllocator a, long reserveBytes) {
        List<Item> items = layout(a);
        int classes = SizeClasses.SLOT_BYTES.length;
        long[] demand = new long[classes];
        long[] supply = new long[classes];
        long extentDemand = 0;
        long wholeFree = 0;
        for (Item i : items) {
            if (i.classIndex >= 0) {
                demand[i.classIndex] += i.used;
            } else if (!i.freeExtent) {
                extentDemand += i.end - i.offset;
            }
        }
        long target = a.fileEnd;
        for (Item i : items) {
            if (fits(demand, supply, extentDemand, wholeFree, reserveBytes)) {
                target = i.offset;
                break;
            }
            // move the item below the candidate boundary
            if (i.classIndex >= 0 && i.used > 0 && !isSparse(i)) {
                demand[i.classIndex] -= i.used;
                supply[i.classIndex] += i.free;
            } else if (i.classIndex >= 0 && i.used > 0) {
                // a sparse region's space is free only once it is emptied: counted by the next round
                continue;
            } else if (i.classIndex >= 0 || i.freeExtent) {
                wholeFree += i.end - i.offset;
            } else {
                extentDemand -= i.end - i.offset;
            }
        }
        List<long[]> sparse = new ArrayList<>();
        for (Item i : items) {
            if (i.end <= target && i.classIndex >= 0 && i.used > 0 && isSparse(i)) {
                sparse.add(new long[]{i.offset, i.end});
            }
        }
        long[] starts = new long[sparse.size()];
        long[] ends = new long[sparse.size()];
        for (int k = 0; k < starts.length; k++) {
            starts[k] = sparse.get(k)[0];
            ends[k] = sparse.get(k)[1];
        }
        return new CompactionPlan(target, a.fileEnd, starts, ends);
    }

    /** A region used below this share is emptied too, so the space left in the file is mostly whole regions. */
    static final double SPARSE_BELOW = 0.7;

    private static boolean isSparse(Item i) {
        return i.used < SPARSE_BELOW * (i.used + i.free);
    }

    /**
     * True if the demand fits: records of class c take free slots of class c, then of class c + 1
     * (what {@link SlotAllocator#allocate} does), and what is left of them takes new regions in
     * wholly free space, counted at their slot size; {@code reserveBytes} must be left over in
     * slots or wholly free space.
     */
    static boolean fits(long[] demand, long[] supply, long extentDemand, long wholeFree, long reserveBytes) {
        double unmetBytes = extentDemand;
        double spareBytes = 0;
        double fromBelow = 0; // records of class c - 1 that found no slot of their own class
        for (int c = 0; c < demand.length; c++) {
            double own = PLANNED_SHARE * supply[c];
            double lower = Math.min(fromBelow, own);
            own -= lower;
            if (c > 0) {
                unmetBytes += (fromBelow - lower) * SizeClasses.SLOT_BYTES[c - 1];
            }
            double mine = Math.min(demand[c], own);
            fromBelow = demand[c] - mine;
            spareBytes += (own - mine) * SizeClasses.SLOT_BYTES[c];
        }
        unmetBytes += fromBelow * SizeClasses.SLOT_BYTES[demand.length - 1];
        double whole = PLANNED_SHARE * wholeFree;
        return unmetBytes <= whole && unmetBytes + reserveBytes <= whole + spareBytes;
    }

    /** Bytes of slots and extents in use that lie at or above {@code offset}. */
    static long bytesInUseAbove(SlotAllocator a, long offset) {
        long total = 0;
        for (Item i : layout(a)) {
            if (i.end <= offset) {
                continue;
            }
            if (i.classIndex >= 0) {
                total += (long) i.used * SizeClasses.SLOT_BYTES[i.classIndex];
            } else if (!i.freeExtent) {
                total += i.end - Math.max(i.offset, offset);
            }
        }
        return total;
    }

    /** What lies in use at or above {@code offset}: slots per size class and extents, for reports. */
    static String describeAbove(SlotAllocator a, long offset) {
        StringBuilder b = new StringBuilder();
        long extents = 0;
        long extentBytes = 0;
        java.util.TreeMap<Integer, Integer> slots = new java.util.TreeMap<>();
        for (Item i : layout(a)) {
            if (i.end <= offset) {
                continue;
            }
            if (i.classIndex >= 0 && i.used > 0) {
                slots.merge(SizeClasses.SLOT_BYTES[i.classIndex], i.used, Integer::sum);
            } else if (i.classIndex < 0 && !i.freeExtent) {
                extents++;
                extentBytes += i.end - Math.max(i.offset, offset);
            }
        }
        slots.forEach((bytes, n) -> b.append(n).append(" x ").append(bytes).append(" B slots, "));
        b.append(extents).append(" extents of ").append(extentBytes).append(" bytes");
        return b.toString();
    }

    /**
     * Where the space between {@code target} and the file's end is, for the log of a round: free
     * space below the target (in slots and in free extents), what is in use above it, and the
     * highest record in use (what keeps the file from ending lower).
     */
    static String describeTail(SlotAllocator a, long target) {
        long freeSlotsBelow = 0;
        long freeExtentsBelow = 0;
        long freeAbove = 0;
        Item top = null;
        for (Item i : layout(a)) {
            long free = i.freeExtent ? i.end - i.offset : i.classIndex >= 0 ? (long) i.free * SizeClasses.SLOT_BYTES[i.classIndex] : 0;
            if (i.end <= target) {
                if (i.freeExtent) {
                    freeExtentsBelow += free;
                } else {
                    freeSlotsBelow += free;
                }
            } else {
                freeAbove += free;
            }
            if (!i.freeExtent && (i.classIndex < 0 || i.used > 0)) {
                top = i;
            }
        }
        String held = top == null ? "nothing"
                : top.classIndex >= 0 ? String.format("a region of %d x %d B slots at %d (%d in use)", top.used + top.free,
                        SizeClasses.SLOT_BYTES[top.classIndex], top.offset, top.used)
                : String.format("an extent of %d bytes at %d", top.end - top.offset, top.offset);
        return String.format("file end %d, target %d: below it %d bytes free in slots and %d in free extents; above it %d"
                        + " bytes in use (%s) and %d free; the highest in use: %s", a.fileEnd, target, freeSlotsBelow,
                freeExtentsBelow, bytesInUseAbove(a, target), describeAbove(a, target), freeAbove, held);
    }

    /**
     * Cuts every wholly free region and free extent off the end of the file, lowering
     * {@code a.fileEnd}; the bitmap records of removed regions go to {@code freedRecords} (the
     * last commit point still names them). Returns the bytes cut off.
     */
    static long trim(SlotAllocator a, LongConsumer freedRecords) {
        long before = a.fileEnd;
        while (true) {
            Map.Entry<Long, Long> extent = a.freeExtents.lastEntry();
            if (extent != null && extent.getKey() + extent.getValue() == a.fileEnd) {
                a.freeExtents.remove(extent.getKey());
                a.fileEnd = extent.getKey();
                continue;
            }
            Map.Entry<Long, Region> last = a.regions.lastEntry();
            if (last != null && last.getValue().endOffset() == a.fileEnd && last.getValue().usedCount == 0) {
                Region r = last.getValue();
                a.removeRegion(r);
                if (r.bitmapAddress != Journal.NULL) {
                    freedRecords.accept(r.bitmapAddress);
                }
                a.fileEnd = r.offset;
                continue;
            }
            return before - a.fileEnd;
        }
    }

    /** Marks the regions {@code plan} empties (all unmarked if it is null): no slot of them is handed out. */
    static void markEvacuating(SlotAllocator a, CompactionPlan plan) {
        for (Region r : a.regions.values()) {
            r.evacuating = plan != null && plan.evacuatesOffset(r.offset);
        }
    }

    /**
     * What {@code plan} still empties as the allocator stands now: its target and the regions below
     * it still marked (regions made since in emptied space are not).
     */
    static CompactionPlan evacuationNow(SlotAllocator a, CompactionPlan plan) {
        List<Region> marked = new ArrayList<>();
        for (Region r : a.regions.values()) {
            if (r.evacuating && r.offset < plan.target()) {
                marked.add(r);
            }
        }
        long[] starts = new long[marked.size()];
        long[] ends = new long[marked.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = marked.get(i).offset;
            ends[i] = marked.get(i).endOffset();
        }
        return new CompactionPlan(plan.target(), plan.fileEnd(), starts, ends);
    }

    /**
     * Marks dirty every region whose bitmap record, and touches every table page whose record, lies
     * in space {@code plan} empties, so the next commit writes them elsewhere; returns how many.
     */
    static int dirtyBitmapsIn(SlotAllocator a, CompactionPlan plan) {
        int n = 0;
        for (Region r : a.regions.values()) {
            if (r.bitmapAddress != Journal.NULL && plan.evacuates(r.bitmapAddress) && a.dirty.add(r)) {
                n++;
            }
        }
        for (Map.Entry<Long, RegionTable.PageRef> e : a.table.pages.entrySet()) {
            if (plan.evacuates(e.getValue().address()) && a.table.touched.add(e.getKey())) {
                n++;
            }
        }
        return n;
    }
}
