package dev.basalt.optimizer.exec;

/**
 * Where a {@link GroupJoinOp}'s join of partial aggregates ({@link PartialRows#join}) adds each match's
 * product: counts of joined rows and exact sums under an out key, as {@link IdSums#add} adds them
 * (sums kept at the largest scale added). {@link IdSums} takes any id as the key; {@link GroupTotals}
 * takes the dense numbers of a root's groups ({@link RootGroups}). Implementations are not
 * thread-safe: one open's.
 */
interface PartialTotals {
    /** Adds {@code count} rows whose numbers sum to {@code sum} of form {@code form} under {@code key}. */
    void add(long key, long count, long sum, long form);
}
