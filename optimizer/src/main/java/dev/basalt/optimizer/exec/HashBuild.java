package dev.basalt.optimizer.exec;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The right side of a {@link HashJoin} or {@link MinusOp}, read once: held in a hash table on the
 * key slots up to {@link ExecLimits#hashJoinRows()} rows, or, past that, written whole to a spill
 * file (then {@link #table} is null and the operator turns around, reading its left side in
 * blocks with {@link #readBlock}).
 * Not thread-safe: built and read by the thread running one open of its operator.
 */
final class HashBuild {
    /** The right rows by key, or null when they were spilled. */
    final Map<RowKey, List<long[]>> table;
    /** The spilled right rows, finished, or null when they are held in {@link #table}. */
    final SpillFile spill;

    private HashBuild(Map<RowKey, List<long[]>> table, SpillFile spill) {
        this.table = table;
        this.spill = spill;
    }

    /** Reads {@code right} opened on {@code input}; {@code spillName} names the spill file's kind. */
    static HashBuild read(Operator right, long[] input, ExecContext ctx, int[] keySlots, String spillName) {
        Map<RowKey, List<long[]>> table = new HashMap<>();
        long budget = ctx.limits().hashJoinRows();
        SpillFile spill = null;
        try (RowCursor build = right.open(input, ctx)) {
            long[] r;
            int n = 0;
            while ((r = build.next()) != null) {
                if (++n % 1024 == 0) {
                    ctx.checkCancelled();
                }
                if (spill != null) {
                    spill.write(r);
                } else if (n > budget) {
                    spill = SpillFile.create(ctx.limits(), spillName, r.length);
                    for (List<long[]> rows : table.values()) {
                        for (long[] held : rows) {
                            spill.write(held);
                        }
                    }
                    table = null;
                    spill.write(r);
                } else {
                    table.computeIfAbsent(new RowKey(r, keySlots), k -> new ArrayList<>()).add(r);
                }
            }
            if (spill != null) {
                spill.finish();
            }
        } catch (RuntimeException | Error e) {
            if (spill != null) {
                spill.close();
            }
            throw e;
        }
        return new HashBuild(table, spill);
    }

    /**
     * Fills {@code block} with the next rows of {@code left}, at most {@code budget}, and
     * {@code index} with their positions by key (both cleared first); true when {@code left} has
     * no more rows after them.
     */
    static boolean readBlock(RowCursor left, long budget, int[] keySlots, List<long[]> block,
            Map<RowKey, List<Integer>> index) {
        block.clear();
        index.clear();
        long[] l;
        while (block.size() < budget && (l = left.next()) != null) {
            index.computeIfAbsent(new RowKey(l, keySlots), k -> new ArrayList<>()).add(block.size());
            block.add(l);
        }
        return block.size() < budget;
    }
}
