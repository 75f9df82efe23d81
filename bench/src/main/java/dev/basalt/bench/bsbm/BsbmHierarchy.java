package dev.basalt.bench.bsbm;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The product type tree and the product features of each type, as the BSBM V3 dataset specification
 * scales them. With {@code s = log10(max(products, 10))} the tree has {@code round(s / 2) + 1} levels
 * below the root; the root has {@code 2 * round(s)} children, every further inner level 8 children
 * per type, and the last level 2, 4 or 8 children per type (cycling with {@code round(1.5 s + 1)}), so
 * 2,785 products (1M triples) give 6, 48 and 96 types on three levels and 284,826 products (100M)
 * give 10, 80, 640 and 1,280 types on four. Types are numbered breadth first from the root (type
 * 1); the leaves are the last types.
 *
 * <p>Each type but the root has its own features, numbered in type order. A type on level d (1 for
 * the root's children) of a tree with D levels has between {@code 35 i / S} and {@code 75 i / S}
 * features (uniform, integer division), where {@code S = D (D + 1) / 2 - 1} and i = d + 1 for inner
 * types and i = D for leaves; a tree of one level has 5 features per type. Immutable.
 */
final class BsbmHierarchy {

	final int typeCount;
	/** Index 1..typeCount; the root (type 1) has parent 0. */
	final int[] parent;
	final int[] level;
	final int firstLeaf;
	final int depth;
	final int[] featureStart;
	final int[] featureCount;
	final int featureTotal;

	BsbmHierarchy(int products, SplittableRandom r) {
		int[] branching = branchingFactors(Math.max(products, 10));
		depth = branching.length;
		List<Integer> parents = new ArrayList<>(List.of(0, 0));
		List<Integer> levels = new ArrayList<>(List.of(0, 0));
		for (int next = 1; next < parents.size() && levels.get(next) < depth; next++) {
			int l = levels.get(next);
			for (int c = 0; c < branching[l]; c++) {
				parents.add(next);
				levels.add(l + 1);
			}
		}
		typeCount = parents.size() - 1;
		parent = parents.stream().mapToInt(Integer::intValue).toArray();
		level = levels.stream().mapToInt(Integer::intValue).toArray();
		firstLeaf = levels.indexOf(depth);

		int levelSum = depth * (depth + 1) / 2 - 1;
		featureStart = new int[typeCount + 1];
		featureCount = new int[typeCount + 1];
		int nextFeature = 1;
		for (int t = 2; t <= typeCount; t++) {
			int i = level[t] == depth ? depth : level[t] + 1;
			int from = depth == 1 ? 5 : 35 * i / levelSum;
			int to = depth == 1 ? 5 : 75 * i / levelSum;
			featureStart[t] = nextFeature;
			featureCount[t] = from + r.nextInt(to - from + 1);
			nextFeature += featureCount[t];
		}
		featureTotal = nextFeature - 1;
	}

	/** Children per type on each level, index 0 for the root; the array's length is the tree's depth. */
	static int[] branchingFactors(int products) {
		float s = (float) Math.log10(products);
		int depth = Math.round(s / 2) + 1;
		int[] factors = new int[depth];
		factors[0] = 2 * Math.round(s);
		int[] last = { 2, 4, 8 };
		for (int i = 1; i < depth; i++) {
			factors[i] = i + 1 < depth ? 8 : last[Math.round(s * 3 / 2 + 1) % 3];
		}
		return factors;
	}

	int leaves() {
		return typeCount - firstLeaf + 1;
	}

	/** The types from {@code leaf} up to the root's child (the root has no features and is left out). */
	int[] pathUp(int leaf) {
		int[] path = new int[level[leaf]];
		int i = 0;
		for (int t = leaf; t > 1; t = parent[t]) {
			path[i++] = t;
		}
		return path;
	}

	/** All features of the types on {@code leaf}'s path: the candidates for a product of that type. */
	int[] featuresOfPath(int leaf) {
		int n = 0;
		for (int t : pathUp(leaf)) {
			n += featureCount[t];
		}
		int[] out = new int[n];
		int i = 0;
		for (int t : pathUp(leaf)) {
			for (int f = featureStart[t]; f < featureStart[t] + featureCount[t]; f++) {
				out[i++] = f;
			}
		}
		return out;
	}
}
