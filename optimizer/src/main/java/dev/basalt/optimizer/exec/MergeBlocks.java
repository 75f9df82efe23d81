package dev.basalt.optimizer.exec;

import java.util.Arrays;

import dev.basalt.store.lexicon.TermIds;

/**
 * The batch form of a {@link MergeJoin}: both patterns' matches come in blocks of ids in the join
 * variable's order ({@link OrderedBlocks}), the lagging side skips forward by a search of its block
 * (or a seek past a gap), and for each key both sides hold, the left matches of the key are copied
 * into a group and every right match of it is paired with each of them, the pairs written straight
 * into the output batch's columns. No row array per match or per pair.
 *
 * <p>A pattern's own repeated variable must repeat its id and, inside {@code GRAPH ?g}, the default
 * graph does not match ({@link #acceptable}); a variable both patterns bind besides the join variable
 * must have the same id in both ({@link #crossLeft}, {@link #crossRight}). The input row binds none of
 * the patterns' variables (the {@link MergeJoin} opens a nested loop otherwise); its other columns are
 * copied into every output row. Rows come in the order of the row form: by key, then right match,
 * then left match. The group holds one key's left matches (a key's, not the pattern's).
 * Not thread-safe: one cursor, read by the thread of its query.
 */
final class MergeBlocks implements BatchCursor {
    private final OrderedBlocks left;
    private final OrderedBlocks right;
    private final int rightPosition;
    private final long[] input;
    private final ExecContext ctx;
    private final Batch out;
    /** The left pattern's writing positions and their slots (a variable's first position). */
    private final int[] leftPos;
    private final int[] leftSlot;
    /** The right pattern's positions whose slots the left pattern does not write, and the slots. */
    private final int[] rightPos;
    private final int[] rightSlot;
    /** Pairs that must agree: a left position and a right position of one shared variable other than the key. */
    private final int[] crossLeft;
    private final int[] crossRight;
    /** Per pattern: position pairs of a repeated variable ({@code ?x :p ?x}). */
    private final int[][] leftRepeats;
    private final int[][] rightRepeats;
    private final boolean leftNamedOnly;
    private final boolean rightNamedOnly;
    /** Columns neither pattern writes: the input's ids. */
    private final int[] inputCols;
    /** The current key's accepted left matches, four ids each. */
    private long[] group = new long[4 * 64];
    private int groupSize;
    /** The group's ids by {@link #leftPos}: one column per written position. */
    private final long[][] groupCols;
    /** A right match of the current key is being paired; the next left match to pair it with. */
    private boolean pairing;
    private int nextLeft;
    private long key;
    private boolean done;

    MergeBlocks(MergeJoin join, OrderedBlocks left, OrderedBlocks right, long[] input, ExecContext ctx) {
        this.left = left;
        this.right = right;
        this.rightPosition = join.rightPosition();
        this.input = input;
        this.ctx = ctx;
        this.out = new Batch(input.length);
        int[] ls = join.left().slots();
        int[] rs = join.right().slots();
        leftNamedOnly = join.left().namedGraphsOnly();
        rightNamedOnly = join.right().namedGraphsOnly();
        leftRepeats = repeats(ls);
        rightRepeats = repeats(rs);
        boolean[] written = new boolean[input.length];
        int[][] l = firstPositions(ls, written);
        leftPos = l[0];
        leftSlot = l[1];
        int[] rp = new int[4];
        int[] rsl = new int[4];
        int[] cl = new int[4];
        int[] cr = new int[4];
        int nr = 0;
        int nc = 0;
        for (int i = 0; i < 4; i++) {
            int s = rs[i];
            if (s < 0 || firstOf(rs, s) != i) {
                continue;
            }
            int lp = firstOf(ls, s);
            if (lp >= 0) {
                if (i != rightPosition) {
                    cl[nc] = lp;
                    cr[nc++] = i;
                }
            } else {
                rp[nr] = i;
                rsl[nr++] = s;
                written[s] = true;
            }
        }
        groupCols = new long[Math.max(leftPos.length, 1)][64];
        rightPos = Arrays.copyOf(rp, nr);
        rightSlot = Arrays.copyOf(rsl, nr);
        crossLeft = Arrays.copyOf(cl, nc);
        crossRight = Arrays.copyOf(cr, nc);
        int[] ic = new int[input.length];
        int ni = 0;
        for (int c = 0; c < input.length; c++) {
            if (!written[c]) {
                ic[ni++] = c;
            }
        }
        inputCols = Arrays.copyOf(ic, ni);
    }

    @Override
    public Batch next() {
        if (done) {
            return null;
        }
        ctx.checkCancelled();
        out.size = 0;
        while (out.size < Batch.CAPACITY) {
            if (pairing) {
                if (!pairRight()) {
                    break;
                }
                continue;
            }
            if (!left.valid() || !right.valid()) {
                done = true;
                break;
            }
            long lv = left.key();
            long rv = right.key();
            int c = Long.compareUnsigned(lv, rv);
            if (c < 0) {
                left.skipTo(rv);
            } else if (c > 0) {
                right.skipTo(lv);
            } else {
                key = lv;
                collectGroup();
                if (groupSize == 0) {
                    skipKey(right);
                } else {
                    pairing = true;
                    nextLeft = 0;
                }
            }
        }
        int n = out.size;
        for (int col : inputCols) {
            Arrays.fill(out.cols[col], 0, n, input[col]);
        }
        return n == 0 ? null : out;
    }

