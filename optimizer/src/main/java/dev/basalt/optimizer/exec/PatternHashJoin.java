package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Hash join of a left input with one pattern: the pattern is scanned once, with the operator's
 * input row only, into a hash table on the {@code keySlots} (the pattern's variables the left rows
 * always bind, and all that they may bind), and each left row takes its matches from the table
 * instead of an index lookup. Yields what a {@link PipelineJoin} with the same pattern yields, in
 * the same order (a left row's matches in the pattern's scan order).
 *
 * <p>The table belongs to the evaluation, not to one open: it is built at the first open and
 * shared by every later open with the same input row and by the helper threads of a
 * {@link ParallelJoin} ({@link ExecContext#shared}), so a chain run in chunks builds it once. An
 * open with another input row (the group opened per row of an outer operator) and a pattern with
 * more than {@link ExecLimits#hashJoinRows()} matches (the table is dropped) look every left row's
 * matches up in the index, as a {@code PipelineJoin} does: at most one table per evaluation.
 *
 * <p>Thread-safe as a {@code ParallelJoin} body needs: no state outside its cursors and the shared
 * table, which is read only once built.
 */
public final class PatternHashJoin extends Operator {
    private final Operator left;
    private final PatternScan right;
    private final int[] keySlots;
    private final String reason;

    public PatternHashJoin(Operator left, PatternScan right, int[] keySlots) {
        this(left, right, keySlots, null);
    }

    /** @param reason why the compiler chose it (the estimates), shown by EXPLAIN, or null */
    public PatternHashJoin(Operator left, PatternScan right, int[] keySlots, String reason) {
        this.left = left;
        this.right = right;
        this.keySlots = keySlots.clone();
        this.reason = reason;
    }

    public Operator left() {
        return left;
    }

    public PatternScan right() {
        return right;
    }

    /** Why the compiler chose it, or null. */
    public String reason() {
        return reason;
    }

    public int[] keySlots() {
        return keySlots.clone();
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return "PatternHashJoin keys " + Arrays.toString(keySlots) + (reason == null ? "" : " [" + reason + "]");
    }

    @Override
    public boolean batchable() {
        return left.batchable();
    }

    /**
     * The batch form: the table holds the matches by columns ({@link IdHashTable}, one per evaluation
     * like the row table); past the row budget, the left rows' matches are looked up.
     */
    @Override
    protected BatchCursor doOpenBatch(long[] input, ExecContext ctx) {
        IdHashTable table = ctx.shared(right.columnsKey(), input, () -> IdHashTable.build(right, input, ctx, keySlots));
        if (table == null) {
            return PipelineJoin.lookups(left, right, input, ctx);
        }
        BatchCursor probe = left.openBatch(input, ctx);
        Batch out = new Batch(input.length);
        int[] slots = new int[Batch.CAPACITY];
        return new BatchCursor() {
            Batch from;
            int at;
            /** The left row's next match past its first, or -1. */
            int match = -1;
            boolean done;

            @Override
            public Batch next() {
                out.size = 0;
                while (!done) {
                    while (match >= 0) {
                        if (out.full()) {
                            return out;
                        }
                        table.bind(out, out.addCopy(from, at), match);
                        match = table.next(match);
                        if (match < 0) {
                            at++;
                        }
                    }
                    if (from == null || at >= from.size) {
                        from = probe.next();
                        at = 0;
                        if (from == null) {
                            done = true;
                            break;
                        }
                        table.findAll(from, slots);
                    }
                    // the left rows of this batch with their first match, while the output has room
                    int end = Math.min(from.size, at + Batch.CAPACITY - out.size);
                    while (at < end) {
                        int slot = slots[at];
                        if (slot >= 0) {
                            table.bindFirst(out, out.addCopy(from, at), slot);
                            match = table.second(slot);
                            if (match >= 0) {
                                break;
                            }
                        }
                        at++;
                    }
                    if (match < 0 && out.full()) {
                        return out;
                    }
                }
                return out.size == 0 ? null : out;
            }

            @Override
            public void close() {
                done = true;
                probe.close();
            }
        };
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        Table table = ctx.shared(right, input, () -> Table.build(right, input, ctx, keySlots));
        if (table == null) {
            return CorrelatedJoin.nestedLoop(left, right, input, ctx);
        }
        RowCursor probe = left.open(input, ctx);
        return new RowCursor() {
            long[] current;
            int match = -1;

            @Override
            public long[] next() {
                while (true) {
                    if (match >= 0) {
                        long[] m = Rows.merge(current, table.rows[match]);
                        match = table.next(match);
                        return m;
                    }
                    current = probe.next();
                    if (current == null) {
                        return null;
                    }
                    match = table.first(current);
                }
            }

            @Override
            public void close() {
                probe.close();
            }
        };
    }

    /**
     * The pattern's matches by the ids in their key slots: an open-addressing table (linear
     * probing) whose slot holds a key's ids beside the index of its first match in one array, so a
     * probe that finds nothing reads one place; matches of one key are chained in scan order.
     */
    static final class Table {
        final long[][] rows;
        private final int[] keySlots;
        /** Per table slot: the first match's index + 1 (0 = empty), then the key's ids. */
        private final long[] slots;
        private final int stride;
        private final int mask;
        /** Per match: the index of the next match of its key, or -1. */
        private final int[] next;

        private Table(long[][] rows, int[] keySlots) {
            this.rows = rows;
            this.keySlots = keySlots;
            this.stride = keySlots.length + 1;
            int capacity = Integer.highestOneBit(Math.max(rows.length, 1) * 2 - 1) << 1;
            this.mask = capacity - 1;
            this.slots = new long[capacity * stride];
            this.next = new int[rows.length];
            for (int i = rows.length - 1; i >= 0; i--) {
                int at = find(rows[i]);
                if (slots[at] != 0) {
                    next[i] = (int) slots[at] - 1;
                } else {
                    next[i] = -1;
                    for (int k = 0; k < keySlots.length; k++) {
                        slots[at + 1 + k] = rows[i][keySlots[k]];
                    }
                }
                slots[at] = i + 1;
            }
        }

        /** The matches of {@code right} opened on {@code input}, or null past {@link ExecLimits#hashJoinRows()}. */
        static Table build(PatternScan right, long[] input, ExecContext ctx, int[] keySlots) {
            long budget = ctx.limits().hashJoinRows();
            ArrayList<long[]> rows = new ArrayList<>();
            try (RowCursor c = right.open(input, ctx)) {
                long[] r;
                while ((r = c.next()) != null) {
                    if (rows.size() >= budget) {
                        return null;
                    }
                    rows.add(r);
                }
            }
            return new Table(rows.toArray(new long[0][]), keySlots);
        }

        /** The array index of the table slot holding {@code row}'s key, or of the empty slot where it belongs. */
        private int find(long[] row) {
            long h = 0;
            for (int s : keySlots) {
                h = (h + row[s]) * 0x9E3779B97F4A7C15L;
            }
            int slot = (int) (h ^ h >>> 29) & mask;
            while (true) {
                int at = slot * stride;
                if (slots[at] == 0 || sameKey(at, row)) {
                    return at;
                }
                slot = slot + 1 & mask;
            }
        }

        private boolean sameKey(int at, long[] row) {
            for (int k = 0; k < keySlots.length; k++) {
                if (slots[at + 1 + k] != row[keySlots[k]]) {
                    return false;
                }
            }
            return true;
        }

        /** The first match of {@code probe}'s key, or -1. */
        int first(long[] probe) {
            return (int) slots[find(probe)] - 1;
        }

        /** The match after {@code i} of the same key, or -1. */
        int next(int i) {
            return next[i];
        }
    }
}
