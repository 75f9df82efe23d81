package dev.basalt.optimizer.exec;

/**
 * The group of each key of a {@link GroupJoinOp}'s root pattern, for a root that gives each key at
 * most one match (a vendor's one country): then a row of the root's child can carry its group
 * instead of its key, and its partial goes straight to the group's entry, without a table per key
 * (sized by the child's matches: for BSBM's offers by vendor 2^20 slots to clear) and without the
 * root's step.
 * Not thread-safe: one open's, on the thread of its query.
 */
final class RootGroups {
    private final IdCounts groupOf;
    private long lastKey;
    private long lastGroup;

    private RootGroups(IdCounts groupOf) {
        this.groupOf = groupOf;
    }

    /**
     * The groups of the keys in column {@code keySlot} of {@code rows} (the root pattern's matches, the
     * group in column {@code groupSlot}); null, having read no further, where a key has a second match
     * or there are more than {@code budget} keys. Closes {@code rows}.
     */
    static RootGroups of(BatchCursor rows, int keySlot, int groupSlot, long budget, ExecContext ctx) {
        IdCounts groupOf = new IdCounts(64);
        try (rows) {
            Batch b;
            while ((b = rows.next()) != null) {
                ctx.checkCancelled();
                long[] keys = b.cols[keySlot];
                long[] groups = b.cols[groupSlot];
                for (int i = 0; i < b.size; i++) {
                    if (groupOf.get(keys[i]) != 0) {
                        return null;
                    }
                    groupOf.add(keys[i], groups[i]);
                }
                if (groupOf.size() > budget) {
                    return null;
                }
            }
        }
        return new RootGroups(groupOf);
    }

    /**
     * Keeps the rows {@code i < n} whose key {@code keys[i]} has a group: their {@code pairKeys[i]},
     * group and {@code numbers[i]} (where {@code numbers} is not null) go to the front of
     * {@code keptPairs}, {@code keptGroups} and {@code keptNumbers}; returns how many. A scan in the
     * order of the key repeats it row after row: one lookup per run.
     */
    int keep(long[] keys, long[] pairKeys, long[] numbers, int n, long[] keptPairs, long[] keptGroups,
            long[] keptNumbers) {
        int m = 0;
        for (int i = 0; i < n; i++) {
            long key = keys[i];
            if (key != lastKey || lastKey == 0) {
                lastKey = key;
                lastGroup = groupOf.get(key);
            }
            if (lastGroup == 0) {
                continue;
            }
            keptPairs[m] = pairKeys[i];
            keptGroups[m] = lastGroup;
            if (numbers != null) {
                keptNumbers[m] = numbers[i];
            }
            m++;
        }
        return m;
    }
}