    /**
     * Pairs the current right match with the group from {@link #nextLeft}, then moves to the key's
     * next right match; false when the batch filled first (the pairing goes on at the next call).
     */
    private boolean pairRight() {
        if (right.valid() && right.key() == key) {
            long[] rq = right.quads;
            int ra = 4 * right.at;
            if (nextLeft == 0 && !acceptable(rq, ra, rightRepeats, rightNamedOnly)) {
                nextLeft = groupSize;
            }
            long[][] cols = out.cols;
            int n = out.size;
            int g = nextLeft;
            if (crossLeft.length == 0 && g < groupSize) {
                // every left match pairs: the group's columns copied, the right match's ids repeated
                int m = Math.min(groupSize - g, Batch.CAPACITY - n);
                for (int k = 0; k < leftPos.length; k++) {
                    System.arraycopy(groupCols[k], g, cols[leftSlot[k]], n, m);
                }
                for (int k = 0; k < rightPos.length; k++) {
                    Arrays.fill(cols[rightSlot[k]], n, n + m, rq[ra + rightPos[k]]);
                }
                n += m;
                g += m;
            }
            for (; g < groupSize && n < Batch.CAPACITY; g++) {
                int la = 4 * g;
                if (!agrees(la, rq, ra)) {
                    continue;
                }
                for (int k = 0; k < leftPos.length; k++) {
                    cols[leftSlot[k]][n] = group[la + leftPos[k]];
                }
                for (int k = 0; k < rightPos.length; k++) {
                    cols[rightSlot[k]][n] = rq[ra + rightPos[k]];
                }
                n++;
            }
            out.size = n;
            if (g < groupSize) {
                nextLeft = g;
                return false;
            }
            nextLeft = 0;
            right.advance();
            return true;
        }
        pairing = false;
        groupSize = 0;
        return true;
    }

    private boolean agrees(int la, long[] rq, int ra) {
        for (int k = 0; k < crossLeft.length; k++) {
            if (group[la + crossLeft[k]] != rq[ra + crossRight[k]]) {
                return false;
            }
        }
        return true;
    }

    /** Copies the left matches of {@link #key} that the pattern takes into the group. */
    private void collectGroup() {
        groupSize = 0;
        while (left.valid() && left.key() == key) {
            long[] q = left.quads;
            int a = 4 * left.at;
            if (acceptable(q, a, leftRepeats, leftNamedOnly)) {
                if (4 * groupSize == group.length) {
                    group = Arrays.copyOf(group, 2 * group.length);
                }
                if (groupSize == groupCols[0].length) {
                    for (int k = 0; k < groupCols.length; k++) {
                        groupCols[k] = Arrays.copyOf(groupCols[k], 2 * groupSize);
                    }
                }
                for (int k = 0; k < leftPos.length; k++) {
                    groupCols[k][groupSize] = q[a + leftPos[k]];
                }
                System.arraycopy(q, a, group, 4 * groupSize++, 4);
            }
            left.advance();
        }
    }

    /** Moves {@code side} past the matches of {@link #key}. */
    private void skipKey(OrderedBlocks side) {
        while (side.valid() && side.key() == key) {
            side.advance();
        }
    }

    /** Whether a pattern takes the match at {@code q[a...]}: its repeated variables agree, and not the default graph inside GRAPH. */
    private static boolean acceptable(long[] q, int a, int[][] repeats, boolean namedOnly) {
        if (namedOnly && q[a + 3] == TermIds.DEFAULT_GRAPH) {
            return false;
        }
        for (int[] r : repeats) {
            if (q[a + r[0]] != q[a + r[1]]) {
                return false;
            }
        }
        return true;
    }

    /** Position pairs (first, later) of each variable a pattern holds more than once. */
    private static int[][] repeats(int[] slots) {
        int[][] out = new int[6][];
        int n = 0;
        for (int i = 0; i < 4; i++) {
            int f = slots[i] < 0 ? -1 : firstOf(slots, slots[i]);
            if (f >= 0 && f != i) {
                out[n++] = new int[] {f, i};
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** The positions holding each variable first, and its slots; marks the slots written. */
    private static int[][] firstPositions(int[] slots, boolean[] written) {
        int[] pos = new int[4];
        int[] sl = new int[4];
        int n = 0;
        for (int i = 0; i < 4; i++) {
            if (slots[i] >= 0 && firstOf(slots, slots[i]) == i) {
                pos[n] = i;
                sl[n++] = slots[i];
                written[slots[i]] = true;
            }
        }
        return new int[][] {Arrays.copyOf(pos, n), Arrays.copyOf(sl, n)};
    }

    private static int firstOf(int[] slots, int slot) {
        for (int i = 0; i < 4; i++) {
            if (slots[i] == slot) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public void close() {
        done = true;
        pairing = false;
        groupSize = 0;
        left.close();
        right.close();
    }
}
