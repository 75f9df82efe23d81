package dev.basalt.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.CompactionPlan;
import dev.basalt.store.journal.Journal;
import dev.basalt.store.journal.JournalStats;
import dev.basalt.store.journal.StoreException;

/**
 * Online compaction of an open RW store: shrinks the journal file while readers and writers go on
 * (DESIGN §2, docs/FORMAT.md "Online compaction"). A round picks a target end of file below which
 * the free space can hold everything above it and in the sparse regions below it
 * ({@link Journal#planCompaction}), makes the allocator take slots below the target, and moves
 * every page and large value in the emptied space by putting one key under it again with its own
 * value, which copies the page and its ancestors on write into low slots. The moves are ordinary
 * write transactions of at most {@link Options#maxPause} of work each, so a writer waits at most
 * about one batch and its commit. Once no reader pin and no retained commit point can see the old
 * copies, their space is released, each commit cuts the wholly free tail of the file off, and the
 * file is truncated when both root blocks end below the cut. Nothing on disk changes format; every
 * step is a commit, so a crash at any moment reopens at the last commit.
 *
 * <p>Each round first repacks the trees ({@link BTree#repack}): every internal page whose children
 * would fit in noticeably fewer pages, as a bottom-up build fills them (leaves left partly filled by
 * splits and deletes), gets new children holding the same entries, level by level from the
 * parents of leaves up, in transactions of the same size as the moves and only while no reader
 * that was open before the round pins old pages (repacking then would only add copies). So the
 * live data itself shrinks toward the size of an offline-compacted copy before the round plans
 * where the file can end.
 *
 * <p>Rounds go on, each planned on the layout the last one left: writes meanwhile may have
 * overflowed the space below the target (the allocator then takes the lowest free space left, so
 * the file's end stays low), and the next plan keeps as much free below its target as overflowed. They end when the file is within {@value #GOOD_ENOUGH}x the space in use,
 * a plan would gain less than {@value #MIN_GAIN} of the file, nothing was left to move,
 * {@value #STALLED_ROUNDS} rounds in a row ended above the smallest file reached, or
 * {@link Options#rounds} ran; the report says which.
 *
 * <p>What it cannot move is reported: space above the target still held by readers' pins (it is
 * waited for up to {@link Options#waitForReaders}), by history retention (the old copies are
 * commit points a reader may still open as of the past; not waited for), and the commit records of
 * retained commit points.
 *
 * <p>Threads: call it from one thread; it takes the store's write transaction like any writer and
 * runs {@code afterCommit} after each of its commits (the caller's hook to let go of views of the
 * previous commit point). WORM journals are refused: they free nothing.
 */
public final class OnlineCompactor {
    private static final Logger LOG = LoggerFactory.getLogger(OnlineCompactor.class);

    /**
     * @param maxPause       work per write transaction (the writers' pause is this plus one commit)
     * @param waitForReaders how long to wait for readers whose pins hold the file's tail
     * @param rounds         move rounds at most (a round moves what concurrent writes put above the target)
     */
    public record Options(Duration maxPause, Duration waitForReaders, int rounds) {
        public static final Options DEFAULT = new Options(Duration.ofMillis(50), Duration.ofSeconds(30), 16);
    }

    /** What a compaction did and what it could not release. */
    public record Result(long bytesBefore, long bytesAfter, long liveBytesBefore, long liveBytesAfter, long target,
                         long keysRewritten, int commits, long heldAbove, long pinnedBytes, long oldestPinnedCommit,
                         long retainedBytes, long newestRetainedCommit, String heldBy, Duration maxPause,
                         Duration elapsed, int rounds, long inUseAfter, String endedBecause, Duration cpu,
                         long pagesRepacked) {
        @Override
        public String toString() {
            StringBuilder b = new StringBuilder(String.format(
                    "online compaction: %,d -> %,d bytes (%.2fx the %,d live bytes, %.2fx the %,d bytes in use; target"
                            + " %,d) in %.1f s (%.1f s CPU): %,d pages saved by repacking, %,d keys rewritten in %d"
                            + " rounds of %d commits, longest"
                            + " writer pause %d ms; ended: %s",
                    bytesBefore, bytesAfter, liveBytesAfter == 0 ? 0 : (double) bytesAfter / liveBytesAfter,
                    liveBytesAfter, inUseAfter == 0 ? 0 : (double) bytesAfter / inUseAfter, inUseAfter, target,
                    elapsed.toMillis() / 1000.0, cpu.toMillis() / 1000.0, pagesRepacked, keysRewritten, rounds, commits, maxPause.toMillis(), endedBecause));
            if (heldAbove > 0) {
                b.append(String.format("; %,d bytes above the target could not be released (%s)", heldAbove, heldBy));
            }
            if (pinnedBytes > 0) {
                b.append(String.format("; %,d bytes held by readers pinning commit point %d and later", pinnedBytes,
                        oldestPinnedCommit));
            }
            if (retainedBytes > 0) {
                b.append(String.format("; %,d bytes held by history retention up to commit point %d", retainedBytes,
                        newestRetainedCommit));
            }
            return b.toString();
        }
    }

