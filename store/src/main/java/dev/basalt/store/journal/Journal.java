package dev.basalt.store.journal;

import dev.basalt.store.io.LongArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
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
 *
 * <p>Its parts: {@link RootBlockPair} creates a journal and finds the root blocks on opening,
 * {@link RecordFraming} reads and writes checksummed records, {@link AllocatorPersistence} loads and
 * writes the RW allocator's state with each commit, {@link FileTail} holds the space arithmetic of
 * online compaction and {@link SpaceAudit} the leak check; the journal holds the committed state and
 * serialises the writer's calls under its monitor.
 */
public final class Journal implements RecordStore, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Journal.class);
    static final long DATA_START = RootBlock.FIRST_OFFSET + 2L * RootBlock.SIZE;
    private static final int RECORD_HEADER = RecordFraming.RECORD_HEADER;

    private final JournalFile file;
    private final RecordFraming records;
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
        this.records = new RecordFraming(file);
        this.header = header;
        this.config = config;
    }

    /** Opens the journal at {@code path}, creating an empty one (in {@code config.mode()}) if absent. */
    public static Journal open(Path path, JournalConfig config) {
        if (!Files.exists(path)) {
            RootBlockPair.createEmpty(path, config);
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

    /** Picks the newest valid root block whose state loads, falling back to the other one. */
    private void recover() {
        long size = file.size();
        RootBlockPair roots = RootBlockPair.read(file, header);
        int first = roots.newer();
        for (int attempt = 0; attempt < 2; attempt++) {
            int slot = attempt == 0 ? first : 1 - first;
            RootBlock r = roots.get(slot);
            if (r == null) {
                continue;
            }
            try {
                load(r);
                RootBlock otherRoot = roots.get(1 - slot);
                otherRootFileEnd = otherRoot == null ? 0 : otherRoot.fileEnd();
                // bytes past both root blocks' ends (a crash during a compaction or a rolled back
                // write) go with the next commit
                shrinkPending = header.mode() == JournalMode.RW && size > Math.max(r.fileEnd(), otherRootFileEnd);
                String otherReason = roots.reason(1 - slot);
                if ((attempt > 0 || otherRoot == null)
                        && (r.commitCounter() > 0 || otherRoot != null || otherReason != null)) {
                    LOG.warn("{}: root block {} {}; opened commit {} from the other root block", file.path(), 1 - slot,
                            otherReason != null ? otherReason : "could not be loaded", r.commitCounter());
                }
                return;
            } catch (CorruptRecordException e) {
                roots.reject(slot, "commit " + r.commitCounter() + " does not load: " + e.getMessage());
            }
        }
        throw roots.noValidCommit(file.path());
    }

    /** Makes {@code r} the committed state and rebuilds the allocator from it. */
    private void load(RootBlock r) {
        if (header.mode() == JournalMode.WORM) {
            appendEnd = r.fileEnd();
            deferred = new DeferredFrees();
        } else {
            AllocatorPersistence.Loaded l = AllocatorPersistence.load(r, records, config.maxFileBytes(),
                    file.path().toString());
            long overflow = alloc == null ? 0 : alloc.overflowBytes;
            alloc = l.alloc();
            deferred = l.deferred();
            alloc.overflowBytes = overflow;
            alloc.plan = compactionPlan;
            FileTail.markEvacuating(alloc, compactionPlan);
            oldestReadable = Math.max(oldestReadable, l.oldestReadable());
        }
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
        records.write(address, payload);
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

    /** Returns the payload as a buffer over an array of exactly its length (offset 0). */
    @Override
    public ByteBuffer read(long address, int expectedChecksum) {
        return records.read(address, expectedChecksum);
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
                alloc.dissolveEmptyRegions(pendingFrees::add);
                if (compactionPlan != null) {
                    if (FileTail.trim(alloc, pendingFrees::add) > 0) {
                        shrinkPending = true;
                    }
                }
                long[] state = AllocatorPersistence.write(alloc, deferred, pendingFrees, committed.allocatorState(),
                        counter, time, oldestReadable, records);
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
     * Discards everything written and freed since the last commit, and gives the file's tail that
     * the discarded writes grew back to the file system (a load that failed on a full disk leaves
     * the disk as it found it, so the next write has room).
     */
    public synchronized void abort() {
        ensureOpen();
        load(committed);
        shrinkFile();
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
     * below it, with headroom for the writes going on meanwhile: a share of that free space and
     * {@code reserveBytes} more; the file's end if nothing would be gained. Counts space released
     * now: call {@link #releaseEligible} first.
     *
     * @throws StoreException in WORM mode, which frees nothing and so has nothing to compact
     */
    public synchronized CompactionPlan planCompaction(long reserveBytes) {
        ensureOpen();
        requireRw();
        return FileTail.plan(alloc, reserveBytes);
    }

    /**
     * Starts (a plan) or ends (null) online compaction: meanwhile no allocation takes space the
     * plan empties, and every commit cuts the wholly free regions and extents at the end of the
     * file off and shrinks the file (every commit, with or without a plan, turns empty regions
     * into free space).
     */
    public synchronized void setCompactionPlan(CompactionPlan plan) {
        ensureOpen();
        requireRw();
        compactionPlan = plan;
        alloc.plan = plan;
        alloc.overflowBytes = 0;
        FileTail.markEvacuating(alloc, plan);
    }

    /**
     * The space the running compaction still empties, as it stands now: the target and the regions
     * below it still marked (regions made since in emptied space are not); null if none runs.
     */
    public synchronized CompactionPlan evacuationNow() {
        ensureOpen();
        return compactionPlan == null ? null : FileTail.evacuationNow(alloc, compactionPlan);
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
     * Bytes the allocator handed out, since the running compaction's plan was set, outside the space
     * the plan keeps below its target (that space was full: writes meanwhile outgrew it); 0 if none runs.
     */
    public synchronized long compactionOverflowBytes() {
        ensureOpen();
        return header.mode() == JournalMode.RW && compactionPlan != null ? alloc.overflowBytes : 0;
    }

    /** Where the space between {@code target} and the file's end lies (free below, in use above), for logs. */
    public synchronized String describeTail(long target) {
        ensureOpen();
        return header.mode() == JournalMode.RW ? FileTail.describeTail(alloc, target) : "WORM";
    }

    /**
     * Makes the next commit rewrite the bitmap of every region whose bitmap record, and every
     * allocator table page whose record, lies in space {@code plan} empties (into space it keeps);
     * returns how many.
     */
    public synchronized int rewriteMetadata(CompactionPlan plan) {
        ensureOpen();
        requireRw();
        return FileTail.dirtyBitmapsIn(alloc, plan);
    }

    /** Space of deferred frees that retention (not a reader) still keeps: {bytes, commit of the newest such group}. */
    public synchronized long[] retainedByHistory() {
        ensureOpen();
        if (header.mode() == JournalMode.WORM) {
            return new long[]{0, -1};
        }
        return deferred.retainedByHistory(System.currentTimeMillis(), config.historyRetention().toMillis());
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
                rw ? alloc.regions.size() : 0, rw ? alloc.table.pages.size() : 0);
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

    /** The allocator, for the journal package's tests. */
    synchronized SlotAllocator allocator() {
        return alloc;
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
        return SpaceAudit.run(alloc, deferred, pendingFrees, committed.allocatorState(), reachable, records, file.path());
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
