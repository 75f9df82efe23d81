package dev.basalt.store.journal;

import dev.basalt.store.io.Checksums;
import dev.basalt.store.io.LongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One journal file: a header, two alternating root blocks and checksummed records (see
 * docs/FORMAT.md). It is the {@link RecordStore} every index of a store lives in.
 *
 * <p>Concurrency: one writer thread calls {@link #write}, {@link #free}, {@link #commit} and
 * {@link #abort}; any number of threads call {@link #read} and {@link #pin} concurrently.
 *
 * <p>Durability: {@link #commit} writes every record and the allocator state, forces the file,
 * then writes the root block of the new commit into the slot the previous-but-one commit used and
 * forces again. Until that root block is on disk the previous commit is the one a restart finds,
 * and nothing that commit point can see has been overwritten: space freed by a commit is released
 * only after that commit is durable and no pinned or retained commit point can see it.
 */
public final class Journal implements RecordStore, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
    static final long DATA_START = RootBlock.FIRST_OFFSET + 2L * RootBlock.SIZE;
    private static final int RECORD_HEADER = 8;

    private final JournalFile file;
    private final JournalHeader header;
    private final JournalConfig config;
    private final ReaderRegistry readers = new ReaderRegistry();
    private RootBlock committed;
    private SlotAllocator alloc;
    private DeferredFrees deferred;
    private LongArray pendingFrees = new LongArray();
    private long appendEnd;
    private long oldestReadable;
    private boolean closed;
    /** What online compaction empties, null when none runs (see {@link #setCompactionPlan}). */
    private CompactionPlan compactionPlan;
    /** File end recorded by the root block in the slot the committed one did not use (0 if invalid). */
    private long otherRootFileEnd;
    /** A commit cut the file's tail off the allocator; the file is truncated once both root blocks allow it. */
    private boolean shrinkPending;

    private Journal(JournalFile file, JournalHeader header, JournalConfig config) {
        this.file = file;
        this.header = header;
        this.config = config;
    }

    /** Opens the journal at {@code path}, creating an empty one (in {@code config.mode()}) if absent. */
    public static Journal open(Path path, JournalConfig config) {
        if (!Files.exists(path)) {
            create(path, config);
        }
        JournalFile f = JournalFile.open(path, false);
        try {
            ByteBuffer hb = ByteBuffer.allocate(JournalHeader.SIZE);
            f.read(hb, 0);
            JournalHeader h = JournalHeader.decode(hb.flip(), path.toString());
            Journal j = new Journal(f, h, config);
            j.recover();
            return j;
        } catch (RuntimeException e) {
            f.close();
            throw e;
        }
    }

    /** Writes a new empty journal atomically: a crash while creating leaves no half-made file. */
    private static void create(Path path, JournalConfig config) {
        Path tmp = path.resolveSibling(path.getFileName() + ".creating");
        try {
            Files.deleteIfExists(tmp);
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
        } catch (IOException e) {
            throw new StoreException("cannot create journal " + path + ": " + e, e);
        }
        UUID id = UUID.randomUUID();
        long now = System.currentTimeMillis();
        try (JournalFile f = JournalFile.open(tmp, true)) {
            f.write(new JournalHeader(JournalHeader.CURRENT_VERSION, config.mode(), id, now).encode(), 0);
            for (int slot = 0; slot < 2; slot++) {
                RootBlock empty = new RootBlock(0, now, NULL, 0, NULL, 0, DATA_START, id);
                f.write(empty.encode(), RootBlock.FIRST_OFFSET + slot * (long) RootBlock.SIZE);
            }
            f.force();
        }
        try {
            Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new StoreException("cannot create journal " + path + ": " + e, e);
        }
    }

    /** Picks the newest valid root block whose state loads, falling back to the other one. */
    private void recover() {
        long size = file.size();
        RootBlock[] candidates = new RootBlock[2];
        String[] reasons = new String[2];
        for (int slot = 0; slot < 2; slot++) {
            ByteBuffer b = ByteBuffer.allocate(RootBlock.SIZE);
            int n = file.read(b, RootBlock.FIRST_OFFSET + slot * (long) RootBlock.SIZE);
            b.flip();
            String[] why = new String[1];
            RootBlock r = n < RootBlock.SIZE ? null : RootBlock.decode(b, header.storeId(), why);
            if (n < RootBlock.SIZE) {
                why[0] = "missing (file is " + size + " bytes)";
            } else if (r != null && r.fileEnd() > size) {
                why[0] = "commit " + r.commitCounter() + " needs " + r.fileEnd() + " bytes but the file has " + size + " (truncated)";
                r = null;
            }
            candidates[slot] = r;
            reasons[slot] = why[0];
        }
        int first = pickNewer(candidates);
        for (int attempt = 0; attempt < 2; attempt++) {
            int slot = attempt == 0 ? first : 1 - first;
            RootBlock r = candidates[slot];
            if (r == null) {
                continue;
            }
            try {
                load(r);
                RootBlock otherRoot = candidates[1 - slot];
                otherRootFileEnd = otherRoot == null ? 0 : otherRoot.fileEnd();
                // bytes past both root blocks' ends (a crash during a compaction or a rolled back
                // write) go with the next commit
                shrinkPending = header.mode() == JournalMode.RW && size > Math.max(r.fileEnd(), otherRootFileEnd);
                if (attempt > 0 || candidates[1 - slot] == null) {
                    String other = reasons[1 - slot] != null ? reasons[1 - slot] : "could not be loaded";
                    if (r.commitCounter() > 0 || candidates[1 - slot] != null || reasons[1 - slot] != null) {
                        LOG.warn("{}: root block {} {}; opened commit {} from the other root block",
                                file.path(), 1 - slot, other, r.commitCounter());
                    }
                }
                return;
            } catch (CorruptRecordException e) {
                reasons[slot] = "commit " + r.commitCounter() + " does not load: " + e.getMessage();
                candidates[slot] = null;
            }
        }
        throw new StoreException(file.path() + " has no valid commit point: root block 0 " + reasons[0]
                + "; root block 1 " + reasons[1] + ". Restore the store from a backup.");
    }

    private static int pickNewer(RootBlock[] c) {
        if (c[0] == null) {
            return 1;
        }
        if (c[1] == null) {
            return 0;
        }
        return c[0].commitCounter() >= c[1].commitCounter() ? 0 : 1;
    }

    /** Makes {@code r} the committed state and rebuilds the allocator from it. */
    private void load(RootBlock r) {
        DeferredFrees d = new DeferredFrees();
        if (header.mode() == JournalMode.WORM) {
            appendEnd = r.fileEnd();
        } else {
            SlotAllocator a = new SlotAllocator(r.fileEnd(), config.maxFileBytes(), file.path().toString());
            long readable = 0;
            if (r.allocatorState() != NULL) {
                AllocatorStateCodec.Decoded s = AllocatorStateCodec.decode(read(r.allocatorState(), r.allocatorStateCrc()),
                        r.allocatorState());
                a.fileEnd = s.fileEnd();
                readable = s.oldestReadable();
                for (AllocatorStateCodec.RegionEntry e : s.regions()) {
                    ByteBuffer bits = read(e.bitmapAddress(), e.bitmapCrc());
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
                    List<DeferredFrees.Group> groups = DeferredFrees.decodeSegment(read(ref.address(), ref.crc()), ref.address());
                    if (ref.released() >= groups.size()) {
                        throw new CorruptRecordException(ref.address(), "deferred-free segment is fully released but still listed");
                    }
                    d.sealed.add(new DeferredFrees.Segment(ref.address(), ref.crc(), groups, ref.released()));
                }
                d.tail.addAll(s.tail());
            }
            a.plan = compactionPlan;
            markEvacuating(a, compactionPlan);
            alloc = a;
            oldestReadable = Math.max(oldestReadable, readable);
        }
        deferred = d;
        pendingFrees = new LongArray();
        committed = r;
        releaseEligible();
    }

    // ---- RecordStore ----

    @Override
    public long write(ByteBuffer payload) {
        int len = payload.remaining();
        if (len > MAX_RECORD_BYTES) {
            throw new StoreException("a record of " + len + " bytes exceeds the limit of " + MAX_RECORD_BYTES);
        }
        long address;
        synchronized (this) {
            ensureOpen();
            address = allocate(len + RECORD_HEADER);
        }
        writeAt(address, payload);
        return address;
    }

    private long allocate(int bytes) {
        if (header.mode() == JournalMode.RW) {
            return alloc.allocate(bytes);
        }
        long span = ((bytes + (long) Addresses.UNIT - 1) / Addresses.UNIT) * Addresses.UNIT;
        if (config.maxFileBytes() > 0 && appendEnd + span > config.maxFileBytes()) {
            throw new JournalFullException(file.path().toString(), appendEnd + span, config.maxFileBytes());
        }
        long address = Addresses.of(appendEnd, span);
        appendEnd += span;
        return address;
    }

    private int writeAt(long address, ByteBuffer payload) {
        int len = payload.remaining();
        int crc = Checksums.crc32c(payload);
        ByteBuffer b = ByteBuffer.allocate(RECORD_HEADER + len);
        b.putInt(len).putInt(crc).put(payload.duplicate()).flip();
        file.write(b, Addresses.offset(address));
        return crc;
    }

    /**
     * Per-thread direct buffers records are read into: the channel fills them without the
     * temporary direct copy it makes for a heap buffer, the checksum runs on them, and the payload
     * is copied once into the array returned.
     */
    private static final ThreadLocal<ByteBuffer> READ_BUFFERS = ThreadLocal
            .withInitial(() -> ByteBuffer.allocateDirect(64 * 1024));
    private static final int MAX_POOLED_READ = 1 << 20;

    /** Returns the payload as a buffer over an array of exactly its length (offset 0). */
    @Override
    public ByteBuffer read(long address, int expectedChecksum) {
        long off = Addresses.offset(address);
        int span = Addresses.span(address);
        if (address == NULL || off < DATA_START) {
            throw new CorruptRecordException(address, "not a record address in " + file.path());
        }
        if (JournalFile.MAP_READS) {
            long stamp = file.beginMappedRead();
            try {
                ByteBuffer map = file.mapped(off, RECORD_HEADER);
                ByteBuffer payload = map == null ? null : readMapped(map, address, off, span, expectedChecksum);
                if (payload != null) {
                    return payload;
                }
            } finally {
                file.endMappedRead(stamp);
            }
        }
        ByteBuffer b = READ_BUFFERS.get();
        if (b.capacity() < span) {
            b = ByteBuffer.allocateDirect(span);
            if (span <= MAX_POOLED_READ) {
                READ_BUFFERS.set(b);
            }
        }
        b.clear().limit(span);
        int n = file.read(b, off);
        if (n < RECORD_HEADER) {
            throw new CorruptRecordException(address, "record lies beyond the end of " + file.path() + " (truncated file?)");
        }
        int len = b.getInt(0);
        int stored = b.getInt(4);
        checkLength(address, len, Math.min(span, n) - RECORD_HEADER);
        b.limit(RECORD_HEADER + len).position(RECORD_HEADER);
        checkChecksum(address, expectedChecksum, stored, Checksums.crc32c(b));
        byte[] payload = new byte[len];
        b.get(payload);
        return ByteBuffer.wrap(payload);
    }

    /** {@link #read} from a mapping of the file; null if the record is not within one (read it with a system call). */
    private ByteBuffer readMapped(ByteBuffer map, long address, long off, int span, int expectedChecksum) {
        int at = (int) (off % JournalFile.MAP_SIZE);
        int len = map.getInt(at);
        int stored = map.getInt(at + 4);
        checkLength(address, len, span - RECORD_HEADER);
        if (at + RECORD_HEADER + len > map.capacity()) {
            map = file.mapped(off, RECORD_HEADER + len);
            if (map == null) {
                return null;
            }
        }
        byte[] payload = new byte[len];
        map.get(at + RECORD_HEADER, payload);
        checkChecksum(address, expectedChecksum, stored, Checksums.crc32c(payload, 0, len));
        return ByteBuffer.wrap(payload);
    }

    private void checkLength(long address, int len, int room) {
        if (len < 0 || len > room) {
            throw new CorruptRecordException(address, "record length " + len + " does not fit its slot in " + file.path());
        }
    }

    private void checkChecksum(long address, int expected, int stored, int actual) {
        if (actual != stored || stored != expected) {
            throw new CorruptRecordException(address, String.format(
                    "checksum mismatch in %s: expected %08x, record header %08x, data %08x", file.path(),
                    expected, stored, actual));
        }
    }

    @Override
    public synchronized void free(long address) {
        ensureOpen();
        if (header.mode() == JournalMode.WORM) {
            return;
        }
        if (alloc.isFresh(address)) {
            alloc.release(address);
        } else {
            pendingFrees.add(address);
        }
    }

    // ---- commits ----

    public synchronized CommitPoint lastCommit() {
        ensureOpen();
        return point(committed);
    }

    private static CommitPoint point(RootBlock r) {
        return new CommitPoint(r.commitCounter(), r.commitTime(), r.commitRecord(), r.commitRecordCrc());
    }

    /**
     * Makes everything written so far durable as the next commit point, whose commit record is
     * {@code record}. Time is made monotonic. On failure the journal is back at the previous commit
     * point and the exception says why.
     */
    public synchronized CommitPoint commit(long record, int recordCrc, long timeMillis) {
        ensureOpen();
        long counter = committed.commitCounter() + 1;
        long time = Math.max(timeMillis, committed.commitTime());
        try {
            long stateAddress = NULL;
            int stateCrc = 0;
            long end;
            if (header.mode() == JournalMode.RW) {
                if (compactionPlan != null) {
                    alloc.dissolveEmptyRegions(pendingFrees::add);
                    if (FileTail.trim(alloc, pendingFrees::add) > 0) {
                        shrinkPending = true;
                    }
                }
                long[] state = writeAllocatorState(counter, time);
                stateAddress = state[0];
                stateCrc = (int) state[1];
                end = alloc.fileEnd;
            } else {
                end = appendEnd;
            }
            if (file.size() < end) {
                file.write(ByteBuffer.allocate(1), end - 1);
            }
            if (config.durable()) {
                file.force();
            }
            RootBlock root = new RootBlock(counter, time, record, recordCrc, stateAddress, stateCrc, end, header.storeId());
            file.write(root.encode(), RootBlock.offsetOf(counter));
            if (config.durable()) {
                file.force();
            }
            otherRootFileEnd = committed.fileEnd();
            committed = root;
        } catch (RuntimeException e) {
            rollbackAfterFailure(e);
            throw e;
        }
        if (shrinkPending) {
            shrinkFile();
        }
        pendingFrees = new LongArray();
        if (alloc != null) {
            alloc.markCommitted();
        }
        releaseEligible();
        readers.warnOld(config.readerWarnAge());
        return point(committed);
    }

    /**
     * Writes this commit's deferred-free group, changed region bitmaps and the state record; returns
     * {address, crc} of the latter. Slots for all of them are reserved first, until reserving no
     * longer changes which regions are dirty (a fixed point), so every bitmap written describes the
     * final allocation, including the metadata's own slots.
     */
    private long[] writeAllocatorState(long counter, long time) {
        LongArray freed = pendingFrees;
        if (committed.allocatorState() != NULL) {
            freed.add(committed.allocatorState());
        }
        Map<Region, Long> bitmapSlots = new HashMap<>();
        long groupSlot = NULL;
        long segmentSlot = NULL;
        long stateSlot = NULL;
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Region r : alloc.dirty.toArray(new Region[0])) {
                if (!bitmapSlots.containsKey(r)) {
                    if (r.bitmapAddress != NULL) {
                        freed.add(r.bitmapAddress);
                        r.bitmapAddress = NULL;
                    }
                    bitmapSlots.put(r, alloc.allocate(r.bitmapBytes() + RECORD_HEADER));
                    changed = true;
                }
            }
            int groupBytes = 8 * freed.size() + RECORD_HEADER;
            if (!freed.isEmpty() && (groupSlot == NULL || Addresses.span(groupSlot) < groupBytes)) {
                if (groupSlot != NULL) {
                    alloc.release(groupSlot);
                }
                groupSlot = alloc.allocate(groupBytes + groupBytes / 8 + 64);
                changed = true;
            }
            boolean seal = !freed.isEmpty() && deferred.tail.size() + 1 == DeferredFrees.SEGMENT;
            if (seal && segmentSlot == NULL) {
                segmentSlot = alloc.allocate(4 + DeferredFrees.DESCRIPTOR_BYTES * DeferredFrees.SEGMENT + RECORD_HEADER);
                changed = true;
            }
            int tail = deferred.tail.size() + (freed.isEmpty() ? 0 : 1);
            int need = AllocatorStateCodec.size(alloc, deferred.sealed.size() + (seal ? 1 : 0), seal ? 0 : tail)
                    + RECORD_HEADER;
            if (stateSlot == NULL || Addresses.span(stateSlot) < need) {
                if (stateSlot != NULL) {
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
            int crc = writeAt(groupSlot, DeferredFrees.encodeAddresses(addresses));
            deferred.tail.add(new DeferredFrees.Group(counter, time, addresses.length, bytes, groupSlot, crc));
            if (segmentSlot != NULL) {
                int segCrc = writeAt(segmentSlot, DeferredFrees.encodeSegment(deferred.tail));
                deferred.sealed.addLast(new DeferredFrees.Segment(segmentSlot, segCrc, new java.util.ArrayList<>(deferred.tail), 0));
                deferred.tail.clear();
            }
        }
        for (Map.Entry<Region, Long> e : bitmapSlots.entrySet()) {
            Region r = e.getKey();
            long[] words = r.used.toLongArray();
            ByteBuffer b = ByteBuffer.allocate(r.bitmapBytes());
            b.asLongBuffer().put(words);
            r.bitmapCrc = writeAt(e.getValue(), b);
            r.bitmapAddress = e.getValue();
        }
        ByteBuffer state = AllocatorStateCodec.encode(alloc, deferred, oldestReadable);
        int crc = writeAt(stateSlot, state);
        return new long[]{stateSlot, crc & 0xffffffffL};
    }

    /** Discards everything written and freed since the last commit. */
    public synchronized void abort() {
        ensureOpen();
        load(committed);
    }

    private void rollbackAfterFailure(RuntimeException cause) {
        try {
            recover();
        } catch (RuntimeException e) {
            cause.addSuppressed(e);
            closed = true;
            file.close();
        }
    }

    /**
     * Gives the file's cut-off tail back to the file system, down to the larger file end of the two
     * root blocks: if the next root block write is torn, the other one must still find every byte
     * it names. Mappings are dropped first (under the mapping lock, so no mapped read runs).
     */
    private void shrinkFile() {
        long keep = Math.max(committed.fileEnd(), otherRootFileEnd);
        long size = file.size();
        if (size > keep) {
            file.shrink(keep);
            LOG.info("{}: file shrunk from {} to {} bytes", file.path(), size, keep);
        }
        shrinkPending = keep > committed.fileEnd();
    }

    // ---- online compaction (driven by the store layer's OnlineCompactor) ----

    /**
     * The lowest offset the file could end at if every record above it moved into free space
     * below it (with headroom for the writes going on meanwhile); the file's end if nothing would
     * be gained. Counts space released now: call {@link #releaseEligible} first.
     *
     * @throws StoreException in WORM mode, which frees nothing and so has nothing to compact
     */
    public synchronized CompactionPlan planCompaction() {
        ensureOpen();
        requireRw();
        return FileTail.plan(alloc);
    }

    /**
     * Starts (a plan) or ends (null) online compaction: meanwhile no allocation takes space the
     * plan empties, and every commit turns empty regions into free space, cuts the wholly free
     * regions and extents at the end of the file off and shrinks the file.
     */
    public synchronized void setCompactionPlan(CompactionPlan plan) {
        ensureOpen();
        requireRw();
        compactionPlan = plan;
        alloc.plan = plan;
        markEvacuating(alloc, plan);
    }

    private static void markEvacuating(SlotAllocator a, CompactionPlan plan) {
        for (Region r : a.regions.values()) {
            r.evacuating = plan != null && plan.evacuatesOffset(r.offset);
        }
    }

    /**
     * The space the running compaction still empties, as it stands now: the target and the regions
     * below it still marked (regions made since in emptied space are not); null if none runs.
     */
    public synchronized CompactionPlan evacuationNow() {
        ensureOpen();
        if (compactionPlan == null) {
            return null;
        }
        List<Region> marked = new java.util.ArrayList<>();
        for (Region r : alloc.regions.values()) {
            if (r.evacuating && r.offset < compactionPlan.target()) {
                marked.add(r);
            }
        }
        long[] starts = new long[marked.size()];
        long[] ends = new long[marked.size()];
        for (int i = 0; i < starts.length; i++) {
            starts[i] = marked.get(i).offset;
            ends[i] = marked.get(i).endOffset();
        }
        return new CompactionPlan(compactionPlan.target(), compactionPlan.fileEnd(), starts, ends);
    }

    /** Bytes of records (live, deferred and allocator metadata) at or above {@code offset}. */
    public synchronized long bytesInUseAbove(long offset) {
        ensureOpen();
        return header.mode() == JournalMode.RW ? FileTail.bytesInUseAbove(alloc, offset) : appendEnd - offset;
    }

    /** In-use space at or above {@code offset} by size class and extents (what holds a file's tail). */
    public synchronized String describeInUseAbove(long offset) {
        ensureOpen();
        return header.mode() == JournalMode.RW ? FileTail.describeAbove(alloc, offset) : "WORM: everything";
    }

    /**
     * Makes the next commit rewrite the bitmap of every region whose bitmap record lies in space
     * {@code plan} empties (into space it keeps); returns how many.
     */
    public synchronized int rewriteMetadata(CompactionPlan plan) {
        ensureOpen();
        requireRw();
        int n = 0;
        for (Region r : alloc.regions.values()) {
            if (r.bitmapAddress != NULL && plan.evacuates(r.bitmapAddress) && alloc.dirty.add(r)) {
                n++;
            }
        }
        return n;
    }

    /** Space of deferred frees that retention (not a reader) still keeps: {bytes, commit of the newest such group}. */
    public synchronized long[] retainedByHistory() {
        ensureOpen();
        if (header.mode() == JournalMode.WORM) {
            return new long[]{0, -1};
        }
        long now = System.currentTimeMillis();
        long retention = config.historyRetention().toMillis();
        long bytes = 0;
        long newest = -1;
        for (DeferredFrees.Group g : deferred.all()) {
            if (now - g.commitTime() < retention) {
                bytes += g.bytes();
                newest = g.commit();
            }
        }
        return new long[]{bytes, newest};
    }

    private void requireRw() {
        if (header.mode() != JournalMode.RW) {
            throw new StoreException(file.path() + " is a WORM journal: it never frees space and keeps every commit"
                    + " point readable, so there is nothing to compact online. To drop its history, close the store"
                    + " and run 'basalt compact --store DIR' (the copy keeps only the newest commit point), or take"
                    + " 'basalt backup' of a live store and restore it");
        }
    }

    // ---- readers and space ----

    /**
     * Pins a commit point for reading. Fails with a clear message if the commit point is newer than
     * the last commit or its space has already been recycled.
     */
    public synchronized ReadPin pin(CommitPoint commit) {
        ensureOpen();
        if (commit.counter() > committed.commitCounter()) {
            throw new StoreException("commit point " + commit.counter() + " does not exist yet (last is "
                    + committed.commitCounter() + ")");
        }
        if (commit.counter() < oldestReadable) {
            throw new StoreException("commit point " + commit.counter() + " is no longer readable: its space was "
                    + "recycled (the oldest readable commit point is " + oldestReadable
                    + "; a longer history retention keeps more)");
        }
        return new ReadPin(this, readers.pin(commit.counter()), commit);
    }

    /** Pins the last commit point; atomic with respect to commits and releases. */
    public synchronized ReadPin pinLatest() {
        ensureOpen();
        return new ReadPin(this, readers.pin(committed.commitCounter()), point(committed));
    }

    synchronized void unpin(long id) {
        if (readers.unpin(id) && !closed) {
            releaseEligible();
        }
    }

    /** Recycles the space of every deferred free that no retained or pinned commit point can see. */
    public synchronized void releaseEligible() {
        if (header.mode() == JournalMode.WORM) {
            return;
        }
        long now = System.currentTimeMillis();
        long min = readers.minPinned();
        long retention = config.historyRetention().toMillis();
        DeferredFrees.Group g;
        while ((g = deferred.oldest()) != null && deferred.isReleasable(g, min, now, retention)) {
            for (long a : DeferredFrees.decodeAddresses(read(g.record(), g.recordCrc()), g)) {
                alloc.release(a);
            }
            // the group's own list is metadata the last commit point still names: free it with the next commit
            pendingFrees.add(g.record());
            deferred.removeOldest(pendingFrees::add);
            oldestReadable = Math.max(oldestReadable, g.commit());
        }
    }

    public synchronized long oldestReadableCommit() {
        return oldestReadable;
    }

    public synchronized JournalStats stats() {
        ensureOpen();
        boolean rw = header.mode() == JournalMode.RW;
        long min = readers.minPinned();
        return new JournalStats(header.mode(), committed.commitCounter(), committed.commitTime(), file.size(),
                rw ? alloc.bytesInUse() : appendEnd - DATA_START,
                rw ? deferred.bytes() : 0,
                rw && min != Long.MAX_VALUE ? deferred.bytesPinned(min) : 0,
                readers.count(), min == Long.MAX_VALUE ? -1 : min, oldestReadable,
                rw ? alloc.regions.size() : 0);
    }

    public JournalMode mode() {
        return header.mode();
    }

    public UUID storeId() {
        return header.storeId();
    }

    public Path path() {
        return file.path();
    }

    /**
     * Checks the allocator against the records a verifier found reachable from the last commit
     * point (call between transactions: nothing written since the last commit): every reachable record must be
     * in use and not queued for release, and the space in use must be exactly reachable records,
     * deferred frees and allocator metadata, so nothing leaks. Returns the bytes accounted for.
     */
    public synchronized long auditSpace(LongArray reachable) {
        ensureOpen();
        if (header.mode() == JournalMode.WORM) {
            return appendEnd - DATA_START;
        }
        java.util.HashSet<Long> seen = new java.util.HashSet<>();
        long bytes = 0;
        for (int i = 0; i < reachable.size(); i++) {
            bytes += account(reachable.get(i), seen, "reachable");
        }
        for (DeferredFrees.Group g : deferred.all()) {
            for (long a : DeferredFrees.decodeAddresses(read(g.record(), g.recordCrc()), g)) {
                bytes += account(a, seen, "deferred free of commit " + g.commit());
            }
            bytes += account(g.record(), seen, "deferred-free list of commit " + g.commit());
        }
        for (DeferredFrees.Segment s : deferred.sealed) {
            bytes += account(s.address, seen, "deferred-free segment");
        }
        for (int i = 0; i < pendingFrees.size(); i++) {
            bytes += account(pendingFrees.get(i), seen, "record freed since the last commit");
        }
        if (committed.allocatorState() != NULL) {
            bytes += account(committed.allocatorState(), seen, "allocator state");
        }
        for (Region r : alloc.regions.values()) {
            bytes += account(r.bitmapAddress, seen, "region bitmap");
        }
        long inUse = alloc.bytesInUse();
        if (bytes != inUse) {
            throw new StoreException(file.path() + ": " + inUse + " bytes are in use but only " + bytes
                    + " are reachable, deferred or metadata (" + (inUse - bytes) + " bytes leaked)");
        }
        return bytes;
    }

    private long account(long address, java.util.Set<Long> seen, String what) {
        if (!seen.add(address)) {
            throw new CorruptRecordException(address, what + " is referenced twice (double free or shared record)");
        }
        if (!alloc.isInUse(address)) {
            throw new CorruptRecordException(address, what + " lies in space the allocator counts as free");
        }
        return Addresses.span(address);
    }

    private void ensureOpen() {
        if (closed) {
            throw new StoreException("journal " + file.path() + " is closed");
        }
    }

    public synchronized boolean isOpen() {
        return !closed;
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            file.close();
        }
    }
}
