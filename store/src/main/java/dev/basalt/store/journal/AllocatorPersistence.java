package dev.basalt.store.journal;

import dev.basalt.store.io.LongArray;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The RW allocator's part of a commit (docs/FORMAT.md 1.6, 1.7): rebuilding the allocator and the
 * deferred frees from the state record a root block names, and writing a commit's deferred-free
 * group, changed region bitmaps and new state record. Stateless; the {@link Journal} calls it under
 * its monitor.
 *
 * <p>It runs on one thread at a time, the one holding the journal's monitor, and the allocator
 * structures it builds and writes stay confined to that monitor.
 */
final class AllocatorPersistence {
    private static final int RECORD_HEADER = RecordFraming.RECORD_HEADER;

    /** The allocator state of one commit point. */
    record Loaded(SlotAllocator alloc, DeferredFrees deferred, long oldestReadable) {
    }

    private AllocatorPersistence() {
    }

    /** Reads the allocator state of {@code r} (an empty allocator ending at its file end if it has none). */
    static Loaded load(RootBlock r, RecordFraming records, long maxFileBytes, String fileName) {
        DeferredFrees d = new DeferredFrees();
        SlotAllocator a = new SlotAllocator(r.fileEnd(), maxFileBytes, fileName);
        long readable = 0;
        if (r.allocatorState() != RecordStore.NULL) {
            AllocatorStateCodec.Decoded s = AllocatorStateCodec.decode(records.read(r.allocatorState(), r.allocatorStateCrc()),
                    r.allocatorState());
            a.fileEnd = s.fileEnd();
            readable = s.oldestReadable();
            List<AllocatorStateCodec.RegionEntry> regions = new ArrayList<>(s.regions());
            List<long[]> extents = new ArrayList<>(s.freeExtents());
            RegionTable t = a.table;
            t.shift = s.pageShift();
            for (Map.Entry<Long, RegionTable.PageRef> e : s.pages().entrySet()) {
                RegionTable.PageRef ref = e.getValue();
                t.decodePage(records.read(ref.address(), ref.crc()), ref.address(), e.getKey(), regions, extents);
                t.pages.put(e.getKey(), ref);
            }
            for (AllocatorStateCodec.RegionEntry e : regions) {
                ByteBuffer bits = records.read(e.bitmapAddress(), e.bitmapCrc());
                long[] words = new long[bits.remaining() / 8];
                bits.asLongBuffer().get(words);
                Region region = new Region(e.classIndex(), e.offset(), e.slotCount(), BitSet.valueOf(words));
                region.bitmapAddress = e.bitmapAddress();
                region.bitmapCrc = e.bitmapCrc();
                a.addRegion(region);
            }
            for (long[] ext : extents) {
                a.freeExtents.put(ext[0], ext[1]);
            }
            t.touched.clear();
            // a state record of version 1 holds the table itself: the next commit writes every page
            t.allTouched = s.version() == AllocatorStateCodec.VERSION_WHOLE_TABLE;
            for (AllocatorStateCodec.SegmentRef ref : s.segments()) {
                List<DeferredFrees.Group> groups = DeferredFrees.decodeSegment(records.read(ref.address(), ref.crc()), ref.address());
                if (ref.released() >= groups.size()) {
                    throw new CorruptRecordException(ref.address(), "deferred-free segment is fully released but still listed");
                }
                d.sealed.add(new DeferredFrees.Segment(ref.address(), ref.crc(), groups, ref.released()));
            }
            d.tail.addAll(s.tail());
        }
        return new Loaded(a, d, readable);
    }