    /** A file at most this many times the space in use (live, deferred and metadata) is compact: no further round. */
    static final double GOOD_ENOUGH = 1.1;
    /**
     * A round whose plan would cut less than this share of the file, and empties sparse regions of
     * less than it, is not worth its moves: what is left is the slack of partly used regions.
     */
    static final double MIN_GAIN = 0.04;
    /**
     * Rounds in a row that ended above the smallest file reached (writes meanwhile outgrew the
     * moves) end the compaction.
     */
    static final int STALLED_ROUNDS = 3;
    /**
     * A repacking transaction takes no further step once its tree holds this many dirty pages: one
     * step writes up to a page's worth of children, and the commit codes and writes what is dirty.
     */
    static final int REPACK_DIRTY_PAGES = 512;

    private final Store store;
    private final Journal journal;
    private final Options options;
    private final Runnable afterCommit;
    private long keys;
    private int commits;
    private long maxPauseNanos;

    private OnlineCompactor(Store store, Options options, Runnable afterCommit) {
        this.store = store;
        this.journal = store.journal();
        this.options = options;
        this.afterCommit = afterCommit;
    }

    /** Compacts {@code store} online; see the class comment. */
    public static Result compact(Store store, Options options, Runnable afterCommit) {
        return new OnlineCompactor(store, options, afterCommit).run();
    }

    private Result run() {
        long t0 = System.nanoTime();
        long cpu0 = threadCpuNanos();
        journal.releaseEligible();
        JournalStats before = journal.stats();
        long target = before.fileBytes();
        int stalled = 0;
        int rounds = 0;
        long lowest = before.fileBytes();
        long reserve = 0; // free space the next plan keeps below its target for the writes going on meanwhile
        String ended = "round limit " + options.rounds();
        long repacked = 0;
        try {
            while (rounds < options.rounds()) {
                if (!waitForReaders(t0)) {
                    // moving now would only add copies: the old ones cannot be released
                    LOG.warn("{}: readers still pin {} bytes after {}; nothing moved (see the report)", journal.path(),
                            journal.stats().bytesPinned(), options.waitForReaders());
                    if (rounds == 0) {
                        target = journal.planCompaction(0).target();
                    }
                    ended = "readers' pins";
                    break;
                }
                long saved = repackTrees();
                if (saved > 0) {
                    repacked += saved;
                    waitForReaders(t0); // the old pages are released once the readers of their commit points are gone
                }
                CompactionPlan plan = startRound(reserve);
                target = plan.target();
                JournalStats planned = journal.stats();
                if (planned.fileBytes() <= GOOD_ENOUGH * planned.bytesInUse()) {
                    ended = "the file is within " + GOOD_ENOUGH + "x the space in use";
                    break;
                }
                // the plan kept the last round's overflow free below the target: what it gains is net of that
                long minGain = (long) (MIN_GAIN * planned.fileBytes());
                if (planned.fileBytes() - target <= minGain && plan.sparseBytes() <= minGain) {
                    ended = "less than " + Math.round(100 * MIN_GAIN) + "% of the file left to gain";
                    break;
                }
                rounds++;
                long moved = moveRound(journal.evacuationNow());
                waitForReaders(t0);
                // two commits: the first cuts the released tail off, the second lets the file shrink
                // to it (both root blocks must end below the cut)
                emptyCommit();
                emptyCommit();
                long file = journal.stats().fileBytes();
                // the next round keeps free what overflowed this one (bytes the allocator placed outside
                // the space below the target because it was full). Overflow lands in the lowest free
                // space, so it costs a round about its own size above the target; a reserve costs its
                // size of the target too, so keeping more would only lower what a round gains
                reserve = journal.compactionOverflowBytes();
                LOG.info("{}: compaction round {} ended: {}; {} bytes overflowed the space kept below the target",
                        journal.path(), rounds, journal.describeTail(target), reserve);
                stalled = file >= lowest ? stalled + 1 : 0;
                lowest = Math.min(lowest, file);
                if (moved == 0) {
                    ended = "nothing left to move";
                    break;
                }
                if (stalled == STALLED_ROUNDS) {
                    ended = STALLED_ROUNDS + " rounds in a row ended above the smallest file reached (writes meanwhile)";
                    break;
                }
            }
        } finally {
            journal.setCompactionPlan(null);
        }
        // the last round's cut takes effect with the commit after it (both root blocks must end below it)
        emptyCommit();
        JournalStats after = journal.stats();
        long[] retained = journal.retainedByHistory();
        long held = journal.bytesInUseAbove(target);
        Result r = new Result(before.fileBytes(), after.fileBytes(), before.bytesInUse() - before.bytesDeferred(),
                after.bytesInUse() - after.bytesDeferred(), target, keys, commits, held, after.bytesPinned(),
                after.oldestPinnedCommit(), retained[0], retained[1], journal.describeInUseAbove(target),
                Duration.ofNanos(maxPauseNanos), Duration.ofNanos(System.nanoTime() - t0), rounds, after.bytesInUse(),
                ended, Duration.ofNanos(Math.max(0, threadCpuNanos() - cpu0)), repacked);
        LOG.info("{}: {}", journal.path(), r);
        return r;
    }

