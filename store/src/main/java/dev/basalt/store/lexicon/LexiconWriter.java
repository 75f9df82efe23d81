package dev.basalt.store.lexicon;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.WriteTransaction;

/**
 * Adds terms to the dictionary inside the store's one write transaction (see
 * {@link Lexicon#writer}). Reads see the transaction's own additions. Ids it allocates are kept
 * out of the shared caches until {@link #afterCommit()}: if the transaction rolls back, the
 * allocator state (a property of the same transaction) rolls back with it and those ids will be
 * handed out again for other terms, so they must never have been published.
 *
 * <p>Protocol: {@code getOrCreate*} any number of times, then {@link #beforeCommit()}, the
 * transaction's commit, and {@link #afterCommit()}; on rollback simply drop the writer. Not
 * thread-safe, like the transaction.
 */
public final class LexiconWriter extends LexiconView {
    private final WriteTransaction tx;
    private final TermIdAllocator allocator;
    private final TermIdAllocator committed;
    /** Terms this transaction added, most recent last; bounded, for the repeated use of new terms. */
    private final LinkedHashMap<Value, Long> added;
    private boolean changed;

    LexiconWriter(Lexicon lexicon, WriteTransaction tx, TermIdAllocator allocator) {
        super(lexicon, tx.tree(Lexicon.TERM_TO_ID), tx.tree(Lexicon.ID_TO_TERM));
        this.tx = tx;
        this.allocator = allocator;
        this.committed = allocator.copy();
        int limit = lexicon.config().writerCacheSize();
        this.added = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Value, Long> eldest) {
                return size() > limit;
            }
        };
    }

    @Override
    boolean isCommitted(long id) {
        return committed.isAllocated(id);
    }

    @Override
    public long lookup(Value value) {
        Long id = added.get(value);
        return id != null ? id : super.lookup(value);
    }

    /** The id of a term, adding it (and, for a triple term, its components) if it is new. */
    public long getOrCreate(Value value) {
        long inline = InlineValues.encode(value);
        if (inline != TermIds.NULL) {
            return inline;
        }
        Long known = added.get(value);
        if (known == null) {
            known = lexicon.cachedId(value);
        }
        return known != null ? known : create(value, keyOf(value, true));
    }

    /** Ids of many terms, adding new ones; new terms are inserted in key order. */
    public long[] getOrCreateAll(List<? extends Value> values) {
        long[] ids = new long[values.size()];
        List<Integer> misses = new ArrayList<>();
        byte[][] keys = new byte[ids.length][];
        for (int i = 0; i < ids.length; i++) {
            Value v = values.get(i);
            long inline = InlineValues.encode(v);
            Long known = inline != TermIds.NULL ? Long.valueOf(inline) : added.get(v);
            if (known == null) {
                known = lexicon.cachedId(v);
            }
            if (known != null) {
                ids[i] = known;
            } else if (v instanceof Triple) {
                ids[i] = getOrCreate(v);
            } else {
                keys[i] = TermKeys.encode(v);
                misses.add(i);
            }
        }
        misses.sort(Comparator.comparing((Integer i) -> keys[i], Arrays::compareUnsigned));
        for (int i : misses) {
            Value v = values.get(i);
            Long again = added.get(v);
            ids[i] = again != null ? again : create(v, keys[i]);
        }
        return ids;
    }

    @Override
    long idFor(Value component, boolean create) {
        return create ? getOrCreate(component) : lookup(component);
    }

    /** Finds the key or inserts it under a fresh id. */
    private long create(Value value, byte[] key) {
        long id = find(key);
        if (id == TermIds.NULL) {
            id = allocator.allocate(TermKeys.kind(key));
            idToTerm.put(idKey(id), key);
            byte[] t2iKey = key;
            if (LargeTermKeys.isLarge(key)) {
                byte[] prefix = LargeTermKeys.prefix(key);
                long ordinal = termToId.rangeCount(prefix, Lexicon.prefixEnd(prefix));
                t2iKey = LargeTermKeys.key(key, Math.toIntExact(ordinal));
            }
            termToId.put(t2iKey, idKey(id));
            changed = true;
        }
        if (isCommitted(id)) {
            lexicon.cache(value, id);
        } else {
            added.put(value, id);
        }
        return id;
    }

    /** True if this writer added a term. */
    public boolean isChanged() {
        return changed;
    }

    /** Records the allocator state in the transaction; call right before it commits. */
    public void beforeCommit() {
        if (changed) {
            tx.setProperty(Lexicon.ALLOCATOR_PROPERTY, allocator.toBytes());
        }
    }

    /** Publishes the terms this transaction added (the ones still remembered) to the shared caches. */
    public void afterCommit() {
        for (Map.Entry<Value, Long> e : added.entrySet()) {
            lexicon.cache(e.getKey(), e.getValue());
        }
        added.clear();
    }

    /** Dictionary term counts including this transaction's additions. */
    public LexiconCounts counts() {
        return LexiconCounts.of(allocator);
    }
}
