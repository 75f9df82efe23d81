package dev.basalt.optimizer.exec;

/**
 * The right side of a {@link HashJoin} or {@link MinusOp}, read once: held in a hash table on the
 * key slots ({@link KeyedRows}) up to {@link ExecLimits#hashJoinRows()} rows, or, past that, written whole to a spill
 * file (then {@link #table} is null and the operator turns around, reading its left side in
 * blocks with {@link #readBlock}).
 * Not thread-safe: built and read by the thread running one open of its operator.
 */
final class HashBuild {
    /** The right rows by key, or null when they were spilled. */
    final KeyedRows table;
    /** The spilled right rows, finished, or null when they are held in {@link #table}. */
    final SpillFile spill;

    private HashBuild(KeyedRows table, SpillFile spill) {
        this.table = table;
        this.spill = spill;
    }

    /** Reads {@code right} opened on {@code input}; {@code spillName} names the spill file's kind. */
    static HashBuild read(Operator right, long[] input, ExecContext ctx, int[] keySlots, String spillName) {
        KeyedRows table = KeyedRows.of(keySlots);
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
                    for (int i = 0; i < table.rows(); i++) {
                        spill.write(table.row(i));
                    }
                    table = null;
                    spill.write(r);
                } else {
                    table.add(r);
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
     * The next rows of {@code left}, at most {@code budget}, in a table keyed on {@code keySlots} (their
     * positions are their indices in it); empty when {@code left} has no more rows. Fewer than {@code budget} rows:
     * {@code left} has no more after them.
     */
    static KeyedRows readBlock(RowCursor left, long budget, int[] keySlots) {
        KeyedRows block = KeyedRows.of(keySlots);
        long[] l;
        while (block.rows() < budget && (l = left.next()) != null) {
            block.add(l);
        }
        return block;
    }
}
