package dev.basalt.optimizer.exec;

import java.util.Arrays;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.TermIds;

/**
 * The scans of a {@link PatternScan} for one row after another (the input row, or each left row of a
 * {@link PipelineJoin}), their matches appended to a {@link Batch}: the batch form of an open per
 * row, with one prober for all. Not thread-safe: belongs to one batch cursor.
 */
final class PatternLookup implements AutoCloseable {
    private final PatternScan op;
    private final ExecContext ctx;
    /** The graphs the pattern is restricted to, or null. */
    private final long[] contexts;
    private final long[] pattern = new long[4];
    private QuadSource.Prober prober;
    private QuadSource.Scan scan;
    private int seen;
    /** Matches of the current block, four ids each (S, P, O, C). */
    private long[] block;
    /** Per slot: the pattern writes its column for the current row. */
    private boolean[] written;
    /** Per position (S, P, O, C): the batch column its id goes to, or null; for {@link QuadSource.Scan#nextColumns}. */
    private final long[][] byPosition = new long[4][];
    private final int[] freePos = new int[4];
    private final int[] freeSlot = new int[4];
    private final int[] checkPos = new int[4];
    /** Per check: the position whose id it must equal, or -1 for the row's id in its slot. */
    private final int[] checkWith = new int[4];
    private int nChecks;
    /**
     * The batches {@link #fill} writes already hold the row's id in every column the pattern does not
     * write, in every row (one row's batch cursor): fill does not write them again.
     */
    boolean rowFilled;
    /** Scans started and rows added, for EXPLAIN ({@link ExecContext#statistics}). */
    private long started;
    private long added;

    PatternLookup(PatternScan op, ExecContext ctx) {
        this.op = op;
        this.ctx = ctx;
        this.contexts = op.contexts();
    }

    /** Starts the matches of {@code row}: opens the scan with its bindings substituted. */
    void start(long[] row) {
        closeScan();
        started++;
        if (op.matchesNothing()) {
            return;
        }
        op.substitute(row, pattern);
        if (op.namedGraphsOnly() && pattern[3] == TermIds.DEFAULT_GRAPH) {
            return;
        }
        scan = op.rangeScan(pattern, ctx);
        if (scan != null) {
            return;
        }
        long[] sortedContexts = op.sortedContexts();
        if (sortedContexts == null || pattern[3] != TermIds.NULL) {
            if (sortedContexts != null && !ContextScans.contains(sortedContexts, pattern[3])) {
                return;
            }
            if (prober == null) {
                prober = ctx.prober(op);
            }
            scan = prober.scan(pattern);
        } else {
            scan = ContextScans.open(ctx.source(), pattern, contexts, sortedContexts);
        }
    }

    /**
     * Appends {@code row} (the row the scan was started with) extended by each match of the
     * started scan to {@code out} until it is full; true when the scan has no more matches. Where
     * no match needs a check (no variable bound by the row or repeated, not inside {@code GRAPH ?g})
     * and the scan reads an index, it writes the columns the pattern binds itself
     * ({@link QuadSource.Scan#nextColumns}); else the matches come a block at a time
     * ({@link QuadSource.Scan#nextBlock}) and a column the pattern binds is copied from the block.
     * A column it does not bind is filled with the row's id.
     */
    boolean fill(Batch out, long[] row) {
        if (scan == null) {
            return true;
        }
        if (written == null || written.length != row.length) {
            written = new boolean[row.length];
        }
        long[][] cols = out.cols;
        int nFree = plan(row);
        // with nothing to check per match, the scan writes the free positions' columns itself
        boolean direct = nChecks == 0 && !op.namedGraphsOnly() && scan.columnar();
        if (direct) {
            Arrays.fill(byPosition, null);
            for (int f = 0; f < nFree; f++) {
                byPosition[freePos[f]] = cols[freeSlot[f]];
            }
        } else if (block == null) {
            block = new long[4 * Batch.CAPACITY];
        }
        while (out.size < Batch.CAPACITY) {
            int first = out.size;
            int got = direct ? scan.nextColumns(byPosition, first, Batch.CAPACITY - first)
                    : scan.nextBlock(block, Batch.CAPACITY - first);
            if (got == 0) {
                closeScan();
                return true;
            }
            if ((seen += got) >= PatternScan.CHECK_EVERY) {
                seen = 0;
                ctx.checkCancelled();
            }
            int n = direct ? first + got : copyMatches(got, cols, first, row, nFree);
            for (int c = 0; c < cols.length && !rowFilled; c++) {
                if (!written[c]) {
                    Arrays.fill(cols[c], first, n, row[c]);
                }
            }
            out.size = n;
            added += n - first;
        }
        return false;
    }

    /**
     * Appends the matches of the block's first {@code got} that the pattern takes for {@code row} to
     * {@code cols} from row {@code first} on, their {@code nFree} writing positions each; returns the
     * row after the last.
     */
    private int copyMatches(int got, long[][] cols, int first, long[] row, int nFree) {
        int n = first;
        for (int e = 0, at = 0; e < got; e++, at += 4) {
            if (op.namedGraphsOnly() && block[at + 3] == TermIds.DEFAULT_GRAPH || !agrees(block, at, row)) {
                continue;
            }
            for (int f = 0; f < nFree; f++) {
                cols[freeSlot[f]][n] = block[at + freePos[f]];
            }
            n++;
        }
        return n;
    }

    /**
     * Sorts the pattern's positions for {@code row}: a position whose slot the row leaves unbound
     * (its first in the pattern) writes its column ({@link #freePos}, {@link #freeSlot},
     * {@link #written}); the others are checked by {@link #agrees}. Returns the number of writing positions.
     */
    private int plan(long[] row) {
        Arrays.fill(written, false);
        int nFree = 0;
        nChecks = 0;
        for (int i = 0; i < 4; i++) {
            int s = op.slot(i);
            if (s < 0) {
                continue;
            }
            if (row[s] != TermIds.NULL) {
                checkPos[nChecks] = i;
                checkWith[nChecks++] = -1;
            } else if (written[s]) {
                checkPos[nChecks] = i;
                checkWith[nChecks++] = freePosOf(s, nFree);
            } else {
                written[s] = true;
                freePos[nFree] = i;
                freeSlot[nFree++] = s;
            }
        }
        return nFree;
    }

    private int freePosOf(int slot, int nFree) {
        for (int f = 0; f < nFree; f++) {
            if (freeSlot[f] == slot) {
                return freePos[f];
            }
        }
        throw new IllegalStateException("slot " + slot + " not written");
    }

    /** Whether the match at {@code block[at...]} agrees with the row's bindings and repeats its own ids where a variable repeats. */
    private boolean agrees(long[] block, int at, long[] row) {
        for (int k = 0; k < nChecks; k++) {
            int i = checkPos[k];
            int with = checkWith[k];
            long want = with < 0 ? row[op.slot(i)] : block[at + with];
            if (block[at + i] != want) {
                return false;
            }
        }
        return true;
    }

    private void closeScan() {
        if (scan != null) {
            scan.close();
            scan = null;
        }
    }

    /** Adds this lookup's scans and rows to the operator's EXPLAIN counts. */
    void countInto() {
        if (ctx.statistics()) {
            op.count(started, added);
        }
    }

    @Override
    public void close() {
        closeScan();
        if (prober != null) {
            ctx.releaseProber(op, prober);
            prober = null;
        }
    }
}
