package dev.basalt.optimizer.exec;

import java.util.Arrays;

/**
 * The group of each key of a {@link GroupJoinOp}'s root pattern, for a root that gives each key at
 * most one match (a vendor's one country): then a row of the root's child can carry its group
 * instead of its key, and its partial goes straight to the group's entry, without a table per key
 * (sized by the child's matches: for BSBM's offers by vendor 2^20 slots to clear) and without the
 * root's step. The groups are numbered densely from 1 in the order met ({@link #group}), so that the
 * join adds to arrays by number ({@link GroupTotals}); {@link #groupId} gives a number's group.
 * Not thread-safe: one open's, on the thread of its query.
 */
final class RootGroups {
    /** Per key, its group's number. */
    private final IdCounts groupOf;
    /** Per number, the group's id (index 0 unused). */
    private final long[] groupIds;
    private final int groups;
    private long lastKey;
    private long lastGroup;

    private RootGroups(IdCounts groupOf, long[] groupIds, int groups) {
        this.groupOf = groupOf;
        this.groupIds = groupIds;
        this.groups = groups;
    }

    /**
     * The groups of the keys in column {@code keySlot} of {@code rows} (the root pattern's matches, the
     * group in column {@code groupSlot}); null, having read no further, where a key has a second match
     * or there are more than {@code budget} keys. Closes {@code rows}.
     */
    static RootGroups of(BatchCursor rows, int keySlot, int groupSlot, long budget, ExecContext ctx) {
        IdCounts groupOf = new IdCounts(64);
        IdCounts numberOf = new IdCounts(64);
        long[] ids = new long[16];
        int n = 0;
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
                    long number = numberOf.get(groups[i]);
                    if (number == 0) {
                        number = ++n;
                        numberOf.add(groups[i], number);
                        if (n == ids.length) {
                            ids = Arrays.copyOf(ids, 2 * n);
                        }
                        ids[n] = groups[i];
                    }
                    groupOf.add(keys[i], number);
                }
                if (groupOf.size() > budget) {
                    return null;
                }
            }
        }
        return new RootGroups(groupOf, ids, n);
    }

    /** The number of groups (numbered 1 to it). */
    int groups() {
        return groups;
    }

    /** The id of the group numbered {@code number}. */
    long groupId(int number) {
        return groupIds[number];
    }

    /**
     * Keeps the rows {@code i < n} whose key {@code keys[i]} has a group: their {@code pairKeys[i]},
     * group's number and {@code numbers[i]} (where {@code numbers} is not null) go to the front of
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
