package dev.basalt.store.journal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Encodes the RW allocator's state record: file end, the oldest readable commit point, where each
 * page of the region table is stored (each page and each region's bitmap is its own record,
 * rewritten only when it changed, see {@link RegionTable}), the deferred frees. Decodes version 2
 * (the one written) and version 1, whose record holds the whole region table and free extents
 * itself. See docs/FORMAT.md, "Allocator state record".
 *
 * <p>Stateless; it reads and fills the allocator's structures only for the thread holding the
 * {@link Journal}'s monitor.
 */
final class AllocatorStateCodec {
    static final int VERSION = 2;
    /** The version whose record lists every region and free extent itself (read, never written). */
    static final int VERSION_WHOLE_TABLE = 1;
    private static final int PAGE_REF_BYTES = 4 + 8 + 4;

    record RegionEntry(int classIndex, long offset, int slotCount, long bitmapAddress, int bitmapCrc) {
    }

    record SegmentRef(long address, int crc, int released) {
    }

    /**
     * A decoded state record: of version 1, {@code regions} and {@code freeExtents} hold the whole
     * table and {@code pages} is empty; of version 2, {@code pages} says where the table's pages are.
     */
    record Decoded(int version, long fileEnd, long oldestReadable, int pageShift, java.util.TreeMap<Long, RegionTable.PageRef> pages,
                   List<RegionEntry> regions, List<long[]> freeExtents, List<SegmentRef> segments,
                   List<DeferredFrees.Group> tail) {
    }

    private AllocatorStateCodec() {
    }

    /** Size of the encoded state with {@code pages} table pages, {@code segments} sealed segments and {@code tail} tail groups. */
    static int size(int pages, int segments, int tail) {
        long n = 1 + 8 + 8 + 1 + 4 + (long) PAGE_REF_BYTES * pages
                + 4 + 16L * segments + 4 + (long) DeferredFrees.DESCRIPTOR_BYTES * tail;
        if (n > RecordStore.MAX_RECORD_BYTES) {
            throw new StoreException("allocator state of " + n + " bytes exceeds the record limit");
        }
        return (int) n;
    }

    static ByteBuffer encode(SlotAllocator a, DeferredFrees d, long oldestReadable) {
        RegionTable t = a.table;
        ByteBuffer b = ByteBuffer.allocate(size(t.pages.size(), d.sealed.size(), d.tail.size()));
        b.put((byte) VERSION).putLong(a.fileEnd).putLong(oldestReadable).put((byte) t.shift).putInt(t.pages.size());
        for (Map.Entry<Long, RegionTable.PageRef> e : t.pages.entrySet()) {
            b.putInt((int) (long) e.getKey()).putLong(e.getValue().address()).putInt(e.getValue().crc());
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
            if (version != VERSION && version != VERSION_WHOLE_TABLE) {
                throw new CorruptRecordException(address, "allocator state version " + version
                        + " is unknown (this Basalt reads versions " + VERSION_WHOLE_TABLE + " and " + VERSION + ")");
            }
            long fileEnd = b.getLong();
            long oldestReadable = b.getLong();
            List<RegionEntry> regions = new ArrayList<>();
            List<long[]> extents = new ArrayList<>();
            java.util.TreeMap<Long, RegionTable.PageRef> pages = new java.util.TreeMap<>();
            int shift = RegionTable.MIN_SHIFT;
            if (version == VERSION_WHOLE_TABLE) {
                int n = b.getInt();
                for (int i = 0; i < n; i++) {
                    int c = b.get() & 0xff;
                    if (c >= SizeClasses.SLOT_BYTES.length) {
                        throw new CorruptRecordException(address, "allocator state names size class " + c);
                    }
                    regions.add(new RegionEntry(c, b.getLong(), b.getInt(), b.getLong(), b.getInt()));
                }
                int e = b.getInt();
                for (int i = 0; i < e; i++) {
                    extents.add(new long[]{b.getLong(), b.getLong()});
                }
            } else {
                shift = b.get() & 0xff;
                if (shift < RegionTable.MIN_SHIFT || shift > RegionTable.MAX_SHIFT) {
                    throw new CorruptRecordException(address, "allocator state names page shift " + shift);
                }
                int n = b.getInt();
                long last = -1;
                for (int i = 0; i < n; i++) {
                    long page = b.getInt() & 0xffffffffL;
                    if (page <= last) {
                        throw new CorruptRecordException(address, "allocator state lists table page " + page + " out of order");
                    }
                    last = page;
                    pages.put(page, new RegionTable.PageRef(b.getLong(), b.getInt()));
                }
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
            return new Decoded(version, fileEnd, oldestReadable, shift, pages, regions, extents, segments, tail);
        } catch (java.nio.BufferUnderflowException | NegativeArraySizeException ex) {
            throw new CorruptRecordException(address, "allocator state record is truncated");
        }
    }
}
