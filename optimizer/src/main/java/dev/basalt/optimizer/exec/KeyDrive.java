package dev.basalt.optimizer.exec;

import java.util.Locale;

import dev.basalt.store.lexicon.TermIds;

/**
 * How an inner {@link HashJoin} may run its left (probe) side once per distinct key of its built
 * right side instead of once in full: {@code perKey} is the left side as index lookups (a chain of
 * {@link PipelineJoin}s and filters over a pattern), opened with the key's ids bound; each of its
 * rows meets the right rows of that key. The join takes it, after the right side is built, when its
 * {@code keys} distinct keys times {@code perKeyCost} (the estimated lookups and rows of one key)
 * cost less than {@code probeCost} (the left side's estimated rows times its patterns): a small
 * build side then reads only the left rows it can join with. BSBM's BI query 4 joins a type's
 * (product, feature) pairs (a few thousand, of about a hundred products) with every offer and its
 * price (569,600 at 10M): driven by the pairs' products, it reads each product's offers and prices
 * once, about 2,000 lookups.
 *
 * <p>Yields the rows the probing join yields (SPARQL's join of the two sides), in another order: key
 * by key in the unsigned order of the keys' ids, within a key the left side's rows in its order, each
 * followed by the right rows of the key in build order. Only for an inner join without a condition
 * (the compiler makes no other). Immutable and thread-safe; its cursors belong to one thread.
 */
public record KeyDrive(Operator perKey, double perKeyCost, double probeCost) {

    /** Whether {@code keys} distinct keys of the built side are cheaper to drive than probing. */
    boolean takes(int keys) {
        return keys * perKeyCost < probeCost;
    }

    /** For EXPLAIN: the rule with its estimates. */
    String describe() {
        return String.format(Locale.ROOT, "the left side per build key when keys x %.3g < %.3g", perKeyCost, probeCost);
    }

    /** {@code input} with the ids that {@code keyed} (a built row) has in {@code keySlots}. */
    private static long[] bound(long[] input, int[] keySlots, long[] keyed) {
        long[] row = input.clone();
        for (int s : keySlots) {
            row[s] = keyed[s];
        }
        return row;
    }

    /** The joined rows, key by key (row form). */
    RowCursor rows(KeyedRows table, int[] sharedSlots, long[] input, ExecContext ctx) {
        int[] keys = table.firstsInKeyOrder();
        return new RowCursor() {
            int k;
            RowCursor in;
            /** The first built row of the current key. */
            int first = -1;
            long[] current;
            /** The next built row of the current key to meet {@code current}, or -1. */
            int match = -1;

            @Override
            public long[] next() {
                while (true) {
                    while (current != null && match >= 0) {
                        long[] r = table.row(match);
                        match = table.next(match);
                        if (Rows.compatible(current, r, sharedSlots)) {
                            return Rows.merge(current, r);
                        }
                    }
                    if (in != null) {
                        current = in.next();
                        match = first;
                        if (current != null) {
                            continue;
                        }
                        in.close();
                        in = null;
                    }
                    if (k >= keys.length) {
                        return null;
                    }
                    ctx.checkCancelled();
                    first = keys[k++];
                    in = perKey.open(bound(input, table.keySlots, table.row(first)), ctx);
                }
            }

            @Override
            public void close() {
                if (in != null) {
                    in.close();
                    in = null;
                }
            }
        };
    }

    /** The joined rows, key by key, in batches; the left side in batches where it has a batch form. */
    BatchCursor batches(KeyedRows table, int[] sharedSlots, long[] input, ExecContext ctx) {
        if (!perKey.batchable()) {
            return BatchCursor.of(rows(table, sharedSlots, input, ctx), input.length);
        }
        int[] keys = table.firstsInKeyOrder();
        Batch out = new Batch(input.length);
        long[] current = new long[input.length];
        long[] merged = new long[input.length];
        return new BatchCursor() {
            int k;
            BatchCursor in;
            Batch from;
            int at;
            /** The first built row of the current key. */
            int first = -1;
            /** The next built row of the current key to meet the current left row, or -1. */
            int match = -1;
            boolean done;

            @Override
            public Batch next() {
                out.size = 0;
                while (!done && !out.full()) {
                    if (match >= 0 && from != null) {
                        long[] r = table.row(match);
                        match = table.next(match);
                        if (Rows.compatible(current, r, sharedSlots)) {
                            for (int i = 0; i < merged.length; i++) {
                                merged[i] = current[i] != TermIds.NULL ? current[i] : r[i];
                            }
                            out.add(merged);
                        }
                        continue;
                    }
                    if (from != null && at < from.size) {
                        from.copyRow(at++, current);
                        match = first;
                        continue;
                    }
                    if (in != null) {
                        from = in.next();
                        at = 0;
                        match = -1;
                        if (from != null) {
                            continue;
                        }
                        in.close();
                        in = null;
                    }
                    if (k >= keys.length) {
                        done = true;
                        break;
                    }
                    ctx.checkCancelled();
                    first = keys[k++];
                    match = -1;
                    in = perKey.openBatch(bound(input, table.keySlots, table.row(first)), ctx);
                }
                return out.size == 0 ? null : out;
            }

            @Override
            public void close() {
                done = true;
                if (in != null) {
                    in.close();
                    in = null;
                }
            }
        };
    }
}
