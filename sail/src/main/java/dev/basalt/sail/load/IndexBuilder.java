package dev.basalt.sail.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

import dev.basalt.sail.SailLayout;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;

/**
 * Writes the sorted, distinct quads of a load into the explicit statement indices, one order at a
 * time. An index that is empty is built bottom-up into full pages
 * ({@link WriteTransaction#bulkBuild}). A non-empty index that is small beside the load (at most
 * {@value #REBUILD_LIMIT} entries and at most the load's quads; say the ontology before its data)
 * is read into memory, emptied and built bottom-up again from the merge of its entries with the
 * load's quads. A larger one gets the quads it lacks put in key order, so each page is copied once
 * per run of neighbouring keys. In the primary order, a quad that is new to the store also removes
 * an inferred copy of it (a quad is in at most one set): when the inferred set is small, its
 * primary keys are read once and walked beside the sorted quads, so only the quads it holds are
 * looked up in it.
 *
 * A context-first order that the store leaves empty while every quad is in the default graph
 * ({@link QuadIndexes}) stays so when the write holds no quad in a named graph; else it is built
 * from the primary order before anything is written.
 *
 * <p>Not thread-safe: run by the loader's loading thread, in the load's one write transaction.
 */
final class IndexBuilder {
    private static final byte[] NO_VALUE = new byte[0];
    /** Entries of a non-empty index (or of the inferred primary index) read into memory at most. */
    static final long REBUILD_LIMIT = 1 << 18;

    private final WriteTransaction tx;
    private final List<QuadOrder> orders;
    private final QuadIndexes explicit;

    /** @param namedGraphs whether the quads to write hold one in a named graph */
    IndexBuilder(WriteTransaction tx, List<QuadOrder> orders, boolean namedGraphs) {
        this.tx = tx;
        this.orders = orders;
        this.explicit = SailLayout.explicitIndexes(tx, orders);
        if (namedGraphs) {
            // the context-first orders the store left empty are built from the primary one first
            explicit.keepContextOrders();
        }
    }

    /**
     * Whether order {@code i} is written: not a context-first order that the store leaves empty
     * while every quad is in the default graph (as every quad of this write is then too).
     */
    boolean writes(int i) {
        return explicit.kept(i);
    }

    /**
     * Fills order {@code i} from {@code quads}; returns how many quads were new to that index.
     *
     * @param expected the number of quads {@code quads} holds at most
     * @param newQuads told each quad new to the index (decoded into an array it may not keep), or null
     */
    long build(int i, SortedQuads quads, long expected, Consumer<long[]> newQuads) {
        QuadOrder order = orders.get(i);
        String name = SailLayout.explicitTree(order);
        BTree existing = tx.hasTree(name) ? tx.tree(name) : null;
        Consumer<byte[]> onNew = onNew(order, i == 0 ? inferredRemover(order) : null, newQuads);
        if (existing == null || existing.isEmpty()) {
            KeyIterator keys = new KeyIterator(quads, List.of(), onNew);
            tx.bulkBuild(name, keys);
            return keys.added;
        }
        if (existing.size() <= REBUILD_LIMIT && existing.size() <= expected) {
            List<Map.Entry<byte[], byte[]>> old = entries(existing);
            existing.clear();
            KeyIterator keys = new KeyIterator(quads, old, onNew);
            tx.bulkBuild(name, keys);
            return keys.added;
        }
        byte[] key = new byte[QuadOrder.KEY_BYTES];
        long added = 0;
        while (quads.next()) {
            encode(quads.key(), key);
            if (existing.containsKey(key)) {
                continue;
            }
            existing.put(key, NO_VALUE);
            added++;
            if (onNew != null) {
                onNew.accept(key);
            }
        }
        return added;
    }

    /** What to do with the key of each quad new to the index: remove its inferred copy, tell {@code newQuads}; null if nothing. */
    private static Consumer<byte[]> onNew(QuadOrder order, Consumer<long[]> removeInferred, Consumer<long[]> newQuads) {
        if (removeInferred == null && newQuads == null) {
            return null;
        }
        long[] quad = new long[4];
        return key -> {
            order.decode(key, quad);
            if (removeInferred != null) {
                removeInferred.accept(quad);
            }
            if (newQuads != null) {
                newQuads.accept(quad);
            }
        };
    }

