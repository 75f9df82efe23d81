package dev.basalt.store.btree;

import dev.basalt.store.journal.CorruptRecordException;
import dev.basalt.store.journal.RecordStore;

import java.util.Arrays;
import java.util.function.LongConsumer;

/**
 * Whole-tree walks: listing every reachable record (pages and large values) and the structural
 * verifier. The verifier reads every clean page through the record store, never the cache, so
 * every checksum on the way is checked, and checks key order, separator bounds, exact child
 * counts, total count and uniform height.
 *
 * <p>Stateless; a walk runs on the calling thread under the thread rules of the tree it walks (a
 * writable tree's own thread; a read-only view's from any thread).
 */
final class TreeWalker {
    private TreeWalker() {
    }

    /**
     * Visits, children before parents, the address of every record under {@code node}: large values
     * of its leaves and clean pages, including {@code address} itself unless it is
     * {@link RecordStore#NULL} (a dirty page).
     */
    static void walk(PageIO io, Node node, long address, LongConsumer onRecord) {
        if (node instanceof InternalNode in) {
            for (int i = 0; i < in.size(); i++) {
                DirtyNode dirty = in.dirtyChild(i);
                if (dirty != null) {
                    walk(io, dirty.asNode(), RecordStore.NULL, onRecord);
                } else {
                    walk(io, io.load(in.childAddress(i), in.childChecksum(i)), in.childAddress(i), onRecord);
                }
            }
        } else {
            LeafNode leaf = (LeafNode) node;
            for (int i = 0; i < leaf.size(); i++) {
                if (leaf.valueAt(i) instanceof LargeValue large) {
                    onRecord.accept(large.address());
                }
            }
        }
        if (address != RecordStore.NULL) {
            onRecord.accept(address);
        }
    }

    /** Frees every record of the tree at {@code checkpoint}. */
    static void destroy(PageIO io, BTreeCheckpoint checkpoint) {
        if (checkpoint.rootAddress() != RecordStore.NULL) {
            Node root = (Node) io.readUncached(checkpoint.rootAddress(), checkpoint.rootChecksum());
            walk(io, root, checkpoint.rootAddress(), io::free);
        }
    }

    static BTreeStats verify(BTree tree, PageIO io) {
        Verifier v = new Verifier(io, tree.height());
        Node root = tree.rootDirty != null ? tree.rootDirty.asNode()
                : tree.rootAddress == RecordStore.NULL ? null : (Node) v.read(tree.rootAddress, tree.rootChecksum);
        long entries = root == null ? 0 : v.check(root, tree.rootAddress, null, null, 1);
        if (root == null && tree.height() != 0) {
            throw new IllegalStateException("empty tree claims height " + tree.height());
        }
        if (entries != tree.size()) {
            throw new IllegalStateException("tree claims " + tree.size() + " entries, pages hold " + entries);
        }
        return new BTreeStats(v.pages, v.leafPages, entries, v.largeValues, v.recordBytes, root == null ? 0 : tree.height(),
                v.leafBytes, v.idTupleLeafPages);
    }

    private static final class Verifier {
        private final PageIO io;
        private final int height;
        long pages;
        long leafPages;
        long largeValues;
        long recordBytes;
        long leafBytes;
        long idTupleLeafPages;

        Verifier(PageIO io, int height) {
            this.io = io;
            this.height = height;
        }

        Page read(long address, int checksum) {
            byte[] bytes = io.readBytes(address, checksum);
            recordBytes += bytes.length;
            Page page = PageIO.decode(address, checksum, bytes);
            if (page instanceof LeafNode) {
                leafBytes += bytes.length;
            }
            if (page instanceof IdTupleLeafPage) {
                idTupleLeafPages++;
            }
            // an id-tuple leaf checks its whole coding when it is decoded
            if (page instanceof LeafPage leaf) {
                try {
                    leaf.validate();
                } catch (RuntimeException e) {
                    throw new CorruptRecordException(address, "malformed leaf: " + e.getMessage());
                }
            }
            return page;
        }

        private static RuntimeException fail(long address, String message) {
            return address == RecordStore.NULL
                    ? new IllegalStateException("dirty in-memory page: " + message)
                    : new CorruptRecordException(address, message);
        }

        private static boolean outside(byte[] key, byte[] lo, byte[] hi) {
            return lo != null && Arrays.compareUnsigned(key, lo) < 0 || hi != null && Arrays.compareUnsigned(key, hi) >= 0;
        }

        /** Checks the subtree and returns its entry count; keys must lie in [lo, hi). */
        long check(Node node, long address, byte[] lo, byte[] hi, int depth) {
            pages++;
            if (node instanceof LeafNode leaf) {
                return checkLeaf(leaf, address, lo, hi, depth);
            }
            InternalNode in = (InternalNode) node;
            if (depth >= height) {
                throw fail(address, "internal page at depth " + depth + " of a tree of height " + height);
            }
            if (in.size() < (depth == 1 ? 2 : 1)) {
                throw fail(address, "internal page with " + in.size() + " children");
            }
            long total = 0;
            for (int i = 0; i < in.size(); i++) {
                byte[] childLo = i == 0 ? lo : in.separator(i - 1);
                byte[] childHi = i == in.size() - 1 ? hi : in.separator(i);
                if (i > 0 && outside(childLo, lo, hi)) {
                    throw fail(address, "separator " + (i - 1) + " lies outside the page's key range");
                }
                if (i > 0 && i < in.size() - 1 && Arrays.compareUnsigned(childLo, childHi) >= 0) {
                    throw fail(address, "separators " + (i - 1) + " and " + i + " are not ascending");
                }
                DirtyNode dirty = in.dirtyChild(i);
                long childAddress = dirty != null ? RecordStore.NULL : in.childAddress(i);
                Node child = dirty != null ? dirty.asNode() : (Node) read(childAddress, in.childChecksum(i));
                long count = check(child, childAddress, childLo, childHi, depth + 1);
                if (count != in.childEntries(i)) {
                    throw fail(address, "child " + i + " is counted as " + in.childEntries(i) + " entries but holds " + count);
                }
                total += count;
            }
            return total;
        }

        private long checkLeaf(LeafNode leaf, long address, byte[] lo, byte[] hi, int depth) {
            leafPages++;
            if (depth != height) {
                throw fail(address, "leaf at depth " + depth + " of a tree of height " + height);
            }
            if (leaf.size() == 0) {
                throw fail(address, "empty leaf");
            }
            int run = leaf.runLength();
            byte[][] keys = new byte[run][];
            Object[] values = new Object[run];
            byte[] prev = null;
            for (int first = 0; first < leaf.size(); first += run) {
                int n = Math.min(run, leaf.size() - first);
                leaf.decodeRun(first, n, keys, values);
                for (int j = 0; j < n; j++) {
                    if (prev != null && Arrays.compareUnsigned(prev, keys[j]) >= 0) {
                        throw fail(address, "key " + (first + j) + " is not above the key before it");
                    }
                    if (outside(keys[j], lo, hi)) {
                        throw fail(address, "key " + (first + j) + " lies outside the range its parent gives");
                    }
                    if (values[j] instanceof LargeValue large) {
                        io.readLargeValue(large);
                        largeValues++;
                        recordBytes += large.length() + 1;
                    }
                    prev = keys[j];
                }
            }
            if (leaf instanceof DirtyLeaf || leaf.search(leaf.keyAt(leaf.size() - 1)) == leaf.size() - 1) {
                return leaf.size();
            }
            throw fail(address, "in-place search does not find the last key");
        }
    }
}
