package dev.basalt.store.lexicon;

import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.cache.ClockCache;

/**
 * One function's view of the lexicon's shared cache of derived values ({@link Lexicon#derivedCache}):
 * an entry is keyed by a hash of the function's number and the term id and carries both, so a
 * read only returns a value put for the same function and id (another pair hashed alike reads as
 * a miss, and a put replaces it).
 *
 * <p>Thread rules: thread-safe, as the shared {@link ClockCache} it reads.
 */
public final class DerivedCache {
    private final ClockCache<DerivedEntry> cache;
    private final int function;

    DerivedCache(ClockCache<DerivedEntry> cache, int function) {
        this.cache = cache;
        this.function = function;
    }

    private long key(long id) {
        return (id ^ ((long) function * 0xC2B2AE3D27D4EB4FL)) * 0x9E3779B97F4A7C15L;
    }

    /** The value held for {@code id}, or null. */
    public Value get(long id) {
        DerivedEntry e = cache.get(key(id));
        return e != null && e.id() == id && e.function() == function ? e.value() : null;
    }

    /** Holds {@code value} (not null) for {@code id}. */
    public void put(long id, Value value) {
        cache.put(key(id), new DerivedEntry(function, id, value));
    }
}
