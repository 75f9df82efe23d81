package dev.basalt.optimizer.exec;

/**
 * Which pattern of a {@link GroupJoinOp} is kept out of the per-key tables, and how: joined to its
 * parent by key partitions ({@link RowPartitions}), where it and its parent are both estimated at
 * {@code partitionFrom} matches or more (of such pairs the one whose smaller side is largest, then
 * the largest: the key table it would leave is the largest one); or, where no pair is that large, a
 * leaf of {@link IdKeySet#FROM_MATCHES} estimated matches or more whose keys an {@link IdKeySet} can
 * hold ({@link #bitmapLeaf}), held in that bitmap only ({@code bitmapOnly}). Neither a driven pattern
 * nor its driver is partitioned; a bitmap leaf's parent may be driven by its keys.
 *
 * <p>With the pattern it fixes the layout of the two sides' rows ({@link PartialRows}), whether the
 * root is read before the parent so the parent's rows carry group numbers ({@link RootGroups}), and
 * whether the pattern's keys go to a bitmap first. Immutable.
 *
 * @param pattern the pattern's index, or -1 for none
 * @param bitmapOnly whether it was taken for its bitmap only (its estimates would not partition it)
 * @param builtRows the layout of the pattern's rows (key, partial), or null for none: they carry sums where it
 *        or a pattern below it gives the argument's numbers, and no count where it has no child (every
 *        match is one row)
 * @param probeRows the layout of its parent's rows (key, out key, partial), or null for none: they carry sums
 *        where a pattern other than this one gives them, and no count where this pattern is the parent's
 *        only child
 * @param rootFirst whether the root is read before the parent ({@link RootGroups}): the parent is the root's
 *        only child, has no other child and gives no number to the root's step
 * @param keySet whether the pattern's keys are first held in an {@link IdKeySet}: it has no child, holds no
 *        sums and is its parent's only child ({@link #bitmapLeaf}), and the root is not read first
 */
record PartitionedPattern(int pattern, boolean bitmapOnly, PartialRows builtRows, PartialRows probeRows,
        boolean rootFirst, boolean keySet) {

    /**
     * The choice for a group join of {@code patterns} over {@code tree} read as {@code reads} says, where
     * {@code holdsValue[p]} tells whether pattern {@code p} or a descendant gives the argument's numbers,
     * read in {@code valuePattern} (-1: none).
     */
    static PartitionedPattern choose(PatternScan[] patterns, JoinTree tree, KeyedReads reads, boolean[] holdsValue,
            int valuePattern, long partitionFrom) {
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
            return of(big, false, tree, reads, holdsValue, valuePattern);
        }
        for (int c = 0; c < patterns.length; c++) {
            if (bitmapLeaf(tree, reads, holdsValue, c) && patterns[c].estimate() >= IdKeySet.FROM_MATCHES) {
                return of(c, true, tree, reads, holdsValue, valuePattern);
            }
        }
        return new PartitionedPattern(-1, false, null, null, false, false);
    }

    private static PartitionedPattern of(int big, boolean bitmapOnly, JoinTree tree, KeyedReads reads,
            boolean[] holdsValue, int valuePattern) {
        int parent = tree.parent[big];
        PartialRows built = new PartialRows(1, tree.children(big).length == 0, holdsValue[big]);
        PartialRows probe = new PartialRows(2, tree.children(parent).length == 1,
                holdsValue[parent] && !holdsValue[big]);
        int root = parent < 0 ? -1 : tree.parent[parent];
        boolean rootFirst = !bitmapOnly && root >= 0 && tree.parent[root] < 0 && tree.children(root).length == 1
                && probe.unit() && valuePattern != root && !reads.driven(root);
        boolean keySet = !rootFirst && bitmapLeaf(tree, reads, holdsValue, big);
        return new PartitionedPattern(big, bitmapOnly, built, probe, rootFirst, keySet);
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
