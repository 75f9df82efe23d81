package dev.basalt.optimizer.exec;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import dev.basalt.store.lexicon.TermIds;

/**
 * Hash join of two independently evaluated inputs, inner or left outer (OPTIONAL). The right input
 * is evaluated once with the operator's input row and held in a hash table keyed on the
 * {@code keySlots} (variables both sides always bind); every left row probes it. Rows are joined
 * when compatible on all {@code sharedSlots} (variables either side may bind), then an optional
 * condition (the OPTIONAL's FILTER) is checked on the merged row. A left outer join emits a left
 * row alone when no right row joins with it. Evaluating the right side on its own is the algebra's
 * semantics, so nested OPTIONALs, UNIONs and filters keep their scoping.
 *
 * <p>Memory: the build side is held up to {@link ExecLimits#hashJoinRows()} rows. Past that it
 * goes to a spill file and the join turns around (block nested loop): the left input is read in
 * blocks of that many rows, each block hashed on the key slots, and the whole spill file streamed
 * past it; a left outer join then emits the block's rows no right row joined with. Output order
 * is then block by block, right row by right row, not left row by left row. Without key slots
 * every right row meets every row of the block, as the in-memory join does.
 * Thread-safe like every operator (fields fixed at construction, each open's state in its cursor);
 * the spill figures EXPLAIN shows are {@link LongAdder}s that concurrent evaluations of a kept plan
 * add to.
 *
 * <p>An inner join may instead run its left side once per distinct key of the built right side
 * ({@link KeyDrive}), decided per open on the built side's number of keys.
 */
public final class HashJoin extends Operator {
    private final Operator left;
    private final Operator right;
    private final int[] keySlots;
    private final int[] sharedSlots;
    private final boolean leftOuter;
    private final RowFilter condition;
    /** The left side per key of the built right side, where that is cheaper ({@link KeyDrive}), or null. */
    private final KeyDrive drive;
    private final LongAdder spilledRows = new LongAdder();
    private final LongAdder drivenOpens = new LongAdder();

    public HashJoin(Operator left, Operator right, int[] keySlots, int[] sharedSlots, boolean leftOuter,
            RowFilter condition) {
        this(left, right, keySlots, sharedSlots, leftOuter, condition, null);
    }

    /** @param drive how the left side may run per key of the right side (an inner join without condition), or null */
    public HashJoin(Operator left, Operator right, int[] keySlots, int[] sharedSlots, boolean leftOuter,
            RowFilter condition, KeyDrive drive) {
        if (drive != null && (leftOuter || condition != null || keySlots.length == 0)) {
            throw new IllegalArgumentException("only an inner join on keys without a condition runs per key");
        }
        this.left = left;
        this.right = right;
        this.keySlots = keySlots.clone();
        this.sharedSlots = sharedSlots.clone();
        this.leftOuter = leftOuter;
        this.condition = condition;
        this.drive = drive;
    }

    /** How the left side may run per build key, or null. */
    public KeyDrive drive() {
        return drive;
    }

    /** The opens (over all evaluations of this plan) that ran the left side per build key. */
    public long drivenOpens() {
        return drivenOpens.sum();
    }

    public boolean isLeftOuter() {
        return leftOuter;
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return (leftOuter ? "HashLeftJoin" : "HashJoin") + " keys " + Arrays.toString(keySlots)
                + (condition == null ? "" : " if " + condition.describe())
                + (drive == null ? "" : " [or " + drive.describe() + ": taken in " + drivenOpens.sum() + " opens]")
                + (spilledRows.sum() > 0 ? " (spilled " + spilledRows.sum() + " build rows)" : "");
    }

    /** Whether this open runs the left side per key of {@code build} ({@link KeyDrive#takes}). */
    private boolean driven(HashBuild build) {
        if (drive == null || build.spill != null || !drive.takes(build.table.keys())) {
            return false;
        }
        drivenOpens.increment();
        return true;
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        HashBuild build = HashBuild.read(right, input, ctx, keySlots, "hashjoin");
        if (build.spill != null) {
            spilledRows.add(build.spill.rows());
        }
        if (driven(build)) {
            return drive.rows(build.table, sharedSlots, input, ctx);
        }
        RowCursor probe = left.open(input, ctx);
        return build.spill != null ? new Blocks(probe, build.spill, ctx.limits().hashJoinRows(), ctx)
                : new Probe(probe, build.table, ctx);
    }

    /** True when the left (probe) side has a batch form; the right side is read as rows into the table either way. */
    @Override
    public boolean batchable() {
        return left.batchable();
    }

    /**
     * The batch form: the right side is read into the table as in the row form, and the left side's
     * batches probe it row by row, the joined rows filling the output batch in left order. A spilled
     * build side turns around as in the row form, reading the left side as rows.
     */
    @Override
    protected BatchCursor doOpenBatch(long[] input, ExecContext ctx) {
        HashBuild build = HashBuild.read(right, input, ctx, keySlots, "hashjoin");
        if (build.spill != null) {
            spilledRows.add(build.spill.rows());
            return BatchCursor.of(new Blocks(left.open(input, ctx), build.spill, ctx.limits().hashJoinRows(), ctx),
                    input.length);
        }
        if (driven(build)) {
            return drive.batches(build.table, sharedSlots, input, ctx);
        }
        return new BatchProbe(left.openBatch(input, ctx), build.table, input.length, ctx);
    }