    /**
     * Removes the inferred copy of each quad it is given, the quads coming in the primary order's
     * key order; null if the store has no inferred statements.
     */
    private Consumer<long[]> inferredRemover(QuadOrder primary) {
        String name = SailLayout.inferredTree(primary);
        if (!tx.hasTree(name) || tx.tree(name).isEmpty()) {
            return null;
        }
        QuadIndexes inferred = SailLayout.inferredIndexes(tx, orders);
        BTree tree = tx.tree(name);
        if (tree.size() > REBUILD_LIMIT) {
            return inferred::remove;
        }
        List<Map.Entry<byte[], byte[]>> held = entries(tree);
        byte[] key = new byte[QuadOrder.KEY_BYTES];
        int[] next = { 0 };
        return quad -> {
            primary.encode(quad, key);
            while (next[0] < held.size() && Arrays.compareUnsigned(held.get(next[0]).getKey(), key) < 0) {
                next[0]++;
            }
            if (next[0] < held.size() && Arrays.equals(held.get(next[0]).getKey(), key)) {
                inferred.remove(quad);
            }
        };
    }

    private static List<Map.Entry<byte[], byte[]>> entries(BTree tree) {
        List<Map.Entry<byte[], byte[]>> out = new ArrayList<>((int) tree.size());
        BTreeCursor c = tree.cursor(null, null);
        while (c.next()) {
            out.add(Map.entry(c.key().clone(), c.value().clone()));
        }
        return out;
    }

    static void encode(long[] ids, byte[] key) {
        for (int i = 0; i < 4; i++) {
            long v = ids[i];
            for (int b = 7; b >= 0; b--) {
                key[i * 8 + b] = (byte) v;
                v >>>= 8;
            }
        }
    }

    /**
     * Adapts sorted quads, merged with the entries an index held before (sorted, kept with their
     * values), to the entry iterator of a bulk build; a quad equal to a held entry is not new.
     */
    private static final class KeyIterator implements Iterator<Map.Entry<byte[], byte[]>> {
        private final SortedQuads quads;
        private final List<Map.Entry<byte[], byte[]>> held;
        private final Consumer<byte[]> onNew;
        private int nextHeld;
        /**
         * The current quad's key, not yet returned; null when the quads need reading. It is
         * {@link #keyBuffer}, filled again for each quad: a bulk build copies the keys it keeps.
         */
        private byte[] pending;
        private final byte[] keyBuffer = new byte[QuadOrder.KEY_BYTES];
        private boolean quadsDone;
        long added;

        KeyIterator(SortedQuads quads, List<Map.Entry<byte[], byte[]>> held, Consumer<byte[]> onNew) {
            this.quads = quads;
            this.held = held;
            this.onNew = onNew;
        }

        private byte[] pending() {
            if (pending == null && !quadsDone) {
                if (quads.next()) {
                    pending = keyBuffer;
                    encode(quads.key(), pending);
                } else {
                    quadsDone = true;
                }
            }
            return pending;
        }

        @Override
        public boolean hasNext() {
            return pending() != null || nextHeld < held.size();
        }

        @Override
        public Map.Entry<byte[], byte[]> next() {
            byte[] key = pending();
            if (key == null && nextHeld == held.size()) {
                throw new NoSuchElementException();
            }
            if (nextHeld < held.size()) {
                Map.Entry<byte[], byte[]> h = held.get(nextHeld);
                int c = key == null ? -1 : Arrays.compareUnsigned(h.getKey(), key);
                if (c <= 0) {
                    nextHeld++;
                    if (c == 0) {
                        pending = null;
                    }
                    return h;
                }
            }
            pending = null;
            added++;
            if (onNew != null) {
                onNew.accept(key);
            }
            return Map.entry(key, NO_VALUE);
        }
    }
}
