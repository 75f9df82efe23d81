package dev.basalt.store.journal;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Space management of an RW journal: size-classed slot regions for records up to
 * {@link SizeClasses#MAX_SLOT} bytes and first-fit extents for larger ones, both carved from the
 * end of the file when nothing free fits; a region with no slot in use goes back to the free
 * extents at the next commit. Not thread-safe; the {@link Journal} serialises calls.
 *
 * <p>The free extents' operations (coalescing, first fit, carving a region) are {@link FreeExtents}'s.
 *
 * <p>The allocator knows nothing about commits: the journal decides when a freed address is
 * released here ({@link #release}) and when fresh marks are cleared ({@link #markCommitted}).
 */
final class SlotAllocator {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SlotAllocator.class);
    /** The stored form of {@link #regions} and {@link #freeExtents}, paged by file offset. */
    final RegionTable table = new RegionTable();
    /** Every region by start offset, to find the region of an address. */
    final TreeMap<Long, Region> regions = new RegionTable.TrackedMap<>(table);
    /** Per size class, the regions with a free slot in offset order (lowest first). */
    private final List<java.util.TreeSet<Region>> withFree = new ArrayList<>();
    private final long[] classBytes = new long[SizeClasses.SLOT_BYTES.length];
    /** Bytes of free slots over all regions. */
    private long freeSlotBytes;
    /** Free extents: offset to length, coalesced. */
    final TreeMap<Long, Long> freeExtents = new RegionTable.TrackedMap<>(table);
    private final Set<Long> freshExtents = new HashSet<>();
    /** Regions that had no slot in use when last changed: the next commit dissolves those still empty. */
    private final Set<Region> emptied = new HashSet<>();
    /** Regions changed since the last commit, whose bitmaps the next commit rewrites. */
    final java.util.LinkedHashSet<Region> dirty = new java.util.LinkedHashSet<>();
    long fileEnd;
    /** The file may not grow past this (the configured limit); growing past it fails like a full disk. */
    private final long maxFileEnd;
    private final String fileName;
    /**
     * While online compaction runs: what it empties, so moved records and new writes leave that
     * space alone (see {@link #allocateCompacting}); null when none runs.
     */
    CompactionPlan plan;
    /**
     * While a plan is set: bytes of slots and extents handed out outside the space it keeps below
     * its target (the space below the target was full), for the next round's plan to keep free.
     */
    long overflowBytes;

    SlotAllocator(long fileEnd, long maxFileEnd, String fileName) {
        this.fileEnd = fileEnd;
        this.maxFileEnd = maxFileEnd <= 0 ? Long.MAX_VALUE : maxFileEnd;
        this.fileName = fileName;
        for (int i = 0; i < SizeClasses.SLOT_BYTES.length; i++) {
            withFree.add(new java.util.TreeSet<>(java.util.Comparator.comparingLong((Region r) -> r.offset)));
        }
    }

    /** Forgets a wholly free region at the end of the file (see {@link FileTail#trim}). */
    void removeRegion(Region r) {
        regions.remove(r.offset);
        classBytes[r.classIndex] -= (long) r.slotCount * r.slotBytes;
        freeSlotBytes -= (long) (r.slotCount - r.usedCount) * r.slotBytes;
        withFree.get(r.classIndex).remove(r);
        dirty.remove(r);
        emptied.remove(r);
    }

    void addRegion(Region r) {
        regions.put(r.offset, r);
        classBytes[r.classIndex] += (long) r.slotCount * r.slotBytes;
        freeSlotBytes += (long) (r.slotCount - r.usedCount) * r.slotBytes;
        if (r.hasFree()) {
            withFree.get(r.classIndex).add(r);
        }
        if (r.usedCount == 0) {
            emptied.add(r);
        }
    }

    /**
     * Allocates space for a record of {@code recordBytes} (payload plus header) and returns its
     * address: a free slot of its class or the next larger one in the lowest region that has one
     * (segregated classes otherwise strand freed space when a workload's record sizes shift), else
     * a new region in the lowest free extent that holds 16 KiB of it, else a free slot of a class
     * up to twice as large, else a region of at least 4 KiB in the lowest free piece that holds it,
     * and only then at the file's end. A new region has 16 KiB of slots (or a 256th of the file
     * if that is more) when 64 KiB or more are free in slots, else its full size. Low space first
     * keeps the file's tail free, so a compaction has less to move and what it frees below its cut
     * is used again rather than the file growing; the fallbacks before growing let steady writes
     * whose pages move between classes use the space other classes left (empty regions become free
     * extents at each commit, see {@link #dissolveEmptyRegions}). Slots of a larger class are taken
     * only from regions carved before this commit ({@link Region#carvedUncommitted}), so a record's
     * slot size does not depend on how the writers of one transaction interleave.
     */
    long allocate(int recordBytes) {
        int c = SizeClasses.classFor(recordBytes);
        if (c < 0) {
            return allocateExtent(recordBytes);
        }
        if (plan != null) {
            return allocateCompacting(c);
        }
        long address = takeLowest(c, Use.ANY);
        if (address != NULL_ADDRESS) {
            return address;
        }
        int slots = SizeClasses.slotsForNewRegion(c, classBytes[c], fileEnd);
        if (freeSlotBytes >= SizeClasses.MIN_REGION_BYTES) {
            // slots of other classes are free, and churn frees more: a small region, so the space
            // of a region that stays partly used is small and free extents serve other classes too
            long small = Math.max(CARVED_REGION_BYTES, fileEnd / SMALL_REGION_FILE_SHARE);
            slots = Math.min(slots, Math.max(1, (int) (small / SizeClasses.SLOT_BYTES[c])));
        }
        Region r = FreeExtents.carveRegion(freeExtents, c, slots, carvedSlots(c, slots), Long.MAX_VALUE);
        if (r == null && (address = takeLarger(c)) != NULL_ADDRESS) {
            return address;
        }
        if (r == null) {
            r = FreeExtents.carveRegion(freeExtents, c, slots, minSlotsCarved(c), Long.MAX_VALUE);
        }
        if (r == null) {
            if (LOG.isDebugEnabled()) {
                logGrowth(c, slots);
            }
            r = new Region(c, fileEnd, slots, new java.util.BitSet(slots));
            grow(r.endOffset());
        }
        return takeFromNew(r);
    }

    /**
     * At debug level: why a new region goes to the file's end (the free space there is, by class,
     * and in free extents), to find what keeps steady writes from reusing it.
     */
    private void logGrowth(int c, int slots) {
        long slotsFree = 0;
        long[] perClass = new long[SizeClasses.SLOT_BYTES.length];
        for (Region r : regions.values()) {
            long f = (long) (r.slotCount - r.usedCount) * r.slotBytes;
            slotsFree += f;
            perClass[r.classIndex] += f;
        }
        long extentBytes = 0;
        long largest = 0;
        for (long len : freeExtents.values()) {
            extentBytes += len;
            largest = Math.max(largest, len);
        }
        StringBuilder byClass = new StringBuilder();
        for (int k = 0; k < perClass.length; k++) {
            if (perClass[k] > 0) {
                byClass.append(' ').append(SizeClasses.SLOT_BYTES[k]).append(':').append(perClass[k]);
            }
        }
        LOG.debug("{}: new region of {} x {} B slots at the file's end {}: free slots {} B (by slot size{}),"
                        + " free extents {} B (largest {} B)", fileName, slots, SizeClasses.SLOT_BYTES[c], fileEnd,
                slotsFree, byClass, extentBytes, largest);
    }

    /**
     * While online compaction runs: the lowest slot below the target outside the emptied regions,
     * else a small new region in free space below the target (a single slot of a large class if
     * that is what fits). When that space is full (writes going on meanwhile outgrew it), the
     * record overflows to the lowest space there is: a free slot of its class or the next in any
     * region, emptied or not, or a small region in the lowest free extent, whichever lies lower,
     * and only then a small region at the file's end. Low overflow keeps the file's end low: the
     * round cuts the file just above what overflowed, and the next round moves it. Small regions
     * keep the overflow, and the space a round leaves partly used, to a few KiB per size class.
     */
    private long allocateCompacting(int c) {
        long address = takeLowest(c, Use.BELOW_TARGET);
        if (address != NULL_ADDRESS) {
            return address;
        }
        int small = carvedSlots(c, SizeClasses.slotsForNewRegion(c, classBytes[c], fileEnd));
        int fewest = Math.min(small, minSlotsBelowTarget(c));
        Region r = FreeExtents.carveRegion(freeExtents, c, small, fewest, plan.target());
        if (r != null) {
            return takeFromNew(r);
        }
        Region lowest = null;
        for (int k = c; k < Math.min(c + 2, SizeClasses.SLOT_BYTES.length); k++) {
            java.util.TreeSet<Region> candidates = withFree.get(k);
            if (!candidates.isEmpty() && (lowest == null || candidates.first().offset < lowest.offset)) {
                lowest = candidates.first();
            }
        }
        long extentAt = FreeExtents.lowestHolding(freeExtents, (long) fewest * SizeClasses.SLOT_BYTES[c]);
        if (lowest != null && (extentAt < 0 || lowest.offset < extentAt)) {
            long off = take(lowest);
            if (!lowest.hasFree()) {
                withFree.get(lowest.classIndex).remove(lowest);
            }
            if (off >= 0) {
                overflowBytes += lowest.slotBytes;
                return Addresses.of(off, lowest.slotBytes);
            }
        }
        overflowBytes += SizeClasses.SLOT_BYTES[c];
        r = extentAt < 0 ? null : FreeExtents.carveRegion(freeExtents, c, small, fewest, Long.MAX_VALUE);
        if (r == null) {
            r = new Region(c, fileEnd, small, new java.util.BitSet(small));
            grow(r.endOffset());
        }
        return takeFromNew(r);
    }

    /**
     * The fewest slots of a region made below a compaction's target: 8, or fewer of large classes
     * (down to one slot), so that the free pieces between the regions left there hold the large
     * pages the plan counted on.
     */
    private static int minSlotsBelowTarget(int c) {
        return Math.max(1, Math.min(8, (int) (MIN_CARVED_PIECE / SizeClasses.SLOT_BYTES[c])));
    }

    /**
     * The fewest slots of a region made in a free piece of the file when the alternative is growing
     * the file: 4 KiB of slots (one slot of the classes above 4 KiB).
     */
    private static int minSlotsCarved(int c) {
        return Math.max(1, (int) (MIN_CARVED_PIECE / SizeClasses.SLOT_BYTES[c]));
    }

    private static final long MIN_CARVED_PIECE = 4096;

    /**
     * A free slot of a class above c + 1 of at most twice c's slot size, in the lowest region with
     * one: the last resort before the file grows, so space freed by records that grew into a
     * larger class is used while it is free.
     */
    private long takeLarger(int c) {
        int limit = 2 * SizeClasses.SLOT_BYTES[c];
        for (int k = c + 2; k < SizeClasses.SLOT_BYTES.length && SizeClasses.SLOT_BYTES[k] <= limit; k++) {
            java.util.TreeSet<Region> candidates = withFree.get(k);
            for (java.util.Iterator<Region> it = candidates.iterator(); it.hasNext(); ) {
                Region r = it.next();
                if (r.carvedUncommitted) {
                    continue; // its own class is filling it (see Region#carvedUncommitted)
                }
                long address = takeListed(r, it);
                if (address != NULL_ADDRESS) {
                    return address;
                }
            }
        }
        return NULL_ADDRESS;
    }

    /** Slots of a region carved from free space: about {@link #CARVED_REGION_BYTES}, at least 8, at most {@code slots}. */
    private static int carvedSlots(int c, int slots) {
        return Math.min(slots, Math.max(8, (int) (CARVED_REGION_BYTES / SizeClasses.SLOT_BYTES[c])));
    }

    private long takeFromNew(Region r) {
        r.carvedUncommitted = true;
        addRegion(r);
        long off = take(r);
        if (!r.hasFree()) {
            withFree.get(r.classIndex).remove(r);
        }
        return Addresses.of(off, r.slotBytes);
    }

    /**
     * A free slot of {@code r}, which {@code it} (over its class's regions with free slots) has just
     * returned, as an address, or {@link #NULL_ADDRESS} if it is full; a region left full leaves the list.
     */
    private long takeListed(Region r, java.util.Iterator<Region> it) {
        long off = take(r);
        if (!r.hasFree()) {
            it.remove();
        }
        return off >= 0 ? Addresses.of(off, r.slotBytes) : NULL_ADDRESS;
    }

    /** A free slot of {@code r} (its offset, or -1 if it is full), marking the region changed. */
    private long take(Region r) {
        long off = r.take();
        dirty.add(r);
        if (off >= 0) {
            freeSlotBytes -= r.slotBytes;
        }
        return off;
    }

    private static final long NULL_ADDRESS = 0;
    /** A small region is 16 KiB or this share of the file, so a large file's region table stays short. */
    private static final long SMALL_REGION_FILE_SHARE = 256;
    /** Size of the regions made in free extents when a full-size one does not fit, and during online compaction. */
    static final long CARVED_REGION_BYTES = 16 * 1024;

    /**
     * Turns every region without a slot in use into free extent space, where regions of any class
     * (or extents) can be made again; calls {@code freedBitmap} with the bitmap record of each.
     * Returns the bytes turned over. Only regions that became empty since the last call are looked
     * at, so a commit pays for what it released, not for the size of the region table.
     */
    long dissolveEmptyRegions(java.util.function.LongConsumer freedBitmap) {
        long bytes = 0;
        Region[] candidates = emptied.toArray(new Region[0]);
        emptied.clear();
        java.util.Arrays.sort(candidates, java.util.Comparator.comparingLong((Region r) -> r.offset));
        for (Region r : candidates) {
            if (r.usedCount == 0 && regions.get(r.offset) == r) {
                removeRegion(r);
                FreeExtents.add(freeExtents, r.offset, r.endOffset() - r.offset);
                if (r.bitmapAddress != NULL_ADDRESS) {
                    freedBitmap.accept(r.bitmapAddress);
                }
                bytes += r.endOffset() - r.offset;
            }
        }
        return bytes;
    }

    /** Which regions {@link #takeLowest} may take a slot from. */
    private enum Use {
        /** any region */
        ANY,
        /** regions ending at or below the compaction's target that it does not empty */
        BELOW_TARGET
    }

    /** A slot of class c or c + 1 in the lowest region with a free slot that {@code use} allows. */
    private long takeLowest(int c, Use use) {
        for (int k = c; k < Math.min(c + 2, SizeClasses.SLOT_BYTES.length); k++) {
            java.util.TreeSet<Region> candidates = withFree.get(k);
            for (java.util.Iterator<Region> it = candidates.iterator(); it.hasNext(); ) {
                Region r = it.next();
                if (use == Use.BELOW_TARGET && r.endOffset() > plan.target()) {
                    break; // in offset order: every later region ends above the target too
                }
                if (use != Use.ANY && r.evacuating) {
                    continue;
                }
                if (k > c && use == Use.ANY && r.carvedUncommitted) {
                    continue; // its own class is filling it (see Region#carvedUncommitted)
                }
                long address = takeListed(r, it);
                if (address != NULL_ADDRESS) {
                    return address;
                }
            }
        }
        return NULL_ADDRESS;
    }

    private long allocateExtent(int recordBytes) {
        long len = ((recordBytes + (long) SizeClasses.EXTENT_GRAIN - 1) / SizeClasses.EXTENT_GRAIN) * SizeClasses.EXTENT_GRAIN;
        if (len > Addresses.MAX_SPAN) {
            throw new StoreException("a record of " + recordBytes + " bytes exceeds the largest extent ("
                    + Addresses.MAX_SPAN + " bytes)");
        }
        long taken = FreeExtents.takeLowest(freeExtents, len);
        if (taken >= 0) {
            freshExtents.add(taken);
            if (plan != null && plan.evacuatesOffset(taken)) {
                overflowBytes += len;
            }
            return Addresses.of(taken, len);
        }
        if (plan != null) {
            overflowBytes += len;
        }
        long off = fileEnd;
        grow(fileEnd + len);
        freshExtents.add(off);
        return Addresses.of(off, len);
    }

    private void grow(long newEnd) {
        if (newEnd > maxFileEnd) {
            throw new JournalFullException(fileName, newEnd, maxFileEnd);
        }
        fileEnd = newEnd;
    }

    /** True if the address was allocated since the last commit. */
    boolean isFresh(long address) {
        long off = Addresses.offset(address);
        Region r = regionOf(address);
        if (r != null) {
            return r.fresh.get(r.slotIndex(off));
        }
        return freshExtents.contains(off);
    }

    /** Returns the space of {@code address} to the free pool. */
    void release(long address) {
        long off = Addresses.offset(address);
        Region r = regionOf(address);
        if (r != null) {
            boolean wasFull = !r.hasFree();
            r.release(r.slotIndex(off));
            freeSlotBytes += r.slotBytes;
            dirty.add(r);
            if (wasFull) {
                withFree.get(r.classIndex).add(r);
            }
            if (r.usedCount == 0 && r.carvedUncommitted && plan == null) {
                // carved and emptied in this transaction (a bulk merge's old pages): no commit point
                // knows it, so its space serves every class at once rather than only after the commit
                removeRegion(r);
                FreeExtents.add(freeExtents, r.offset, r.endOffset() - r.offset);
            } else if (r.usedCount == 0) {
                emptied.add(r);
            }
            return;
        }
        freshExtents.remove(off);
        FreeExtents.add(freeExtents, off, Addresses.span(address));
    }

    /** The region holding a slot address, or null if the address is an extent. */
    Region regionOf(long address) {
        int span = Addresses.span(address);
        if (span > SizeClasses.MAX_SLOT) {
            return null;
        }
        long off = Addresses.offset(address);
        Map.Entry<Long, Region> e = regions.floorEntry(off);
        if (e == null || e.getValue().slotBytes != span || e.getValue().slotIndex(off) < 0) {
            throw new CorruptRecordException(address, "address is not a slot of any region");
        }
        return e.getValue();
    }

    /** True if the space of {@code address} is in use (allocated, or freed but not yet released). */
    boolean isInUse(long address) {
        long off = Addresses.offset(address);
        Region r = regionOf(address);
        if (r != null) {
            return r.used.get(r.slotIndex(off));
        }
        Map.Entry<Long, Long> e = freeExtents.floorEntry(off + Addresses.span(address) - 1);
        boolean overlapsFree = e != null && e.getKey() + e.getValue() > off;
        return !overlapsFree && off + Addresses.span(address) <= fileEnd;
    }

    void markCommitted() {
        for (Region r : dirty) {
            r.fresh.clear();
            r.carvedUncommitted = false;
        }
        dirty.clear();
        freshExtents.clear();
    }

    long bytesInUse() {
        long total = fileEnd - Journal.DATA_START;
        for (Region r : regions.values()) {
            total -= (long) (r.slotCount - r.usedCount) * r.slotBytes;
        }
        for (long len : freeExtents.values()) {
            total -= len;
        }
        return total;
    }
}