    /** The batch form of {@link Probe}: the rows of left batches probing the table, in left order. */
    private final class BatchProbe implements BatchCursor {
        private final BatchCursor probe;
        private final KeyedRows table;
        private final ExecContext ctx;
        private final Batch out;
        private final long[] current;
        private final long[] merged;
        private Batch from;
        private int at;
        /** The next right row of the current left row's key to look at, or -1. */
        private int match = -1;
        private boolean matched = true;
        private boolean done;

        BatchProbe(BatchCursor probe, KeyedRows table, int width, ExecContext ctx) {
            this.probe = probe;
            this.table = table;
            this.ctx = ctx;
            this.out = new Batch(width);
            this.current = new long[width];
            this.merged = new long[width];
        }

        @Override
        public Batch next() {
            out.size = 0;
            while (!done && !out.full()) {
                if (match >= 0) {
                    long[] r = table.row(match);
                    match = table.next(match);
                    if (Rows.compatible(current, r, sharedSlots)) {
                        for (int i = 0; i < merged.length; i++) {
                            merged[i] = current[i] != TermIds.NULL ? current[i] : r[i];
                        }
                        if (condition == null || condition.test(merged, ctx)) {
                            matched = true;
                            out.add(merged);
                        }
                    }
                    continue;
                }
                if (!matched) {
                    matched = true;
                    out.add(current);
                    continue;
                }
                if (from == null || at >= from.size) {
                    ctx.checkCancelled();
                    from = probe.next();
                    at = 0;
                    if (from == null) {
                        done = true;
                        break;
                    }
                }
                from.copyRow(at++, current);
                match = table.first(current);
                matched = !leftOuter;
            }
            return out.size == 0 ? null : out;
        }

        @Override
        public void close() {
            done = true;
            probe.close();
        }
    }

    /** Left rows probing the in-memory table of the right side, in left order. */
    private final class Probe implements RowCursor {
        private final RowCursor probe;
        private final KeyedRows table;
        private final ExecContext ctx;
        private long[] current;
        /** The next right row of the current left row's key to look at, or -1. */
        private int match = -1;
        private boolean matched;

        Probe(RowCursor probe, KeyedRows table, ExecContext ctx) {
            this.probe = probe;
            this.table = table;
            this.ctx = ctx;
        }

        @Override
        public long[] next() {
            while (true) {
                while (match >= 0) {
                    long[] m = join(current, table.row(match), ctx);
                    match = table.next(match);
                    if (m != null) {
                        matched = true;
                        return m;
                    }
                }
                if (current != null && leftOuter && !matched) {
                    matched = true;
                    return current;
                }
                current = probe.next();
                if (current == null) {
                    return null;
                }
                match = table.first(current);
                matched = false;
            }
        }

        @Override
        public void close() {
            probe.close();
        }
    }

    /** The merged row of a left and a right row if they join (compatible, and the condition holds), else null. */
    private long[] join(long[] l, long[] r, ExecContext ctx) {
        if (!Rows.compatible(l, r, sharedSlots)) {
            return null;
        }
        long[] m = Rows.merge(l, r);
        return condition == null || condition.test(m, ctx) ? m : null;
    }

    /** The spilled join: blocks of left rows, each hashed and met by the whole spill file of the right side. */
    private final class Blocks implements RowCursor {
        private final RowCursor probe;
        private final SpillFile spill;
        private final long budget;
        private final ExecContext ctx;
        /** The current block of left rows by key, or null before the first and after the last. */
        private KeyedRows block;
        private boolean[] matched;
        private SpillFile.Reader reader;
        private long[] rightRow;
        /** The next left row of the block with the right row's key, or -1. */
        private int candidate = -1;
        private int unmatched;
        private boolean leftDone;
        private long seen;

        Blocks(RowCursor probe, SpillFile spill, long budget, ExecContext ctx) {
            this.probe = probe;
            this.spill = spill;
            this.budget = budget;
            this.ctx = ctx;
        }

        @Override
        public long[] next() {
            while (true) {
                while (candidate >= 0) {
                    int i = candidate;
                    candidate = block.next(i);
                    long[] m = join(block.row(i), rightRow, ctx);
                    if (m != null) {
                        matched[i] = true;
                        return m;
                    }
                }
                if (reader != null) {
                    rightRow = reader.next();
                    if (++seen % 1024 == 0) {
                        ctx.checkCancelled();
                    }
                    if (rightRow != null) {
                        candidate = block.first(rightRow);
                        continue;
                    }
                    reader.close();
                    reader = null;
                }
                if (leftOuter && block != null) {
                    while (unmatched < block.rows()) {
                        int i = unmatched++;
                        if (!matched[i]) {
                            return block.row(i);
                        }
                    }
                }
                if (!nextBlock()) {
                    return null;
                }
            }
        }

        /** Reads the next block of left rows, hashes it and starts a pass over the spill file; false at the end. */
        private boolean nextBlock() {
            block = null;
            if (leftDone) {
                return false;
            }
            KeyedRows read = HashBuild.readBlock(probe, budget, keySlots);
            leftDone = read.rows() < budget;
            if (read.rows() == 0) {
                return false;
            }
            block = read;
            ctx.checkCancelled();
            matched = new boolean[block.rows()];
            unmatched = 0;
            reader = spill.reader();
            return true;
        }

        @Override
        public void close() {
            try {
                probe.close();
                if (reader != null) {
                    reader.close();
                }
            } finally {
                spill.close();
            }
        }
    }
}