    /**
     * Writes commit {@code counter}'s deferred-free group (what {@code freed} lists, plus the
     * previous state record and every table page and bitmap record it replaces), changed region
     * bitmaps, changed table pages and the state record; returns {address, crc} of the latter.
     * Slots for all of them are reserved first, until reserving no longer changes which regions and
     * pages are dirty (a fixed point), so every bitmap and page written describes the final
     * allocation, including the metadata's own slots.
     */
    static long[] write(SlotAllocator alloc, DeferredFrees deferred, LongArray freed, long previousState, long counter,
                        long time, long oldestReadable, RecordFraming records) {
        if (previousState != RecordStore.NULL) {
            freed.add(previousState);
        }
        RegionTable table = alloc.table;
        int shift = table.chooseShift(alloc.fileEnd, alloc.regions.size() + alloc.freeExtents.size());
        if (shift != table.shift) {
            table.reshape(shift, freed);
        }
        table.expandAllTouched(alloc);
        Map<Region, Long> bitmapSlots = new HashMap<>();
        Map<Long, Long> pageSlots = new TreeMap<>();
        Set<Long> emptyPages = new HashSet<>();
        long groupSlot = RecordStore.NULL;
        long segmentSlot = RecordStore.NULL;
        long stateSlot = RecordStore.NULL;
        boolean changed = true;
        while (changed) {
            changed = false;
            changed |= dropBitmapsOfDissolved(alloc, bitmapSlots);
            for (Region r : alloc.dirty.toArray(new Region[0])) {
                if (!bitmapSlots.containsKey(r)) {
                    if (r.bitmapAddress != RecordStore.NULL) {
                        freed.add(r.bitmapAddress);
                        r.bitmapAddress = RecordStore.NULL;
                    }
                    bitmapSlots.put(r, alloc.allocate(r.bitmapBytes() + RECORD_HEADER));
                    table.touch(r.offset);
                    changed = true;
                }
            }
            changed |= reservePages(alloc, table, pageSlots, emptyPages, freed);
            int groupBytes = 8 * freed.size() + RECORD_HEADER;
            if (!freed.isEmpty() && (groupSlot == RecordStore.NULL || Addresses.span(groupSlot) < groupBytes)) {
                if (groupSlot != RecordStore.NULL) {
                    alloc.release(groupSlot);
                }
                groupSlot = alloc.allocate(groupBytes + groupBytes / 8 + 64);
                changed = true;
            }
            boolean seal = !freed.isEmpty() && deferred.tail.size() + 1 == DeferredFrees.SEGMENT;
            if (seal && segmentSlot == RecordStore.NULL) {
                segmentSlot = alloc.allocate(4 + DeferredFrees.DESCRIPTOR_BYTES * DeferredFrees.SEGMENT + RECORD_HEADER);
                changed = true;
            }
            int tail = deferred.tail.size() + (freed.isEmpty() ? 0 : 1);
            int pages = countPages(table, pageSlots, emptyPages);
            int need = AllocatorStateCodec.size(pages, deferred.sealed.size() + (seal ? 1 : 0), seal ? 0 : tail)
                    + RECORD_HEADER;
            if (stateSlot == RecordStore.NULL || Addresses.span(stateSlot) < need) {
                if (stateSlot != RecordStore.NULL) {
                    alloc.release(stateSlot);
                }
                stateSlot = alloc.allocate(need + need / 4 + 256);
                changed = true;
            }
        }
        if (!freed.isEmpty()) {
            long[] addresses = freed.toArray();
            long bytes = 0;
            for (long a : addresses) {
                bytes += Addresses.span(a);
            }
            int crc = records.write(groupSlot, DeferredFrees.encodeAddresses(addresses));
            deferred.tail.add(new DeferredFrees.Group(counter, time, addresses.length, bytes, groupSlot, crc));
            if (segmentSlot != RecordStore.NULL) {
                int segCrc = records.write(segmentSlot, DeferredFrees.encodeSegment(deferred.tail));
                deferred.sealed.addLast(new DeferredFrees.Segment(segmentSlot, segCrc, new ArrayList<>(deferred.tail), 0));
                deferred.tail.clear();
            }
        }
        for (Map.Entry<Region, Long> e : bitmapSlots.entrySet()) {
            Region r = e.getKey();
            long[] words = r.used.toLongArray();
            ByteBuffer b = ByteBuffer.allocate(r.bitmapBytes());
            b.asLongBuffer().put(words);
            r.bitmapCrc = records.write(e.getValue(), b);
            r.bitmapAddress = e.getValue();
        }
        for (long p : emptyPages) {
            table.pages.remove(p);
        }
        for (Map.Entry<Long, Long> e : pageSlots.entrySet()) {
            int crc = records.write(e.getValue(), table.encodePage(alloc, e.getKey()));
            table.pages.put(e.getKey(), new RegionTable.PageRef(e.getValue(), crc));
        }
        table.touched.clear();
        ByteBuffer state = AllocatorStateCodec.encode(alloc, deferred, oldestReadable);
        int crc = records.write(stateSlot, state);
        return new long[]{stateSlot, crc & 0xffffffffL};
    }

    /**
     * Releases the bitmap slots reserved for regions that are no longer in the table: a region
     * carved in this transaction whose last slot a later round released (a metadata slot moved to a
     * larger one) becomes free space at once, and its bitmap would be a record nothing names.
     * Returns whether any was released.
     */
    private static boolean dropBitmapsOfDissolved(SlotAllocator alloc, Map<Region, Long> bitmapSlots) {
        boolean changed = false;
        for (java.util.Iterator<Map.Entry<Region, Long>> it = bitmapSlots.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Region, Long> e = it.next();
            if (alloc.regions.get(e.getKey().offset) != e.getKey()) {
                it.remove();
                alloc.release(e.getValue());
                changed = true;
            }
        }
        return changed;
    }

    /**
     * Reserves a slot for every touched table page large enough for what it holds now (its stored
     * copy joins {@code freed} the first time), and none for a page left without entries; returns
     * whether any reservation changed.
     */
    private static boolean reservePages(SlotAllocator alloc, RegionTable table, Map<Long, Long> pageSlots,
                                        Set<Long> emptyPages, LongArray freed) {
        boolean changed = false;
        for (Long p : table.touched.toArray(new Long[0])) {
            if (!pageSlots.containsKey(p) && !emptyPages.contains(p)) {
                RegionTable.PageRef old = table.pages.get(p);
                if (old != null) {
                    freed.add(old.address());
                }
            }
            int bytes = table.pageBytes(alloc, p);
            Long slot = pageSlots.get(p);
            if (bytes == 0) {
                if (slot != null) {
                    alloc.release(slot);
                    pageSlots.remove(p);
                    changed = true;
                }
                emptyPages.add(p);
                continue;
            }
            emptyPages.remove(p);
            int need = bytes + RECORD_HEADER;
            if (slot == null || Addresses.span(slot) < need) {
                if (slot != null) {
                    alloc.release(slot);
                }
                pageSlots.put(p, alloc.allocate(need + need / 8)); // a page that grows more in a later round moves
                changed = true;
            }
        }
        return changed;
    }

    /** Pages the state record will list: the stored ones, less those left empty, plus those written now. */
    private static int countPages(RegionTable table, Map<Long, Long> pageSlots, Set<Long> emptyPages) {
        int n = table.pages.size();
        for (long p : emptyPages) {
            if (table.pages.containsKey(p)) {
                n--;
            }
        }
        for (long p : pageSlots.keySet()) {
            if (!table.pages.containsKey(p)) {
                n++;
            }
        }
        return n;
    }
}
