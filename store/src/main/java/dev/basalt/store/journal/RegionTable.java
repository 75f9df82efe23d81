package dev.basalt.store.journal;

import java.nio.ByteBuffer;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The RW allocator's region table and free extents as stored: cut by file offset into pages of
 * {@code 2^shift} bytes of file, each page its own record (docs/FORMAT.md 1.7, "Table page record"),
 * so a commit rewrites only the pages whose regions or extents changed. It remembers where each
 * page was stored at the last commit and which pages changed since ({@link #touch}); the allocator's
 * two maps ({@link TrackedMap}) touch the page of every key they add or remove, and the commit
 * touches the page of every region whose bitmap it rewrites.
 *
 * <p>Not thread-safe: belongs to the {@link SlotAllocator}, which the {@link Journal} calls under
 * its monitor.
 */
final class RegionTable {
    /** The smallest page span: 64 KiB of file. */
    static final int MIN_SHIFT = 16;
    /** The largest page span the format allows: 2^40 bytes of file. */
    static final int MAX_SHIFT = 40;
    /** A commit picks the page span so that the file has at most this many pages. */
    static final int MAX_PAGES = 256;
    /** A commit picks the page span so that the file has at most one page per this many entries. */
    static final int ENTRIES_PER_PAGE = 8;
    /** {@link #MAX_PAGES}, lowered by tests to make the span change in a small file. */
    int maxPages = MAX_PAGES;
    static final int REGION_BYTES = 1 + 8 + 4 + 8 + 4;
    static final int EXTENT_BYTES = 16;

    /** Where one page is stored. */
    record PageRef(long address, int crc) {
    }

    int shift = MIN_SHIFT;
    /** Page index (offset >> shift) to where the last commit stored it; pages with no entry are absent. */
    final TreeMap<Long, PageRef> pages = new TreeMap<>();
    /** Pages changed since the last commit. */
    final Set<Long> touched = new HashSet<>();
    /** Every page must be written at the next commit (a store of state version 1, or a new page span). */
    boolean allTouched;

    void touch(long offset) {
        touched.add(offset >>> shift);
    }

    long start(long page) {
        return page << shift;
    }

    long end(long page) {
        return (page + 1) << shift;
    }

    /**
     * The page span for a file of {@code fileEnd} bytes with {@code entries} regions and free
     * extents: the smallest for which the file has fewer pages than {@link #maxPages} and than one
     * per {@link #ENTRIES_PER_PAGE} entries (a page's record has its framing and slot rounding, so
     * a small table is cut into few pages). The current span stays unless that one is larger, or
     * smaller by more than 4 (so a file that grows and shrinks around a power of two does not
     * rewrite every page at each commit).
     */
    int chooseShift(long fileEnd, int entries) {
        long pages = Math.max(1, Math.min(maxPages, entries / ENTRIES_PER_PAGE));
        int want = MIN_SHIFT;
        while (want < MAX_SHIFT && (fileEnd >>> want) >= pages) {
            want++;
        }
        return want > shift || want < shift - 4 ? want : shift;
    }

    /**
     * Sets a new page span: every page stored so far goes to {@code freed} and every page with an
     * entry is written at the next commit.
     */
    void reshape(int newShift, dev.basalt.store.io.LongArray freed) {
        for (PageRef ref : pages.values()) {
            freed.add(ref.address());
        }
        pages.clear();
        touched.clear();
        shift = newShift;
        allTouched = true;
    }

    /** If every page is due, touches each page that has a region or an extent. */
    void expandAllTouched(SlotAllocator a) {
        if (!allTouched) {
            return;
        }
        for (long off : a.regions.keySet()) {
            touch(off);
        }
        for (long off : a.freeExtents.keySet()) {
            touch(off);
        }
        touched.addAll(pages.keySet());
        allTouched = false;
    }

    /** Payload bytes of page {@code p} as the allocator stands now (0 if it has no entry). */
    int pageBytes(SlotAllocator a, long p) {
        int regions = a.regions.subMap(start(p), end(p)).size();
        int extents = a.freeExtents.subMap(start(p), end(p)).size();
        if (regions == 0 && extents == 0) {
            return 0;
        }
        long n = 4 + (long) REGION_BYTES * regions + 4 + (long) EXTENT_BYTES * extents;
        if (n > RecordStore.MAX_RECORD_BYTES) {
            throw new StoreException("allocator table page of " + n + " bytes exceeds the record limit");
        }
        return (int) n;
    }

    /** Encodes page {@code p}: its regions, then its free extents, each in offset order. */
    ByteBuffer encodePage(SlotAllocator a, long p) {
        ByteBuffer b = ByteBuffer.allocate(pageBytes(a, p));
        SortedMap<Long, Region> regions = a.regions.subMap(start(p), end(p));
        b.putInt(regions.size());
        for (Region r : regions.values()) {
            b.put((byte) r.classIndex).putLong(r.offset).putInt(r.slotCount).putLong(r.bitmapAddress).putInt(r.bitmapCrc);
        }
        SortedMap<Long, Long> extents = a.freeExtents.subMap(start(p), end(p));
        b.putInt(extents.size());
        for (Map.Entry<Long, Long> e : extents.entrySet()) {
            b.putLong(e.getKey()).putLong(e.getValue());
        }
        return b.flip();
    }

    /**
     * Decodes page {@code p} stored at {@code address} into {@code regions} and {@code extents},
     * refusing an entry outside the page's span or out of order.
     */
    void decodePage(ByteBuffer b, long address, long p, List<AllocatorStateCodec.RegionEntry> regions,
                    List<long[]> extents) {
        try {
            int n = b.getInt();
            long last = -1;
            for (int i = 0; i < n; i++) {
                int c = b.get() & 0xff;
                if (c >= SizeClasses.SLOT_BYTES.length) {
                    throw new CorruptRecordException(address, "allocator table page names size class " + c);
                }
                AllocatorStateCodec.RegionEntry e = new AllocatorStateCodec.RegionEntry(c, b.getLong(), b.getInt(),
                        b.getLong(), b.getInt());
                last = checkOffset(e.offset(), last, address, p);
                regions.add(e);
            }
            int x = b.getInt();
            last = -1;
            for (int i = 0; i < x; i++) {
                long[] ext = {b.getLong(), b.getLong()};
                last = checkOffset(ext[0], last, address, p);
                extents.add(ext);
            }
            if (b.hasRemaining()) {
                throw new CorruptRecordException(address, "allocator table page has " + b.remaining() + " bytes too many");
            }
        } catch (java.nio.BufferUnderflowException | NegativeArraySizeException ex) {
            throw new CorruptRecordException(address, "allocator table page is truncated");
        }
    }

    private long checkOffset(long offset, long last, long address, long p) {
        if (offset < start(p) || offset >= end(p) || offset <= last) {
            throw new CorruptRecordException(address, "allocator table page " + p + " lists offset " + offset
                    + " outside its span or out of order");
        }
        return offset;
    }

    /**
     * A sorted map of file offsets that touches the page of every key put or removed. Only
     * {@code put}, {@code remove} and {@code putAll} through this map are allowed to change it
     * (views and iterators must not).
     *
     * <p>Not thread-safe, like the {@link SlotAllocator} holding it.
     */
    static final class TrackedMap<V> extends TreeMap<Long, V> {
        private final transient RegionTable table;

        TrackedMap(RegionTable table) {
            this.table = table;
        }

        @Override
        public V put(Long key, V value) {
            table.touch(key);
            return super.put(key, value);
        }

        @Override
        public V remove(Object key) {
            if (key instanceof Long k && containsKey(k)) {
                table.touch(k);
            }
            return super.remove(key);
        }

        @Override
        public void putAll(Map<? extends Long, ? extends V> map) {
            map.forEach(this::put);
        }

        @Override
        public void clear() {
            table.allTouched = true;
            super.clear();
        }

        @Override
        public Map.Entry<Long, V> pollFirstEntry() {
            throw new UnsupportedOperationException("remove by key");
        }

        @Override
        public Map.Entry<Long, V> pollLastEntry() {
            throw new UnsupportedOperationException("remove by key");
        }

        @Override
        public boolean equals(Object o) {
            return super.equals(o);
        }

        @Override
        public int hashCode() {
            return super.hashCode();
        }
    }
}
