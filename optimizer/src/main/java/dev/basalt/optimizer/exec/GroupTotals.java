package dev.basalt.optimizer.exec;

/**
 * The counts and exact sums of a {@link GroupJoinOp}'s groups by their dense numbers 1 to
 * {@code groups} ({@link RootGroups#group}), in arrays indexed by the number: the join's adds per
 * joined row take an array slot instead of a hash table's probe. They add as {@link IdSums#add} does
 * (the sum at the largest scale added, the decimal flag of any number added). Not thread-safe: one
 * open's.
 */
final class GroupTotals implements PartialTotals {
    private final long[] counts;
    private final long[] sums;
    private final long[] forms;
    private final boolean[] seen;

    /** Totals of groups numbered 1 to {@code groups}. */
    GroupTotals(int groups) {
        counts = new long[groups + 1];
        sums = new long[groups + 1];
        forms = new long[groups + 1];
        seen = new boolean[groups + 1];
    }

    /** Adds to the group numbered {@code group} (1 to the groups' count). */
    @Override
    public void add(long group, long count, long sum, long form) {
        int g = (int) group;
        long old = forms[g];
        int scale = Math.max(IdSums.scale(old), IdSums.scale(form));
        counts[g] = Math.addExact(counts[g], count);
        sums[g] = Math.addExact(IdSums.rescale(sums[g], IdSums.scale(old), scale), IdSums.rescale(sum, IdSums.scale(form), scale));
        forms[g] = scale | (old | form) & 32;
        seen[g] = true;
    }

    /** Adds each group added to to {@code out} under its id ({@code groups} numbered them). */
    void addTo(IdSums out, RootGroups groups) {
        for (int g = 1; g < counts.length; g++) {
            if (seen[g]) {
                out.add(groups.groupId(g), counts[g], sums[g], forms[g]);
            }
        }
    }
}
