package dev.basalt.optimizer.exec;

/**
 * Per term id, a count of rows and the exact sum of a number over them, for {@link GroupJoinOp}: an
 * {@link IdSlots} table whose slot holds the id, the count, the sum's unscaled digits and its form
 * (scale in bits 0-4, bit 5 set when a decimal was added, as in {@link JoinedAggregation}) side by
 * side. Sums keep the largest scale added, as exact decimal addition does; counts and sums add
 * exactly (an overflow throws {@code ArithmeticException}). Not thread-safe: one open's.
 */
final class IdSums extends IdSlots implements PartialTotals {
    private static final int STRIDE = 4;
    private static final long[] POW10 = new long[19];

    static {
        POW10[0] = 1;
        for (int i = 1; i < POW10.length; i++) {
            POW10[i] = POW10[i - 1] * 10;
        }
    }

    /** A table sized for about {@code expected} ids (at least 64 slots, at most 2^20 to start). */
    IdSums(long expected) {
        super(expected, STRIDE);
    }

    /** The scale of a packed number or a sum's form. */
    static int scale(long form) {
        return (int) form & 31;
    }

    /** Whether a packed number or a sum's form is a decimal. */
    static boolean decimal(long form) {
        return (form & 32) != 0;
    }

    /** {@code unscaled} of scale {@code from} at the larger scale {@code to}; throws past a {@code long}. */
    static long rescale(long unscaled, int from, int to) {
        int d = to - from;
        if (d == 0 || unscaled == 0) {
            return unscaled;
        }
        if (d >= POW10.length) {
            throw new ArithmeticException("scale " + to);
        }
        return Math.multiplyExact(unscaled, POW10[d]);
    }

    /** Adds {@code count} rows whose numbers sum to {@code sum} of form {@code form} to {@code id} (not 0). */
    @Override
    public void add(long id, long count, long sum, long form) {
        int at = find(id);
        if (slots[at] == 0) {
            slots[at] = id;
            slots[at + 1] = count;
            slots[at + 2] = sum;
            slots[at + 3] = form;
            claimed();
            return;
        }
        slots[at + 1] = Math.addExact(slots[at + 1], count);
        long old = slots[at + 3];
        int scale = Math.max(scale(old), scale(form));
        slots[at + 2] = Math.addExact(rescale(slots[at + 2], scale(old), scale), rescale(sum, scale(form), scale));
        slots[at + 3] = scale | (old | form) & 32;
    }

    /** The array index of {@code id}'s entry, or -1 if it has none. */
    int entry(long id) {
        int at = find(id);
        return slots[at] == 0 ? -1 : at;
    }

    /**
     * {@link #entry} of {@code n} ids at once, into {@code at} (-1: none), reading their home slots in one pass
     * first ({@link #findAll}; {@code homeKeys}: scratch of at least {@code n} longs).
     */
    void entries(long[] ids, int n, int[] at, long[] homeKeys) {
        findAll(ids, n, at, homeKeys);
        for (int i = 0; i < n; i++) {
            if (slots[at[i]] == 0) {
                at[i] = -1;
            }
        }
    }

    /** The first array index past the last entry (iterate with {@link #id} from 0 by {@link #STRIDE}). */
    int end() {
        return slots.length;
    }

    /** The id at {@code at}, 0 for an empty slot. */
    long id(int at) {
        return slots[at];
    }

    static int stride() {
        return STRIDE;
    }

    long count(int at) {
        return slots[at + 1];
    }

    long sum(int at) {
        return slots[at + 2];
    }

    long form(int at) {
        return slots[at + 3];
    }
}
