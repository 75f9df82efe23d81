package dev.basalt.store.lexicon;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import org.eclipse.rdf4j.model.Value;

/**
 * The ids of terms one write transaction created, which must not enter the {@link Lexicon}'s
 * shared caches before it commits (a rollback hands those ids out again): by value in a bounded
 * map in recency order, and, for terms known only by their keys (a byte-level parser's), in a
 * direct-mapped cache by key hash whose slot keeps the last key that landed there. The key cache
 * is cheaper per term than a map with recency order, which a load of mostly new terms would
 * churn; it is allocated at its first use, so transactions that do not use it do not pay for it.
 *
 * <p>Not thread-safe: the writer's one thread, like the transaction.
 */
final class WriterTermCache {
    /** Terms this transaction added, most recent last. */
    private final LinkedHashMap<Value, Long> byValue;
    private byte[][] keys;
    private long[] ids;
    private final int slots;

    /** A cache of about {@code limit} terms by value, and twice that many slots by key. */
    WriterTermCache(int limit) {
        this.byValue = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Value, Long> eldest) {
                return size() > limit;
            }
        };
        this.slots = Integer.highestOneBit(Math.max(limit, 1)) * 2;
    }

    /** The id of a term this transaction created, if still remembered; else null. */
    Long get(Value value) {
        return byValue.get(value);
    }

    void put(Value value, long id) {
        byValue.put(value, id);
    }

    /** The id remembered for a term key, or {@link TermIds#NULL}. */
    long get(byte[] key) {
        int slot = slot(key);
        return Arrays.equals(keys[slot], key) ? ids[slot] : TermIds.NULL;
    }

    void put(byte[] key, long id) {
        int slot = slot(key);
        keys[slot] = key;
        ids[slot] = id;
    }

    /** After the commit: the terms remembered by value go to the lexicon's shared cache; by key they are forgotten. */
    void publish(Lexicon lexicon) {
        for (Map.Entry<Value, Long> e : byValue.entrySet()) {
            lexicon.cache(e.getKey(), e.getValue());
        }
        byValue.clear();
        if (keys != null) {
            Arrays.fill(keys, null);
        }
    }

    private int slot(byte[] key) {
        if (keys == null) {
            keys = new byte[slots][];
            ids = new long[slots];
        }
        int h = Arrays.hashCode(key);
        return (h ^ (h >>> 16)) & (slots - 1);
    }
}
