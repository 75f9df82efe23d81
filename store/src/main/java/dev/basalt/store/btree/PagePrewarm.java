package dev.basalt.store.btree;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Reads the clean pages of read-only trees into the shared {@link PageCache} ahead of the queries that would
 * read them. A freshly opened store reads, checks and decodes each page on a query's first visit, so its first
 * thousands of queries cost more than later ones; read here, those pages cost the queries nothing.
 *
 * <p>Level by level across all the trees given: every root, then every page one level below them, and so on, so
 * the upper levels, which every descent passes, come first and a store larger than the budget gets those. It stops
 * once the cache holds {@code maxBytes} of decoded pages (pages it held before count), or when told to stop; the
 * budget is meant to be a part of the cache, so that what the prewarm reads does not evict what queries read.
 *
 * <p>Threads: stateless. It walks read-only views ({@link BTree#openReadOnly}), which any thread may read
 * concurrently with queries and the writer while their commit point is pinned; the caller keeps it pinned.
 */
public final class PagePrewarm {
    /** What a prewarm read: pages, the levels it finished, and whether it read every page of every tree. */
    public record Result(long pages, int levels, boolean complete) {
    }

    private PagePrewarm() {
    }

    /**
     * Reads the pages of {@code trees} into {@code cache}, level by level, until the cache holds {@code maxBytes}
     * or {@code stop} says so (checked before each page).
     *
     * @throws IllegalArgumentException if a tree is writable (its dirty pages are its writer's thread's)
     */
    public static Result run(List<BTree> trees, PageCache cache, long maxBytes, BooleanSupplier stop) {
        List<BTree> owners = new ArrayList<>();
        List<InternalNode> parents = new ArrayList<>();
        long pages = 0;
        for (BTree tree : trees) {
            if (!tree.isReadOnly()) {
                throw new IllegalArgumentException("only read-only trees are prewarmed: " + tree);
            }
            if (cache.weightedSize() >= maxBytes || stop.getAsBoolean()) {
                return new Result(pages, 0, false);
            }
            Node root = tree.root();
            if (root == null) {
                continue;
            }
            pages++;
            if (root instanceof InternalNode in) {
                owners.add(tree);
                parents.add(in);
            }
        }
        int levels = pages > 0 ? 1 : 0;
        while (!parents.isEmpty()) {
            List<BTree> nextOwners = new ArrayList<>();
            List<InternalNode> nextParents = new ArrayList<>();
            for (int p = 0; p < parents.size(); p++) {
                BTree tree = owners.get(p);
                InternalNode parent = parents.get(p);
                for (int i = 0; i < parent.size(); i++) {
                    if (cache.weightedSize() >= maxBytes || stop.getAsBoolean()) {
                        return new Result(pages, levels, false);
                    }
                    Node child = tree.child(parent, i);
                    pages++;
                    if (child instanceof InternalNode in) {
                        nextOwners.add(tree);
                        nextParents.add(in);
                    }
                }
            }
            owners = nextOwners;
            parents = nextParents;
            levels++;
        }
        return new Result(pages, levels, true);
    }
}