    /**
     * Plans a round on the allocator as it stands (the store's writer held, so no transaction is
     * half done), keeping {@code reserve} bytes below the target free for the writes going on
     * meanwhile (what the last round's writes put above its target), and commits once, which turns
     * empty regions into free space for new regions.
     */
    private CompactionPlan startRound(long reserve) {
        CompactionPlan plan;
        try (WriteTransaction tx = store.begin()) {
            long held = System.nanoTime();
            plan = journal.planCompaction(reserve);
            journal.setCompactionPlan(plan);
            tx.commit();
            paused(held);
        }
        afterCommit.run();
        JournalStats s = journal.stats();
        LOG.info("{}: compaction round: {} bytes in the file, {} in use ({} of them deferred frees); emptying everything"
                + " above {} and {} sparse bytes below, {} bytes kept free for writes meanwhile", journal.path(),
                s.fileBytes(), s.bytesInUse(), s.bytesDeferred(), plan.target(), plan.sparseBytes(), reserve);
        return plan;
    }

    /** Rewrites every key naming a page or large value above {@code target}; returns how many. */
    private long moveRound(CompactionPlan plan) {
        Map<String, List<byte[]>> keysByTree = new LinkedHashMap<>();
        try (Snapshot s = store.snapshot()) {
            for (String name : s.treeNames()) {
                List<byte[]> k = new ArrayList<>();
                s.tree(name).relocationKeys(plan::evacuates, k::add);
                keysByTree.put(name, k);
            }
            BTree commits = s.commitIndex();
            if (commits != null) {
                List<byte[]> k = new ArrayList<>();
                commits.relocationKeys(plan::evacuates, k::add);
                keysByTree.put(Store.COMMIT_INDEX, k);
            }
        }
        long n = 0;
        for (Map.Entry<String, List<byte[]>> e : keysByTree.entrySet()) {
            n += rewrite(e.getKey(), e.getValue());
        }
        // region bitmaps above the target move with the next commit
        try (WriteTransaction tx = store.begin()) {
            long held = System.nanoTime();
            journal.rewriteMetadata(plan);
            tx.commit();
            paused(held);
        }
        afterCommit.run();
        return n;
    }

    /**
     * Repacks every tree level by level, the parents of leaves first and the root's children
     * last, each level listed on a snapshot taken after the level below was done; returns the
     * pages saved.
     */
    private long repackTrees() {
        long t0 = System.nanoTime();
        long cpu0 = threadCpuNanos();
        long pauseBefore = maxPauseNanos;
        maxPauseNanos = 0;
        long saved = 0;
        for (int height = 2; ; height++) {
            int h = height;
            Map<String, List<byte[]>> keysByTree = new LinkedHashMap<>();
            boolean any = false;
            try (Snapshot s = store.snapshot()) {
                for (String name : s.treeNames()) {
                    List<byte[]> k = new ArrayList<>();
                    s.tree(name).repackKeys(h, k::add);
                    keysByTree.put(name, k);
                    any |= !k.isEmpty();
                }
                BTree commits = s.commitIndex();
                if (commits != null) {
                    List<byte[]> k = new ArrayList<>();
                    commits.repackKeys(h, k::add);
                    keysByTree.put(Store.COMMIT_INDEX, k);
                    any |= !k.isEmpty();
                }
            }
            if (!any) {
                break;
            }
            for (Map.Entry<String, List<byte[]>> e : keysByTree.entrySet()) {
                saved += inTransactions(e.getKey(), e.getValue(), REPACK_DIRTY_PAGES, (t, key) -> t.repack(key, h));
            }
        }
        if (saved > 0) {
            JournalStats s = journal.stats();
            LOG.info("{}: repacking the trees saved {} pages in {} ms ({} ms CPU, longest writer pause {} ms); {} bytes in"
                    + " use ({} of them deferred frees)", journal.path(), saved, (System.nanoTime() - t0) / 1_000_000,
                    Math.max(0, threadCpuNanos() - cpu0) / 1_000_000, maxPauseNanos / 1_000_000, s.bytesInUse(),
                    s.bytesDeferred());
        }
        maxPauseNanos = Math.max(maxPauseNanos, pauseBefore);
        return saved;
    }

