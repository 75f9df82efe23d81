package dev.basalt.optimizer.exec;

/**
 * The layout of one side's rows in a {@link GroupJoinOp} join by partitions, and the join of the two
 * sides. A row is its key (the id the two sides share), on the parent's side the out key (the id its
 * partial goes to), then its partial aggregate, in as few longs as the side needs:
 * <ul>
 * <li>a side whose every row stands for one joined row ({@code unit}: a pattern with no child table
 * to multiply by) keeps no count; with sums, its one long is the packed number of
 * {@link JoinedAggregation} (unscaled digits shifted left by 6, the form in bits 0-5), else nothing;</li>
 * <li>any other side keeps the count and the sum's form in one long (count shifted left by 6), then
 * the sum's unscaled digits where the side holds sums.</li>
 * </ul>
 * At most one side holds sums. Immutable; the join's tables live in the call, on its caller's thread.
 */
final class PartialRows {
    /** Longs before the partial: 1 (key) or 2 (key, out key). */
    private final int lead;
    private final boolean unit;
    private final boolean sums;

    PartialRows(int lead, boolean unit, boolean sums) {
        this.lead = lead;
        this.unit = unit;
        this.sums = sums;
    }

    /** Longs per row. */
    int width() {
        return lead + (unit ? (sums ? 1 : 0) : (sums ? 2 : 1));
    }

    boolean unit() {
        return unit;
    }

    boolean sums() {
        return sums;
    }

    /**
     * A count and a sum's form ({@link IdSums}: 6 bits) in one long of a partitioned row; throws
     * {@code ArithmeticException} (the rows then do the work) for a count of 2^57 or more.
     */
    static long countAndForm(long count, long form) {
        if (count >>> 57 != 0) {
            throw new ArithmeticException("count " + count);
        }
        return count << 6 | form;
    }

    /** The count of the row at {@code at} of {@code rows}. */
    private long count(long[] rows, int at) {
        return unit ? 1 : rows[at + lead] >>> 6;
    }

    /** The sum's unscaled digits of the row at {@code at} (0 where the side holds no sums). */
    private long sum(long[] rows, int at) {
        if (!sums) {
            return 0;
        }
        return unit ? rows[at + lead] >> 6 : rows[at + lead + 1];
    }

    /** The sum's form of the row at {@code at}. */
    private long form(long[] rows, int at) {
        if (unit) {
            return sums ? rows[at + lead] & 63 : 0;
        }
        return rows[at + lead] & 63;
    }

    /**
     * Joins {@code built}'s rows (laid out as {@code builtRows}: key, partial) with {@code probes}'
     * rows (as {@code probeRows}: key, out key, partial) partition by partition, a group of
     * partitions at a time (read back from disk where the sets spilled), adding each match's product
     * to {@code out} under the probe's out key.
     */
    static void join(RowPartitions built, PartialRows builtRows, RowPartitions probes, PartialRows probeRows,
            PartialTotals out, ExecContext ctx) {
        IdSums table = null;
        int made = 0;
        IdNumbers numbers = null;
        int numbersMade = 0;
        boolean byNumbers = builtRows.unit && builtRows.sums;
        int builtWidth = builtRows.width();
        for (int g = 0; g < built.groups(); g++) {
            ctx.checkCancelled();
            built.restore(g);
            probes.restore(g);
            for (int p = built.firstOf(g); p < built.firstOf(g + 1); p++) {
                int n = built.used(p) / builtWidth;
                if (n == 0 || probes.used(p) == 0) {
                    continue;
                }
                long[] from = built.rows(p);
                if (byNumbers) {
                    // one table for partitions of about one size, as below
                    if (numbers != null && n / 2 <= numbersMade && numbersMade <= 2 * n) {
                        numbers.clear();
                    } else {
                        numbersMade = n;
                        numbers = new IdNumbers(n);
                    }
                    if (fill(numbers, from, n)) {
                        probeRows.probe(numbers, probes.rows(p), probes.used(p), out);
                        continue;
                    }
                }
                // one table for partitions of about one size; clearing costs at most 4 times the rows' share
                if (table != null && n / 2 <= made && made <= 2 * n) {
                    table.clear();
                } else {
                    made = n;
                    table = new IdSums(made);
                }
                for (int i = 0; i < builtWidth * n; i += builtWidth) {
                    table.add(from[i], builtRows.count(from, i), builtRows.sum(from, i), builtRows.form(from, i));
                }
                probeRows.probe(table, builtRows.sums, probes.rows(p), probes.used(p), out);
            }
            built.release(g);
            probes.release(g);
        }
    }

    /**
     * Puts the {@code n} rows (key, packed number) of {@code from} into {@code numbers}; false if a key
     * comes twice (the general table then takes the partition).
     */
    private static boolean fill(IdNumbers numbers, long[] from, int n) {
        for (int i = 0; i < 2 * n; i += 2) {
            if (!numbers.putNew(from[i], from[i + 1])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Probes {@code numbers} (the built side's rows, one joined row each with its packed number) with
     * {@code used} longs of this side's rows (key, out key, partial without sums), adding each match's
     * product to {@code out}.
     */
    private void probe(IdNumbers numbers, long[] probe, int used, PartialTotals out) {
        int width = width();
        for (int i = 0; i < used; i += width) {
            int at = numbers.numberAt(probe[i]);
            if (at < 0) {
                continue;
            }
            long count = count(probe, i);
            long number = numbers.number(at);
            out.add(probe[i + 1], count, Math.multiplyExact(number >> 6, count), number & 63);
        }
    }

    /**
     * Probes {@code table} with {@code used} longs of this side's rows (key, out key, partial),
     * adding each match's product to {@code out}.
     */
    private void probe(IdSums table, boolean builtHoldsValue, long[] probe, int used, PartialTotals out) {
        int width = width();
        for (int i = 0; i < used; i += width) {
            int at = table.entry(probe[i]);
            if (at < 0) {
                continue;
            }
            long count = count(probe, i);
            long n2 = table.count(at);
            long sum = builtHoldsValue ? Math.multiplyExact(table.sum(at), count)
                    : Math.multiplyExact(sum(probe, i), n2);
            long form = builtHoldsValue ? table.form(at) : form(probe, i);
            out.add(probe[i + 1], Math.multiplyExact(count, n2), sum, form);
        }
    }
}
