package dev.basalt.store.btree;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Repacking for online compaction: the children of one internal page are rewritten into as few
 * pages as a bottom-up build would use ({@link BulkBuilder}'s fill rules: a page takes entries
 * until the next one would pass its entry or byte limit, and an underfull last page is merged
 * with the one before it and split evenly if the union is too large). The entries, their order,
 * the separators between the parent's other children and the counts above stay as they were, so
 * a repack changes only how the entries under one page are shared out among its children, and it
 * is copy-on-write like every other change: committed pages are released, never changed.
 *
 * <p>Leaf children are re-cut entry by entry (keys and inline values copied; large values keep
 * their records). Internal children are re-cut child reference by child reference; the pages
 * under them are not touched. A page is repacked only when that saves at least one page and at
 * least a {@value #MIN_SAVING_SHARE}th of its children, so a tree that is already dense is left
 * as it is and a repeated compaction finds nothing to do.
 *
 * <p>Writer thread only (it builds dirty pages of the writer's tree).
 */
final class TreeRepack {
    /** A repack must save at least one page in this many children. */
    static final int MIN_SAVING_SHARE = 32;

    /** New children for one page, with the separator before each but the first. */
    record Cut(List<DirtyNode> pages, List<byte[]> separators, int oldWidth) {
        int saved() {
            return oldWidth - pages.size();
        }
    }

    private final BTree tree;
    private final BTreeConfig config;

    TreeRepack(BTree tree, BTreeConfig config) {
        this.tree = tree;
        this.config = config;
    }

    /**
     * Calls {@code keys} with one key in the range of every page at {@code height} (2 = parents of
     * leaves) whose children might be repacked, in ascending order: the separator before it, or the
     * empty key for the leftmost. A page is skipped when even children filled to their entry limit
     * would not save enough (known from the page and its children's sizes, without reading leaves).
     */
    static void pageKeys(BTree tree, int height, Consumer<byte[]> keys) {
        Node root = tree.root();
        if (root == null || height < 2 || height > tree.height()) {
            return;
        }
        visit(tree, root, tree.height(), height, new byte[0], keys);
    }

    private static void visit(BTree tree, Node node, int h, int height, byte[] low, Consumer<byte[]> keys) {
        if (h == height) {
            if (mightSave(tree, (InternalNode) node, height)) {
                keys.accept(low.clone());
            }
            return;
        }
        InternalNode in = (InternalNode) node;
        for (int i = 0; i < in.size(); i++) {
            visit(tree, tree.child(in, i), h - 1, height, i == 0 ? low : in.separator(i - 1), keys);
        }
    }

    private static boolean mightSave(BTree tree, InternalNode parent, int height) {
        int width = parent.size();
        long units = 0;
        int max;
        if (height == 2) {
            for (int i = 0; i < width; i++) {
                units += parent.childEntries(i);
            }
            max = tree.config().leafMaxEntries();
        } else {
            for (int i = 0; i < width; i++) {
                units += ((InternalNode) tree.child(parent, i)).size();
            }
            max = tree.config().internalMaxEntries();
        }
        return enough(width, (units + max - 1) / max);
    }

    private static boolean enough(int width, long pages) {
        long saved = width - pages;
        return saved >= 1 && saved * MIN_SAVING_SHARE >= width;
    }

    /**
     * The children of {@code parent} cut anew, or null when that would not save enough pages (or
     * when a child has dirty children of its own, which only the writer's path copies make and
     * which a repack leaves to a later compaction). Reads only; the tree is unchanged.
     */
    Cut cut(InternalNode parent) {
        int width = parent.size();
        if (width < 2) {
            return null;
        }
        Node first = tree.child(parent, 0);
        Cut cut = first instanceof LeafNode ? cutLeaves(parent) : cutInternals(parent);
        if (cut == null || !enough(width, cut.pages().size())) {
            return null;
        }
        return cut;
    }

    private Cut cutLeaves(InternalNode parent) {
        List<DirtyNode> pages = new ArrayList<>();
        List<byte[]> separators = new ArrayList<>();
        DirtyLeaf current = new DirtyLeaf(config.leafMaxEntries() + 1);
        byte[][] runKeys = null;
        Object[] runValues = null;
        for (int c = 0; c < parent.size(); c++) {
            LeafNode leaf = (LeafNode) tree.child(parent, c);
            int run = leaf.runLength();
            if (runKeys == null || runKeys.length < run) {
                runKeys = new byte[run][];
                runValues = new Object[run];
            }
            for (int first = 0; first < leaf.size(); first += run) {
                int len = Math.min(run, leaf.size() - first);
                leaf.decodeRun(first, len, runKeys, runValues);
                for (int j = 0; j < len; j++) {
                    byte[] key = runKeys[j];
                    Object value = runValues[j];
                    boolean full = current.width() >= config.leafMaxEntries() || current.width() > 0
                            && current.estimatedBytes() + DirtyLeaf.entryBytes(key, value) > config.maxPageBytes();
                    if (full) {
                        pages.add(current);
                        separators.add(PageFormat.shortestSeparator(current.lastKey(), key));
                        current = new DirtyLeaf(config.leafMaxEntries() + 1);
                    }
                    current.append(key, value);
                }
            }
        }
        pages.add(current);
        return finish(pages, separators, parent.size());
    }

    private Cut cutInternals(InternalNode parent) {
        List<DirtyNode> pages = new ArrayList<>();
        List<byte[]> separators = new ArrayList<>();
        DirtyInternal current = new DirtyInternal(config.internalMaxEntries() + 1);
        for (int c = 0; c < parent.size(); c++) {
            InternalNode child = (InternalNode) tree.child(parent, c);
            for (int j = 0; j < child.size(); j++) {
                if (child.dirtyChild(j) != null) {
                    return null;
                }
                byte[] separator = j > 0 ? child.separator(j - 1) : c > 0 ? parent.separator(c - 1) : null;
                if (separator != null) {
                    boolean full = current.width() >= config.internalMaxEntries() || current.width() >= 2
                            && current.estimatedBytes() + separator.length + 26 > config.maxPageBytes();
                    if (full) {
                        pages.add(current);
                        separators.add(separator);
                        current = new DirtyInternal(config.internalMaxEntries() + 1);
                    }
                }
                current.appendClean(current.width() == 0 ? null : separator, child.childAddress(j),
                        child.childChecksum(j), child.childEntries(j));
            }
        }
        pages.add(current);
        return finish(pages, separators, parent.size());
    }

    /** An underfull last page joins the one before it, split evenly again if the union is too large. */
    private Cut finish(List<DirtyNode> pages, List<byte[]> separators, int oldWidth) {
        int n = pages.size();
        DirtyNode last = pages.get(n - 1);
        if (n >= 2 && last.underflows(config)) {
            DirtyNode merged = pages.get(n - 2);
            byte[] separator = separators.remove(n - 2);
            pages.remove(n - 1);
            if (merged instanceof DirtyLeaf leaf) {
                leaf.absorb((DirtyLeaf) last);
            } else {
                ((DirtyInternal) merged).absorb((DirtyInternal) last, separator);
            }
            if (merged.overflows(config)) {
                DirtyNode.Split split = merged.split(config);
                pages.add(split.right());
                separators.add(split.separator());
            }
        }
        return new Cut(pages, separators, oldWidth);
    }
}
