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

    SlotAllocator(long fileEnd, long maxFileEnd, String fileName) {
        this.fileEnd = fileEnd;
        this.maxFileEnd = maxFileEnd <= 0 ? Long.MAX_VALUE : maxFileEnd;
        this.fileName = fileName;
        for (int i = 0; i < SizeClasses.SLOT_BYTES.length; i++) {
            withFree.add(new ArrayList<>());
        }
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
        // a free slot of this class, else of the next larger one, before the file grows: segregated
        // classes otherwise strand freed space when a workload's record sizes shift between commits
        for (int k = c; k < Math.min(c + 2, SizeClasses.SLOT_BYTES.length); k++) {
            long address = takeFrom(withFree.get(k));
            if (address != NULL_ADDRESS) {
                return address;
            }
        }
        List<Region> candidates = withFree.get(c);
        int slots = SizeClasses.slotsForNewRegion(c, classBytes[c]);
        Region r = new Region(c, fileEnd, slots, new java.util.BitSet(slots));
        grow(r.endOffset());
        addRegion(r);
        long off = r.take();
        dirty.add(r);
        if (!r.hasFree()) {
            candidates.remove(r);
        }
        return Addresses.of(off, r.slotBytes);
    }

    private static final long NULL_ADDRESS = 0;

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
        long len = Addresses.span(address);
        Map.Entry<Long, Long> before = freeExtents.floorEntry(off);
        if (before != null && before.getKey() + before.getValue() > off) {
            throw new IllegalStateException("extent " + Addresses.describe(address) + " is already free");
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