    private long rewrite(String tree, List<byte[]> keyList) {
        long n = inTransactions(tree, keyList, Integer.MAX_VALUE, (t, key) -> {
            byte[] value = t.get(key);
            if (value == null) {
                return 0;
            }
            t.put(key, value);
            return 1;
        });
        keys += n;
        return n;
    }

    /**
     * Applies {@code step} to every key of {@code keyList} in order, in write transactions of at
     * most {@link Options#maxPause} of work each that stop taking steps once the tree holds
     * {@code maxDirty} dirty pages (the commit writes those); returns the sum of what the steps
     * returned.
     */
    private long inTransactions(String tree, List<byte[]> keyList, int maxDirty,
                                java.util.function.ToLongBiFunction<BTree, byte[]> step) {
        long budget = options.maxPause().toNanos();
        int i = 0;
        long n = 0;
        while (i < keyList.size()) {
            try (WriteTransaction tx = store.begin()) {
                long held = System.nanoTime();
                BTree t;
                if (tree.equals(Store.COMMIT_INDEX)) {
                    t = store.writableCommitIndex();
                } else if (tx.hasTree(tree)) {
                    t = tx.tree(tree);
                } else {
                    return n; // dropped meanwhile
                }
                do {
                    n += step.applyAsLong(t, keyList.get(i++));
                } while (i < keyList.size() && System.nanoTime() - held < budget && t.dirtyPages() < maxDirty);
                tx.commit();
                paused(held);
            }
            afterCommit.run();
        }
        return n;
    }

    /** CPU time of the calling thread (user and system), 0 where the JVM does not measure it. */
    private static long threadCpuNanos() {
        java.lang.management.ThreadMXBean t = java.lang.management.ManagementFactory.getThreadMXBean();
        return t.isCurrentThreadCpuTimeSupported() ? Math.max(0, t.getCurrentThreadCpuTime()) : 0;
    }

    private void emptyCommit() {
        try (WriteTransaction tx = store.begin()) {
            long held = System.nanoTime();
            tx.commit();
            paused(held);
        }
        afterCommit.run();
    }

    private void paused(long heldSince) {
        commits++;
        maxPauseNanos = Math.max(maxPauseNanos, System.nanoTime() - heldSince);
    }

    /**
     * Waits (up to the configured time) while readers that were open before the wait began pin
     * commit points whose freed space is still held; true if none does now. Readers that open
     * meanwhile read the newest commit point and hold nothing the compaction needs, so a steady
     * stream of short queries does not stop it.
     */
    private boolean waitForReaders(long t0) {
        long startCommit = journal.lastCommit().counter();
        long deadline = System.nanoTime() + options.waitForReaders().toNanos();
        boolean logged = false;
        while (heldByOldReaders(startCommit) && System.nanoTime() < deadline) {
            if (!logged) {
                JournalStats s = journal.stats();
                LOG.info("{}: waiting up to {} for {} readers pinning commit point {} ({} bytes held)", journal.path(),
                        options.waitForReaders(), s.openReaders(), s.oldestPinnedCommit(), s.bytesPinned());
                logged = true;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException("online compaction of " + journal.path() + " was interrupted after "
                        + (System.nanoTime() - t0) / 1_000_000 + " ms; the store is consistent at its last commit");
            }
        }
        journal.releaseEligible();
        return !heldByOldReaders(startCommit);
    }

    private boolean heldByOldReaders(long startCommit) {
        JournalStats s = journal.stats();
        return s.bytesPinned() > 0 && s.oldestPinnedCommit() >= 0 && s.oldestPinnedCommit() < startCommit;
    }
}
