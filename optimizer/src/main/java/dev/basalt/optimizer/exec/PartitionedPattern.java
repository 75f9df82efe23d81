package dev.basalt.optimizer.exec;

/**
 * Which pattern of a {@link GroupJoinOp} is kept out of the per-key tables, and how: joined to its
 * parent by key partitions ({@link RowPartitions}), where it and its parent are both estimated at
 * {@code partitionFrom} matches or more (of such pairs the one whose smaller side is largest, then
 * the largest: the key table it would leave is the largest one); or, where no pair is that large, a
 * leaf of {@link IdKeySet#FROM_MATCHES} estimated matches or more whose keys an {@link IdKeySet} can
 * hold ({@link #bitmapLeaf}), held in that bitmap only ({@code bitmapOnly}). Neither a driven pattern
 * nor its driver is partitioned; a bitmap leaf's parent may be driven by its keys. Immutable.
 *
 * @param pattern the pattern's index, or -1 for none
 * @param bitmapOnly whether it was taken for its bitmap only (its estimates would not partition it)
 */
record PartitionedPattern(int pattern, boolean bitmapOnly) {
    static PartitionedPattern choose(PatternScan[] patterns, JoinTree tree, KeyedReads reads, boolean[] holdsValue,
            long partitionFrom) {
        int big = -1;
        for (int c = 0; c < patterns.length; c++) {
            int p = tree.parent[c];
            if (p < 0 || patterns[c].estimate() < partitionFrom || patterns[p].estimate() < partitionFrom
                    || reads.driven(c) || reads.driven(p)) {
                continue;
            }
            double smaller = Math.min(patterns[c].estimate(), patterns[p].estimate());
            double bigSmaller = big < 0 ? -1 : Math.min(patterns[big].estimate(), patterns[tree.parent[big]].estimate());
            if (big < 0 || smaller > bigSmaller
                    || smaller == bigSmaller && patterns[c].estimate() > patterns[big].estimate()) {
                big = c;
            }
        }
        if (big >= 0) {
            return new PartitionedPattern(big, false);
        }
        for (int c = 0; c < patterns.length; c++) {
            if (bitmapLeaf(tree, reads, holdsValue, c) && patterns[c].estimate() >= IdKeySet.FROM_MATCHES) {
                return new PartitionedPattern(c, true);
            }
        }
        return new PartitionedPattern(-1, false);
    }

    /**
     * Whether pattern {@code c} has no child, holds no sums, is not driven and is its parent's only child:
     * each match is one joined row carrying its key alone, and its parent's matches join nothing else, as
     * {@link IdKeySet#probe} needs.
     */
    static boolean bitmapLeaf(JoinTree tree, KeyedReads reads, boolean[] holdsValue, int c) {
        int parent = tree.parent[c];
        return parent >= 0 && tree.children(c).length == 0 && !holdsValue[c] && tree.children(parent).length == 1
                && !reads.driven(c);
    }
}
