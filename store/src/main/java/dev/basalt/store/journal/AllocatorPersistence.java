package dev.basalt.store.journal;

import dev.basalt.store.io.LongArray;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
            for (AllocatorStateCodec.RegionEntry e : s.regions()) {
                ByteBuffer bits = records.read(e.bitmapAddress(), e.bitmapCrc());
                long[] words = new long[bits.remaining() / 8];
                bits.asLongBuffer().get(words);
                Region region = new Region(e.classIndex(), e.offset(), e.slotCount(), BitSet.valueOf(words));
                region.bitmapAddress = e.bitmapAddress();
                region.bitmapCrc = e.bitmapCrc();
                a.addRegion(region);
            }
            for (long[] ext : s.freeExtents()) {
                a.freeExtents.put(ext[0], ext[1]);
            }
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
     * previous state record), changed region bitmaps and the state record; returns {address, crc}
     * of the latter. Slots for all of them are reserved first, until reserving no longer changes
     * which regions are dirty (a fixed point), so every bitmap written describes the final
     * allocation, including the metadata's own slots.
     */
    static long[] write(SlotAllocator alloc, DeferredFrees deferred, LongArray freed, long previousState, long counter,
                        long time, long oldestReadable, RecordFraming records) {
        if (previousState != RecordStore.NULL) {
            freed.add(previousState);
        }
        Map<Region, Long> bitmapSlots = new HashMap<>();
        long groupSlot = RecordStore.NULL;
        long segmentSlot = RecordStore.NULL;
        long stateSlot = RecordStore.NULL;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Region r : alloc.dirty.toArray(new Region[0])) {
                if (!bitmapSlots.containsKey(r)) {
                    if (r.bitmapAddress != RecordStore.NULL) {
                        freed.add(r.bitmapAddress);
                        r.bitmapAddress = RecordStore.NULL;
                    }
                    bitmapSlots.put(r, alloc.allocate(r.bitmapBytes() + RECORD_HEADER));
                    changed = true;
                }
            }
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
            int need = AllocatorStateCodec.size(alloc, deferred.sealed.size() + (seal ? 1 : 0), seal ? 0 : tail)
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
        ByteBuffer state = AllocatorStateCodec.encode(alloc, deferred, oldestReadable);
        int crc = records.write(stateSlot, state);
        return new long[]{stateSlot, crc & 0xffffffffL};
    }
}
