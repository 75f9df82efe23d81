package dev.basalt.store.journal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Encodes the RW allocator's state record: file end, the oldest readable commit point, the region
 * table (each region's bitmap is its own record, rewritten only when the region changed), the free
 * extents and the deferred frees. See docs/FORMAT.md, "Allocator state record".
 *
 * <p>Stateless; it reads and fills the allocator's structures only for the thread holding the
 * {@link Journal}'s monitor.
 */
final class AllocatorStateCodec {
    static final int VERSION = 1;
    private static final int REGION_BYTES = 1 + 8 + 4 + 8 + 4;

    record RegionEntry(int classIndex, long offset, int slotCount, long bitmapAddress, int bitmapCrc) {
    }

    record SegmentRef(long address, int crc, int released) {
    }

    record Decoded(long fileEnd, long oldestReadable, List<RegionEntry> regions, List<long[]> freeExtents,
                   List<SegmentRef> segments, List<DeferredFrees.Group> tail) {
    }

    private AllocatorStateCodec() {
    }

    /** Size of the encoded state with {@code segments} sealed segments and {@code tail} tail groups. */
    static int size(SlotAllocator a, int segments, int tail) {
        long n = 1 + 8 + 8 + 4 + (long) REGION_BYTES * a.regions.size() + 4 + 16L * a.freeExtents.size()
                + 4 + 16L * segments + 4 + (long) DeferredFrees.DESCRIPTOR_BYTES * tail;
        if (n > RecordStore.MAX_RECORD_BYTES) {
            throw new StoreException("allocator state of " + n + " bytes exceeds the record limit");
        }
        return (int) n;
    }

    static ByteBuffer encode(SlotAllocator a, DeferredFrees d, long oldestReadable) {
        ByteBuffer b = ByteBuffer.allocate(size(a, d.sealed.size(), d.tail.size()));
        b.put((byte) VERSION).putLong(a.fileEnd).putLong(oldestReadable).putInt(a.regions.size());
        for (Region r : a.regions.values()) {
            b.put((byte) r.classIndex).putLong(r.offset).putInt(r.slotCount).putLong(r.bitmapAddress).putInt(r.bitmapCrc);
        }
        b.putInt(a.freeExtents.size());
        for (Map.Entry<Long, Long> e : a.freeExtents.entrySet()) {
            b.putLong(e.getKey()).putLong(e.getValue());
        }
        b.putInt(d.sealed.size());
        for (DeferredFrees.Segment seg : d.sealed) {
            b.putLong(seg.address).putInt(seg.crc).putInt(seg.released);
        }
        b.putInt(d.tail.size());
        d.tail.forEach(g -> g.encode(b));
        return b.flip();
    }

    static Decoded decode(ByteBuffer b, long address) {
        try {
            int version = b.get() & 0xff;
            if (version != VERSION) {
                throw new CorruptRecordException(address, "allocator state version " + version + " is unknown");
            }
            long fileEnd = b.getLong();
            long oldestReadable = b.getLong();
            int n = b.getInt();
            List<RegionEntry> regions = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                int c = b.get() & 0xff;
                if (c >= SizeClasses.SLOT_BYTES.length) {
                    throw new CorruptRecordException(address, "allocator state names size class " + c);
                }
                regions.add(new RegionEntry(c, b.getLong(), b.getInt(), b.getLong(), b.getInt()));
            }
            int e = b.getInt();
            List<long[]> extents = new ArrayList<>(e);
            for (int i = 0; i < e; i++) {
                extents.add(new long[]{b.getLong(), b.getLong()});
            }
            int sc = b.getInt();
            List<SegmentRef> segments = new ArrayList<>(sc);
            for (int i = 0; i < sc; i++) {
                segments.add(new SegmentRef(b.getLong(), b.getInt(), b.getInt()));
            }
            int tc = b.getInt();
            List<DeferredFrees.Group> tail = new ArrayList<>(tc);
            for (int i = 0; i < tc; i++) {
                tail.add(DeferredFrees.Group.decode(b));
            }
            return new Decoded(fileEnd, oldestReadable, regions, extents, segments, tail);
        } catch (java.nio.BufferUnderflowException | NegativeArraySizeException ex) {
            throw new CorruptRecordException(address, "allocator state record is truncated");
        }
    }
}
