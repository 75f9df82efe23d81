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
 * end of the file when nothing free fits. Not thread-safe; the {@link Journal} serialises calls.
 *
 * <p>The allocator knows nothing about commits: the journal decides when a freed address is
 * released here ({@link #release}) and when fresh marks are cleared ({@link #markCommitted}).
 */
final class SlotAllocator {
    /** Every region by start offset, to find the region of an address. */
    final TreeMap<Long, Region> regions = new TreeMap<>();
    private final List<List<Region>> withFree = new ArrayList<>();
    private final long[] classBytes = new long[SizeClasses.SLOT_BYTES.length];
    /** Free extents: offset to length, coalesced. */
    final TreeMap<Long, Long> freeExtents = new TreeMap<>();
    private final Set<Long> freshExtents = new HashSet<>();
    /** Regions changed since the last commit, whose bitmaps the next commit rewrites. */
    final java.util.LinkedHashSet<Region> dirty = new java.util.LinkedHashSet<>();
    long fileEnd;
    /** The file may not grow past this (the configured limit); growing past it fails like a full disk. */
    private final long maxFileEnd;
    private final String fileName;
    /**
     * While online compaction runs: slots are taken from the lowest region that ends below its
     * target and is not being emptied, else from a new region made in free space below the target,
     * and only then from the file's end, so moved records and new writes leave the evacuated
     * space alone (null = off).
     */
    CompactionPlan plan;

    SlotAllocator(long fileEnd, long maxFileEnd, String fileName) {
        this.fileEnd = fileEnd;
        this.maxFileEnd = maxFileEnd <= 0 ? Long.MAX_VALUE : maxFileEnd;
        this.fileName = fileName;
        for (int i = 0; i < SizeClasses.SLOT_BYTES.length; i++) {
            withFree.add(new ArrayList<>());
        }
    }

    /** Forgets a wholly free region at the end of the file (see {@link FileTail#trim}). */
    void removeRegion(Region r) {
        regions.remove(r.offset);
        classBytes[r.classIndex] -= (long) r.slotCount * r.slotBytes;
        withFree.get(r.classIndex).remove(r);
        dirty.remove(r);
    }

    void addRegion(Region r) {
        regions.put(r.offset, r);
        classBytes[r.classIndex] += (long) r.slotCount * r.slotBytes;
        if (r.hasFree()) {
            withFree.get(r.classIndex).add(r);
        }
    }

    /** Allocates space for a record of {@code recordBytes} (payload plus header) and returns its address. */
    long allocate(int recordBytes) {
        int c = SizeClasses.classFor(recordBytes);
        if (c < 0) {
            return allocateExtent(recordBytes);
        }
        if (plan != null) {
            long address = takeLowest(c, false);
            if (address != NULL_ADDRESS) {
                return address;
            }
            int slots = SizeClasses.slotsForNewRegion(c, classBytes[c]);
            // small regions below the target, so that the free space there serves many classes
            int small = Math.min(slots, Math.max(8, (int) (CARVED_REGION_BYTES / SizeClasses.SLOT_BYTES[c])));
            Region r = carveRegion(c, small, plan.target());
            if (r == null && (address = takeLowest(c, true)) != NULL_ADDRESS) {
                return address;
            }
            if (r == null) {
                r = carveRegion(c, slots, Long.MAX_VALUE);
            }
            if (r == null) {
                r = new Region(c, fileEnd, slots, new java.util.BitSet(slots));
                grow(r.endOffset());
            }
            return takeFromNew(r);
        }
        // a free slot of this class, else of the next larger one, before the file grows: segregated
        // classes otherwise strand freed space when a workload's record sizes shift between commits
        for (int k = c; k < Math.min(c + 2, SizeClasses.SLOT_BYTES.length); k++) {
            long address = takeFrom(withFree.get(k));
            if (address != NULL_ADDRESS) {
                return address;
            }
        }
        int slots = SizeClasses.slotsForNewRegion(c, classBytes[c]);
        Region r = new Region(c, fileEnd, slots, new java.util.BitSet(slots));
        grow(r.endOffset());
        return takeFromNew(r);
    }

    private long takeFromNew(Region r) {
        addRegion(r);
        long off = r.take();
        dirty.add(r);
        if (!r.hasFree()) {
            withFree.get(r.classIndex).remove(r);
        }
        return Addresses.of(off, r.slotBytes);
    }

    private static final long NULL_ADDRESS = 0;
    /** Size of the regions online compaction makes in free space below its target. */
    static final long CARVED_REGION_BYTES = 16 * 1024;

    /**
     * A new region of class c in the lowest free extent below {@code limit} that holds at least 8
     * of its slots (or all {@code slots} wanted), or null. Used while online compaction runs, when
     * empty regions have been turned into free extents (outside it new regions go to the file end).
     */
    private Region carveRegion(int c, int slots, long limit) {
        int slotBytes = SizeClasses.SLOT_BYTES[c];
        for (Map.Entry<Long, Long> e : freeExtents.entrySet()) {
            long off = e.getKey();
            long len = e.getValue();
            if (off >= limit) {
                return null;
            }
            long room = Math.min(len, limit - off);
            int n = (int) Math.min(slots, room / slotBytes);
            if (n >= Math.min(8, slots)) {
                freeExtents.remove(off);
                long taken = (long) n * slotBytes;
                if (len > taken) {
                    freeExtents.put(off + taken, len - taken);
                }
                return new Region(c, off, n, new java.util.BitSet(n));
            }
        }
        return null;
    }

    /**
     * Turns every region without a slot in use into free extent space, where regions of any class
     * (or extents) can be made again; calls {@code freedBitmap} with the bitmap record of each.
     * Returns the bytes turned over.
     */
    long dissolveEmptyRegions(java.util.function.LongConsumer freedBitmap) {
        long bytes = 0;
        for (Region r : new ArrayList<>(regions.values())) {
            if (r.usedCount == 0) {
                removeRegion(r);
                addFreeExtent(r.offset, r.endOffset() - r.offset);
                if (r.bitmapAddress != NULL_ADDRESS) {
                    freedBitmap.accept(r.bitmapAddress);
                }
                bytes += r.endOffset() - r.offset;
            }
        }
        return bytes;
    }

    /**
     * A slot of class c or c + 1 in the lowest region below the plan's target that it does not
     * empty ({@code overflow} false), or in the lowest region anywhere it does not empty (regions
     * made since the plan, when the space below the target is full; the next round moves them).
     */
    private long takeLowest(int c, boolean overflow) {
        for (int k = c; k < Math.min(c + 2, SizeClasses.SLOT_BYTES.length); k++) {
                List<Region> candidates = withFree.get(k);
                int best = -1;
                for (int i = 0; i < candidates.size(); i++) {
                    Region r = candidates.get(i);
                    boolean usable = !overflow ? r.endOffset() <= plan.target() && !r.evacuating
                            : !r.evacuating;
                    if (usable && (best < 0 || r.offset < candidates.get(best).offset)) {
                        best = i;
                    }
                }
                if (best >= 0) {
                    Region r = candidates.get(best);
                    long off = r.take();
                    dirty.add(r);
                    if (!r.hasFree()) {
                        candidates.remove(best);
                    }
                    if (off >= 0) {
                        return Addresses.of(off, r.slotBytes);
                    }
                }
        }
        return NULL_ADDRESS;
    }

    private long takeFrom(List<Region> candidates) {
        while (!candidates.isEmpty()) {
            Region r = candidates.get(candidates.size() - 1);
            long off = r.take();
            dirty.add(r);
            if (!r.hasFree()) {
                candidates.remove(candidates.size() - 1);
            }
            if (off >= 0) {
                return Addresses.of(off, r.slotBytes);
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
        for (Map.Entry<Long, Long> e : freeExtents.entrySet()) {
            if (e.getValue() >= len) {
                // read both before removing: TreeMap's remove may move another mapping into this entry
                long off = e.getKey();
                long have = e.getValue();
                freeExtents.remove(off);
                if (have > len) {
                    freeExtents.put(off + len, have - len);
                }
                freshExtents.add(off);
                return Addresses.of(off, len);
            }
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
            dirty.add(r);
            if (wasFull) {
                withFree.get(r.classIndex).add(r);
            }
            return;
        }
        freshExtents.remove(off);
        addFreeExtent(off, Addresses.span(address));
    }

    /** Adds {@code [off, off + len)} to the free extents, merged with its free neighbours. */
    private void addFreeExtent(long off, long len) {
        Map.Entry<Long, Long> before = freeExtents.floorEntry(off);
        if (before != null && before.getKey() + before.getValue() > off) {
            throw new IllegalStateException("extent at offset " + off + " (" + len + " bytes) is already free");
        }
        if (before != null && before.getKey() + before.getValue() == off) {
            freeExtents.remove(before.getKey());
            off = before.getKey();
            len += before.getValue();
        }
        Long after = freeExtents.get(off + len);
        if (after != null) {
            freeExtents.remove(off + len);
            len += after;
        }
        freeExtents.put(off, len);
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
