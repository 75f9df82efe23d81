package dev.basalt.optimizer.exec;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The join graph of statement patterns as a tree rooted at one pattern, for the operators that
 * aggregate per join key without making joined rows ({@link CountJoinOp}, {@link GroupJoinOp}): the
 * patterns joined pairwise by one variable each, no cycle; a variable of several patterns (a star)
 * joins them in a chain, whose patterns all share its id.
 * Each pattern knows its parent and the slot it shares with it; {@link #order} lists every pattern
 * after its children (the root last). Thread rules: immutable.
 */
final class JoinTree {
    /** Per pattern: its parent's index, -1 for the root. */
    final int[] parent;
    /** Per pattern: the slot it shares with its parent (-1 for the root). */
    final int[] parentSlot;
    /** The patterns' indices, every pattern after its children (the root last). */
    final int[] order;

    private JoinTree(int[] parent, int[] parentSlot, int[] order) {
        this.parent = parent;
        this.parentSlot = parentSlot;
        this.order = order;
    }

    /**
     * The tree of {@code patterns} rooted at pattern {@code root}, or null if their join graph is not
     * a tree (or a pattern has no variable).
     */
    static JoinTree of(List<PatternScan> patterns, int root) {
        int n = patterns.size();
        Map<Integer, List<Integer>> holders = new HashMap<>();
        for (int i = 0; i < n; i++) {
            int[] slots = Arrays.stream(patterns.get(i).slots()).filter(s -> s >= 0).distinct().toArray();
            if (slots.length == 0) {
                return null;
            }
            for (int s : slots) {
                holders.computeIfAbsent(s, k -> new ArrayList<>()).add(i);
            }
        }
        // edges: a variable of k patterns joins them in a chain of k - 1 edges (joins on one variable
        // are transitive); a tree has n - 1 edges and reaches every pattern
        List<int[]> edges = new ArrayList<>();
        for (Map.Entry<Integer, List<Integer>> e : holders.entrySet()) {
            List<Integer> at = e.getValue();
            for (int i = 1; i < at.size(); i++) {
                edges.add(new int[] { at.get(i - 1), at.get(i), e.getKey() });
            }
        }
        if (edges.size() != n - 1) {
            return null;
        }
        int[] parent = new int[n];
        int[] parentSlot = new int[n];
        Arrays.fill(parent, -2);
        parent[root] = -1;
        parentSlot[root] = -1;
        int[] visit = new int[n];
        int seen = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(root));
        while (!queue.isEmpty()) {
            int p = queue.poll();
            visit[seen++] = p;
            for (int[] e : edges) {
                int other = e[0] == p ? e[1] : e[1] == p ? e[0] : -1;
                if (other >= 0 && other != parent[p]) {
                    if (parent[other] != -2) {
                        return null;
                    }
                    parent[other] = p;
                    parentSlot[other] = e[2];
                    queue.add(other);
                }
            }
        }
        if (seen != n) {
            return null;
        }
        // breadth-first from the root, reversed: every pattern after its children
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = visit[n - 1 - i];
        }
        return new JoinTree(parent, parentSlot, order);
    }

    /** The children of pattern {@code p}. */
    int[] children(int p) {
        int n = 0;
        int[] out = new int[parent.length];
        for (int c = 0; c < parent.length; c++) {
            if (parent[c] == p) {
                out[n++] = c;
            }
        }
        return Arrays.copyOf(out, n);
    }
}
