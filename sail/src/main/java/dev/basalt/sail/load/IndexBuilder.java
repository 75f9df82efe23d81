package dev.basalt.sail.load;

import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

import dev.basalt.sail.SailLayout;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;

/**
 * Writes the sorted, distinct quads of a load into the explicit statement indices, one order at a
 * time. An index that is empty is built bottom-up into full pages
 * ({@link WriteTransaction#bulkBuild}); a non-empty one gets the quads it lacks put in key order,
 * so each page is copied once per run of neighbouring keys. In the primary order, a quad that is
 * new to the store also removes an inferred copy of it (a quad is in at most one set).
 *
 * <p>Not thread-safe: run by the loader's loading thread, in the load's one write transaction.
 */
final class IndexBuilder {
    private static final byte[] NO_VALUE = new byte[0];

    private final WriteTransaction tx;
    private final List<QuadOrder> orders;

    IndexBuilder(WriteTransaction tx, List<QuadOrder> orders) {
        this.tx = tx;
        this.orders = orders;
    }

    /**
     * Fills order {@code i} from {@code quads}; returns how many quads were new to that index.
     *
     * @param newQuads told each quad new to the index (decoded into an array it may not keep), or null
     */
    long build(int i, SortedQuads quads, Consumer<long[]> newQuads) {
        QuadOrder order = orders.get(i);
        String name = SailLayout.explicitTree(order);
        BTree existing = tx.hasTree(name) ? tx.tree(name) : null;
        QuadIndexes inferred = i == 0 ? inferredIndexes() : null;
        long[] quad = new long[4];
        if (existing == null || existing.isEmpty()) {
            KeyIterator keys = new KeyIterator(quads, inferred == null && newQuads == null ? null : key -> {
                order.decode(key, quad);
                if (inferred != null) {
                    inferred.remove(quad);
                }
                if (newQuads != null) {
                    newQuads.accept(quad);
                }
            });
            tx.bulkBuild(name, keys);
            return keys.count;
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
            if (inferred != null || newQuads != null) {
                order.decode(key, quad);
                if (inferred != null) {
                    inferred.remove(quad);
                }
                if (newQuads != null) {
                    newQuads.accept(quad);
                }
            }
        }
        return added;
    }

    /** The inferred statement indices if the store has inferred statements, else null. */
    private QuadIndexes inferredIndexes() {
        String primary = SailLayout.inferredTree(orders.get(0));
        if (!tx.hasTree(primary) || tx.tree(primary).isEmpty()) {
            return null;
        }
        return new QuadIndexes(orders, o -> tx.tree(SailLayout.inferredTree(o)));
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

    /** Adapts sorted quads to the entry iterator of a bulk build (fresh key arrays, empty values). */
    private static final class KeyIterator implements Iterator<Map.Entry<byte[], byte[]>> {
        private final SortedQuads quads;
        private final Consumer<byte[]> onKey;
        private Boolean ready;
        long count;

        KeyIterator(SortedQuads quads, Consumer<byte[]> onKey) {
            this.quads = quads;
            this.onKey = onKey;
        }

        @Override
        public boolean hasNext() {
            if (ready == null) {
                ready = quads.next();
            }
            return ready;
        }

        @Override
        public Map.Entry<byte[], byte[]> next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            ready = null;
            byte[] key = new byte[QuadOrder.KEY_BYTES];
            encode(quads.key(), key);
            count++;
            if (onKey != null) {
                onKey.accept(key);
            }
            return Map.entry(key, NO_VALUE);
        }
    }
}
