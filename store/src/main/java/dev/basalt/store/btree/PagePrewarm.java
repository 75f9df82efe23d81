package dev.basalt.store.btree;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Reads the clean pages of read-only trees into the shared {@link PageCache} ahead of the queries that would
 * read them. A freshly opened store reads, checks and decodes each page on a query's first visit, so its first
 * thousands of queries cost more than later ones; read here, those pages cost the queries nothing.
 *
 * <p>Order: first the internal pages, level by level across all the trees given (every root, then every internal
 * page one level below them, and so on), so the upper levels, which every descent passes, come first; then the
 * leaves, tree by tree, the tree with the fewest leaves first (the number of leaves is known from their parents,
 * before any leaf is read), each tree's leaves in key order. A store larger than the budget thus gets every upper
 * level and then whole trees, the smallest first: the most trees whose every read is a cache hit for the bytes
 * spent, where taking the trees in name order would spend the budget on one large tree (a dictionary of long
 * literals) and leave the statement indices that every query reads unread. It stops once the cache holds
 * {@code maxBytes} of decoded pages (pages it held before count), or when told to stop; the budget is meant to be a
 * part of the cache, so that what the prewarm reads does not evict what queries read.
 *
 * <p>Threads: stateless. It walks read-only views ({@link BTree#openReadOnly}), which any thread may read
 * concurrently with queries and the writer while their commit point is pinned; the caller keeps it pinned.
 */
public final class PagePrewarm {
    /**
     * What a prewarm read: pages, the levels it finished (the internal levels read across every tree, counting the
     * roots' level, plus one once every leaf is read), and whether it read every page of every tree.
     */
    public record Result(long pages, int levels, boolean complete) {
    }

    private PagePrewarm() {
    }

    /**
     * Reads the pages of {@code trees} into {@code cache} in the order of the class comment, until the cache holds
     * {@code maxBytes} or {@code stop} says so (checked before each page).
     *
     * @throws IllegalArgumentException if a tree is writable (its dirty pages are its writer's thread's)
     */
    public static Result run(List<BTree> trees, PageCache cache, long maxBytes, BooleanSupplier stop) {
        BooleanSupplier full = () -> cache.weightedSize() >= maxBytes || stop.getAsBoolean();
        List<BTree> owners = new ArrayList<>();
        List<InternalNode> parents = new ArrayList<>();
        // per tree, the internal pages whose children are its leaves, in key order
        Map<BTree, List<InternalNode>> leafParents = new LinkedHashMap<>();
        long pages = 0;
        for (BTree tree : trees) {
            if (!tree.isReadOnly()) {
                throw new IllegalArgumentException("only read-only trees are prewarmed: " + tree);
            }
            if (full.getAsBoolean()) {
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
        int depth = 0; // of the pages in parents
        while (!parents.isEmpty()) {
            List<BTree> nextOwners = new ArrayList<>();
            List<InternalNode> nextParents = new ArrayList<>();
            boolean readAny = false;
            for (int p = 0; p < parents.size(); p++) {
                BTree tree = owners.get(p);
                InternalNode parent = parents.get(p);
                if (depth == tree.height() - 2) {
                    leafParents.computeIfAbsent(tree, t -> new ArrayList<>()).add(parent);
                    continue;
                }
                for (int i = 0; i < parent.size(); i++) {
                    if (full.getAsBoolean()) {
                        return new Result(pages, levels, false);
                    }
                    Node child = tree.child(parent, i);
                    pages++;
                    if (child instanceof InternalNode in) {
                        nextOwners.add(tree);
                        nextParents.add(in);
                    }
                    readAny = true;
                }
            }
            if (readAny) {
                levels++;
            }
            owners = nextOwners;
            parents = nextParents;
            depth++;
        }
        List<Map.Entry<BTree, List<InternalNode>>> byLeaves = new ArrayList<>(leafParents.entrySet());
        byLeaves.sort(Comparator.comparingLong(e -> children(e.getValue()))); // stable: ties keep the given order
        for (Map.Entry<BTree, List<InternalNode>> e : byLeaves) {
            BTree tree = e.getKey();
            for (InternalNode parent : e.getValue()) {
                for (int i = 0; i < parent.size(); i++) {
                    if (full.getAsBoolean()) {
                        return new Result(pages, levels, false);
                    }
                    tree.child(parent, i);
                    pages++;
                }
            }
        }
        return new Result(pages, leafParents.isEmpty() ? levels : levels + 1, true);
    }

    /**
     * Reads up to {@code pages} leaves of {@code trees} from the store as a query's cache miss reads them (the record
     * read and its checksum, decompression, the page's decoding), but not into the cache: an equal share of
     * {@code pages} per tree, spread over each tree's leaves (a tree with fewer leaves than its share leaves the rest
     * to the trees after it), so each page kind and compression is met as often as the others. Run after a server's warm-ups, whose queries find
     * every page of a prewarmed store in the cache, it makes the JIT compile the miss path with its real profile before
     * the first clients' queries miss, where it would run in the slower profiling tier and be compiled during them.
     * Returns the leaves read. The internal pages are read through the cache (the prewarm left them there).
     *
     * @throws IllegalArgumentException if a tree is writable (its dirty pages are its writer's thread's)
     */
    public static long rehearseMisses(List<BTree> trees, int pages, BooleanSupplier stop) {
        Map<BTree, List<InternalNode>> leafParents = new LinkedHashMap<>();
        long leaves = 0;
        for (BTree tree : trees) {
            if (!tree.isReadOnly()) {
                throw new IllegalArgumentException("only read-only trees are rehearsed: " + tree);
            }
            List<InternalNode> level = new ArrayList<>();
            if (tree.root() instanceof InternalNode root) {
                level.add(root);
            }
            for (int depth = 0; !level.isEmpty() && depth < tree.height() - 2; depth++) {
                List<InternalNode> next = new ArrayList<>();
                for (InternalNode parent : level) {
                    for (int i = 0; i < parent.size(); i++) {
                        if (tree.child(parent, i) instanceof InternalNode in) {
                            next.add(in);
                        }
                    }
                }
                level = next;
            }
            if (!level.isEmpty()) {
                leafParents.put(tree, level);
                leaves += children(level);
            }
        }
        if (pages <= 0 || leaves == 0) {
            return 0;
        }
        // an equal share per tree (what one tree does not use goes to the next): the statement indices, whose pages
        // are compressed, are met as often as the larger dictionary trees
        long read = 0;
        int treesLeft = leafParents.size();
        for (Map.Entry<BTree, List<InternalNode>> e : leafParents.entrySet()) {
            PageIO io = e.getKey().io();
            long share = (pages - read) / treesLeft--;
            long stride = Math.max(1, children(e.getValue()) / Math.max(1, share));
            long at = 0;
            long fromTree = 0;
            for (InternalNode parent : e.getValue()) {
                for (int i = 0; i < parent.size() && fromTree < share; i++, at++) {
                    if (at % stride == 0) {
                        if ((read & 255) == 0 && stop.getAsBoolean()) {
                            return read;
                        }
                        io.readUncached(parent.childAddress(i), parent.childChecksum(i));
                        read++;
                        fromTree++;
                    }
                }
            }
        }
        return read;
    }

    private static long children(List<InternalNode> parents) {
        long n = 0;
        for (InternalNode p : parents) {
            n += p.size();
        }
        return n;
    }
}
