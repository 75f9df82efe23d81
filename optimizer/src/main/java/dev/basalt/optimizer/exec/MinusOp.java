package dev.basalt.optimizer.exec;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

import dev.basalt.store.lexicon.TermIds;

/**
 * MINUS (Difference) as a hash anti-join with SPARQL's semantics: a left row is removed when some
 * right row is compatible with it and both bind at least one common variable; a right row that
 * shares no bound variable with it removes nothing. The right side is evaluated once with the
 * operator's input row and hashed on {@code keySlots} (variables both sides always bind; with
 * none, every right row is a candidate). Slots the input row binds count as shared, as in RDF4J's
 * evaluator, where both sides carry the incoming bindings. A variable a BIND left unbound by an
 * error ({@link ExecContext#UNBOUND_BY_ERROR}) is outside the solution's domain: it is neither
 * shared nor compared (SPARQL 1.1 section 18.6, Extend and Minus).
 *
 * <p>Memory: the right side is held up to {@link ExecLimits#hashJoinRows()} rows. Past that it
 * goes to a spill file and the left side is read in blocks of that many rows, each block hashed
 * and met by the whole spill file; a block's rows that no right row removed are then emitted in
 * their order, so the output order is the left side's either way.
 * Thread-safe like every operator (fields fixed at construction, each open's state in its cursor);
 * the spill figures EXPLAIN shows are {@link LongAdder}s that concurrent evaluations of a kept plan
 * add to.
 */
public final class MinusOp extends Operator {
    private final Operator left;
    private final Operator right;
    private final int[] keySlots;
    private final int[] sharedSlots;
    private final LongAdder spilledRows = new LongAdder();

    /**
     * @param keySlots variables both sides always bind
     * @param sharedSlots variables both sides mention (a superset of the keys)
     */
    public MinusOp(Operator left, Operator right, int[] keySlots, int[] sharedSlots) {
        this.left = left;
        this.right = right;
        this.keySlots = keySlots.clone();
        this.sharedSlots = sharedSlots.clone();
    }

    @Override
    public List<Operator> children() {
        return List.of(left, right);
    }

    @Override
    public String describe() {
        return "Minus keys " + Arrays.toString(keySlots) + " shared " + Arrays.toString(sharedSlots)
                + (spilledRows.sum() > 0 ? " (spilled " + spilledRows.sum() + " right rows)" : "");
    }

    @Override
    protected RowCursor doOpen(long[] input, ExecContext ctx) {
        int[] shared = withInputSlots(input);
        HashBuild build = HashBuild.read(right, input, ctx, keySlots, "minus");
        if (build.spill != null) {
            spilledRows.add(build.spill.rows());
        }
        RowCursor probe = left.open(input, ctx);
        return build.spill != null ? new Blocks(probe, build.spill, ctx.limits().hashJoinRows(), shared, ctx)
                : new Probe(probe, build.table, shared);
    }

    /** Left rows probing the in-memory table of the right side. */
    private final class Probe implements RowCursor {
        private final RowCursor probe;
        private final KeyedRows table;
        private final int[] shared;

        Probe(RowCursor probe, KeyedRows table, int[] shared) {
            this.probe = probe;
            this.table = table;
            this.shared = shared;
        }

        @Override
        public long[] next() {
            long[] l;
            while ((l = probe.next()) != null) {
                if (!removed(l)) {
                    return l;
                }
            }
            return null;
        }

        /** Whether a right row of {@code l}'s key removes it. */
        private boolean removed(long[] l) {
            for (int r = table.first(l); r >= 0; r = table.next(r)) {
                if (removes(l, table.row(r), shared)) {
                    return true;
                }
            }
            return false;
        }

        @Override
        public void close() {
            probe.close();
        }
    }

    /** The spilled anti-join: blocks of left rows, each hashed and met by the whole spill file of the right side. */
    private final class Blocks implements RowCursor {
        private final RowCursor probe;
        private final SpillFile spill;
        private final long budget;
        private final int[] shared;
        private final ExecContext ctx;
        /** The current block of left rows by key, or null before the first and after the last. */
        private KeyedRows block;
        private boolean[] removed;
        private int emitted;
        private boolean leftDone;

        Blocks(RowCursor probe, SpillFile spill, long budget, int[] shared, ExecContext ctx) {
            this.probe = probe;
            this.spill = spill;
            this.budget = budget;
            this.shared = shared;
            this.ctx = ctx;
        }

        @Override
        public long[] next() {
            while (true) {
                while (block != null && emitted < block.rows()) {
                    int i = emitted++;
                    if (!removed[i]) {
                        return block.row(i);
                    }
                }
                if (!nextBlock()) {
                    return null;
                }
            }
        }

        /** Reads the next block of left rows and marks those the spilled right side removes; false at the end. */
        private boolean nextBlock() {
            block = null;
            emitted = 0;
            if (leftDone) {
                return false;
            }
            KeyedRows read = HashBuild.readBlock(probe, budget, keySlots);
            leftDone = read.rows() < budget;
            if (read.rows() == 0) {
                return false;
            }
            block = read;
            removed = new boolean[block.rows()];
            try (SpillFile.Reader reader = spill.reader()) {
                long[] r;
                long seen = 0;
                while ((r = reader.next()) != null) {
                    if (++seen % 1024 == 0) {
                        ctx.checkCancelled();
                    }
                    for (int i = block.first(r); i >= 0; i = block.next(i)) {
                        if (!removed[i] && removes(block.row(i), r, shared)) {
                            removed[i] = true;
                        }
                    }
                }
            }
            return true;
        }

        @Override
        public void close() {
            try {
                probe.close();
            } finally {
                spill.close();
            }
        }
    }

    /** Whether right row {@code r} removes left row {@code l}: compatible, with a common bound variable. */
    private static boolean removes(long[] l, long[] r, int[] shared) {
        boolean common = false;
        for (int s : shared) {
            if (ExecContext.isBound(l[s]) && ExecContext.isBound(r[s])) {
                if (l[s] != r[s]) {
                    return false;
                }
                common = true;
            }
        }
        return common;
    }

    private int[] withInputSlots(long[] input) {
        int[] out = Arrays.copyOf(sharedSlots, sharedSlots.length + input.length);
        int n = sharedSlots.length;
        for (int s = 0; s < input.length; s++) {
            if (ExecContext.isBound(input[s]) && !contains(sharedSlots, s)) {
                out[n++] = s;
            }
        }
        return Arrays.copyOf(out, n);
    }

    private static boolean contains(int[] slots, int slot) {
        for (int s : slots) {
            if (s == slot) {
                return true;
            }
        }
        return false;
    }

}
