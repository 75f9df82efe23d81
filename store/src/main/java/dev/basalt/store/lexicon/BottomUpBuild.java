package dev.basalt.store.lexicon;

import java.nio.file.Path;
import java.util.concurrent.FutureTask;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.io.TaskResults;

/**
 * The dictionary of a transaction that starts from an empty TERM2ID (a bulk load into a new store),
 * built bottom-up instead of one insert per term: TERM2ID entries are kept in a
 * {@link BottomUpTermIndex} and, each time they reach their heap budget, merged into the tree in
 * one sequential rebuild ({@link BTree#bulkMerge}); a {@link MergedKeysFilter} of the merged keys
 * lets most new terms skip the tree lookup. ID2TERM values go to {@link SpilledTermValues} files
 * when a spill directory is given (and ID2TERM is empty), otherwise straight into the tree. At
 * {@link #finish()} the remaining entries and the spilled values are written bottom-up, in key and
 * id order. Ids are handed out by the writer as without it, in the order terms come.
 *
 * <p>Not thread-safe: the lexicon writer's one thread. {@link #finish()} sorts TERM2ID's keys on
 * a helper thread of its own while the calling thread writes ID2TERM; the helper reads the
 * in-memory entries only, which nobody changes then, and ends before {@code finish} returns.
 */
final class BottomUpBuild {
    private static final Logger LOG = LoggerFactory.getLogger(BottomUpBuild.class);
    private final BTree termToId;
    private final BTree idToTerm;
    /** The entries not merged into the tree yet. */
    private BottomUpTermIndex entries = new BottomUpTermIndex();
    /** The ID2TERM values of this build when they are spilled to files; else null. */
    private final SpilledTermValues spilled;
    /** Heap bytes the in-memory entries (and the filter) may take before they are merged into the tree. */
    private final long budget;
    /** Times the in-memory entries were merged into the tree at their budget. */
    private int merges;
    /** The keys merged into TERM2ID so far, so that a new term skips the tree; dropped past a quarter of the budget. */
    private final MergedKeysFilter mergedKeys = new MergedKeysFilter();
    /** Lookups of keys in the tree that {@link #mergedKeys} made unnecessary. */
    private long treeLookupsSkipped;

    private BottomUpBuild(BTree termToId, BTree idToTerm, Path spillDirectory, long budget) {
        this.termToId = termToId;
        this.idToTerm = idToTerm;
        this.budget = budget;
        this.spilled = spillDirectory != null && idToTerm.isEmpty() ? new SpilledTermValues(spillDirectory) : null;
    }

    /** A build over these trees if TERM2ID is empty, else null; values spill under {@code spillDirectory} if not null. */
    static BottomUpBuild startIfEmpty(BTree termToId, BTree idToTerm, Path spillDirectory, long budgetBytes) {
        return termToId.isEmpty() ? new BottomUpBuild(termToId, idToTerm, spillDirectory, budgetBytes) : null;
    }

    /** The id under a TERM2ID key, in memory or in the part already merged into the tree; {@link TermIds#NULL} if neither. */
    long get(byte[] t2iKey) {
        long id = entries.get(t2iKey);
        if (id == TermIds.NULL && mayBeMerged(t2iKey)) {
            byte[] v = termToId.get(t2iKey);
            id = v == null ? TermIds.NULL : Lexicon.getLong(v);
        }
        return id;
    }

    /** Whether TERM2ID may hold {@code t2iKey} (false: it does not). */
    private boolean mayBeMerged(byte[] t2iKey) {
        if (termToId.isEmpty()) {
            return false;
        }
        if (mergedKeys.mightContain(t2iKey)) {
            return true;
        }
        treeLookupsSkipped++;
        return false;
    }

    /** Adds a new TERM2ID entry; merges the entries into the tree once they reach the budget. */
    void put(byte[] t2iKey, long id) {
        entries.put(t2iKey, id);
        if (entries.bytes() + mergedKeys.bytes() > budget) {
            merge();
        }
    }

    /** Stores a new term's ID2TERM value: in the spill files if there are any, else in the tree. */
    void putValue(long id, byte[] stored) {
        if (spilled != null) {
            spilled.put(id, stored);
        } else {
            idToTerm.put(LexiconView.idKey(id), stored);
        }
    }

    /** The spilled ID2TERM value of {@code id}, or null if it is not spilled (then the tree has it, if anyone). */
    byte[] spilledValue(long id) {
        return spilled == null ? null : spilled.get(id);
    }

    /**
     * Merges the in-memory entries into TERM2ID bottom-up (one sequential rebuild of the tree) and
     * goes on with an empty in-memory index: ids are still handed out in the order terms come,
     * TERM2ID's pages are full, and the heap the entries took is free.
     */
    private void merge() {
        BottomUpTermIndex full = entries;
        entries = new BottomUpTermIndex();
        long t0 = System.nanoTime();
        int n = full.size();
        if (mergedKeys.startMerge(n, budget / 4)) {
            full.writeTo(termToId, mergedKeys::add);
        } else {
            full.writeTo(termToId);
        }
        merges++;
        LOG.info("{} in-memory dictionary entries merged bottom-up into TERM2ID (now {} entries) in {} ms; {} tree"
                + " lookups of new keys skipped so far, merged-key filters {} bytes{}", n, termToId.size(),
                (System.nanoTime() - t0) / 1_000_000, treeLookupsSkipped, mergedKeys.bytes(),
                mergedKeys.dropped() ? " (dropped: past a quarter of the budget)" : "");
    }

    /**
     * Writes the entries and spilled values into TERM2ID and ID2TERM. When TERM2ID is still empty
     * and values were spilled, its keys are sorted on a helper thread while this one writes ID2TERM.
     */
    void finish() {
        if (spilled == null || !termToId.isEmpty()) {
            // a merge into TERM2ID (the budget was passed) frees the tree's previous pages: it goes
            // first, so that ID2TERM's pages fill that space rather than leave it free in the file
            entries.writeTo(termToId);
            if (spilled != null) {
                spilled.writeTo(idToTerm);
            }
            return;
        }
        FutureTask<int[]> sort = new FutureTask<>(entries::sortedOrder);
        Thread sorter = new Thread(sort, "basalt-term-sort");
        sorter.setDaemon(true);
        sorter.start();
        try {
            spilled.writeTo(idToTerm);
        } catch (RuntimeException e) {
            sort.cancel(true);
            throw e;
        }
        entries.writeTo(termToId, TaskResults.await(sort, "sorting the dictionary's keys"));
    }

    /** Closes the spill files of a build that is dropped unwritten (its transaction rolls back). */
    void discard() {
        if (spilled != null) {
            spilled.close();
        }
    }

    int merges() {
        return merges;
    }

    long treeLookupsSkipped() {
        return treeLookupsSkipped;
    }
}
