package dev.basalt.store.lexicon;

import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.eclipse.rdf4j.model.Value;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.cache.ClockCache;
import dev.basalt.store.journal.StoreException;

/**
 * The dictionary of a store: every RDF term that is not an inline value has a 64-bit id
 * ({@link TermIds}), kept in two B+trees of the store and committed with it:
 * <ul>
 * <li>{@value #TERM_TO_ID}: {@link TermKeys} key (or, over 1 KB, its {@link LargeTermKeys} hashed
 * key) → 8-byte id, big-endian;
 * <li>{@value #ID_TO_TERM}: 8-byte id → the {@link TermValues} form of the full key: whole, after
 * an interned prefix, or compressed (large ones stored out of page by the B+tree);
 * <li>{@value #PREFIXES}: the interned key prefixes (IRI namespaces, datatype IRIs) of
 * {@link KeyPrefixes}, both ways.
 * </ul>
 * The {@link TermIdAllocator} state is the store property {@value #ALLOCATOR_PROPERTY}; the id
 * layout version is the property {@value #FORMAT_PROPERTY}. Terms are never deleted.
 *
 * <p>Read a committed state with {@link #reader(Snapshot)}; add terms inside the store's write
 * transaction with {@link #writer(WriteTransaction)}. The two caches (id → value, a
 * {@link ClockCache}; value → id, Caffeine) are shared by all readers and writers and only ever
 * hold committed mappings: a writer publishes the terms it added after its transaction commits,
 * and a rolled-back transaction leaves no trace in them. Since ids are never reused, a committed
 * mapping is valid for every commit point that has the id; so is a committed key prefix, which
 * the lexicon caches too. Thread-safe.
 */
public final class Lexicon {
    public static final String TERM_TO_ID = "lex.t2i";
    public static final String ID_TO_TERM = "lex.i2t";
    public static final String PREFIXES = "lex.prefixes";
    public static final String ALLOCATOR_PROPERTY = "lex.alloc";
    public static final String FORMAT_PROPERTY = "lex.format";

    private final LexiconConfig config;
    private final ClockCache<Value> values;
    private final Cache<Value, Long> ids;
    private final KeyPrefixes prefixes = new KeyPrefixes();
    private final TermDictionary.Cache dictionaries = new TermDictionary.Cache();
    /** Derived values of every function, keyed by {@link #derivedKey}; a quarter of the derived budget. */
    private final ClockCache<DerivedEntry> derived;
    /** Each function's number in {@link #derived}'s keys, the first {@link #MAX_DERIVED_CACHES} asked for. */
    private final ConcurrentHashMap<Object, Integer> derivedFunctions = new ConcurrentHashMap<>();
    private final AtomicInteger functionNumbers = new AtomicInteger();
    private final ConcurrentHashMap<Object, DerivedNumbers> derivedNumbers = new ConcurrentHashMap<>();
    /** The rest of the derived budget, shared by the {@link DerivedNumbers} tables. */
    private final DerivedBudget numbersBudget;

    /** Most functions whose derived values a lexicon keeps ({@link #derivedCache}). */
    public static final int MAX_DERIVED_CACHES = 16;
    /**
     * Heap bytes one derived value entry counts for: its handle, table slots, entry and value (a
     * literal with its label and parsed decimal), rounded up.
     */
    public static final int DERIVED_ENTRY_BYTES = 256;
    /** Most entries of one function's {@link DerivedNumbers} table (32 MiB of slots at most). */
    static final int MAX_DERIVED_NUMBERS = 1 << 20;

    public Lexicon(LexiconConfig config) {
        this.config = config;
        // maintenance on the calling thread, as in the page cache: no common-pool wake-up per access
        this.values = new ClockCache<>(config.valueCacheSize(), 1, Lexicon::weight);
        long valueBytes = config.derivedCacheBytes() / 4;
        this.derived = new ClockCache<>(valueBytes / DERIVED_ENTRY_BYTES, 1, e -> 1);
        this.numbersBudget = new DerivedBudget(config.derivedCacheBytes() - valueBytes);
        this.ids = Caffeine.newBuilder().maximumWeight(config.idCacheSize())
                .weigher((Value v, Long id) -> weight(v)).executor(Runnable::run).build();
    }

    /** Characters of a term that count as one cache entry (see {@link LexiconConfig}). */
    public static final int ENTRY_CHARS = 256;

    private static int weight(Value v) {
        return 1 + v.stringValue().length() / ENTRY_CHARS;
    }

    public LexiconConfig config() {
        return config;
    }

    /** A reader of the dictionary as of a snapshot; usable by several threads while the snapshot is open. */
    public LexiconReader reader(Snapshot snapshot) {
        checkFormat(snapshot.property(FORMAT_PROPERTY));
        return new LexiconReader(this, snapshot.tree(TERM_TO_ID), snapshot.tree(ID_TO_TERM), snapshot.tree(PREFIXES));
    }

    /**
     * A reader of the dictionary as {@code writer}'s open transaction sees it, new terms included
     * (for a transaction that reads its own writes); valid until that transaction ends, and only
     * while it is not writing.
     */
    public LexiconReader reader(LexiconWriter writer) {
        writer.finishBottomUp();
        return new LexiconReader(this, writer.termToId, writer.idToTerm, null, writer);
    }

    /** The writer of the transaction; call its {@code beforeCommit} and {@code afterCommit} around the commit. */
    public LexiconWriter writer(WriteTransaction tx) {
        byte[] format = tx.property(FORMAT_PROPERTY);
        checkFormat(format);
        if (format == null) {
            tx.setProperty(FORMAT_PROPERTY, new byte[] { (byte) TermIds.FORMAT_VERSION });
        }
        byte[] state = tx.property(ALLOCATOR_PROPERTY);
        TermIdAllocator allocator = state == null ? new TermIdAllocator() : TermIdAllocator.fromBytes(state);
        return new LexiconWriter(this, tx, allocator);
    }

    /**
     * Refuses a store whose dictionary this Basalt cannot read (another {@link #FORMAT_PROPERTY});
     * owners call it on open so that an old store fails at once, not at its first query.
     */
    public static void requireReadable(Snapshot snapshot) {
        checkFormat(snapshot.property(FORMAT_PROPERTY));
    }

    /** Dictionary term counts of a commit point. */
    public static LexiconCounts counts(Snapshot snapshot) {
        byte[] state = snapshot.property(ALLOCATOR_PROPERTY);
        return state == null ? LexiconCounts.EMPTY : LexiconCounts.of(TermIdAllocator.fromBytes(state));
    }

    /**
     * The values derived from committed terms by a pure function (such as a literal's value under a
     * cast), one function per {@code function} key (compared by {@code equals}); null past the first
     * {@link #MAX_DERIVED_CACHES} functions asked for (their values are then derived afresh), so
     * queries with ever new expressions cannot grow the map of functions without bound. Keys are
     * term ids: since ids are never reused, a committed id's derived value stays valid; ids of
     * uncommitted terms must not be kept here. All functions share one cache of a quarter of
     * {@link LexiconConfig#derivedCacheBytes()} (at {@value #DERIVED_ENTRY_BYTES} bytes an entry);
     * {@link #clearCaches} empties it.
     */
    public DerivedCache derivedCache(Object function) {
        Integer n = derivedFunctions.get(function);
        if (n == null && derivedFunctions.size() < MAX_DERIVED_CACHES) {
            // two threads may both pass the size check: the bound can be passed by a few, never without limit
            n = derivedFunctions.computeIfAbsent(function, k -> functionNumbers.getAndIncrement());
        }
        return n == null ? null : new DerivedCache(derived, n);
    }

    /**
     * A table of numbers derived from committed terms by a pure function, one per {@code function}
     * key, made on first use and kept for the life of this lexicon, under the same rules and the same
     * bound of {@link #MAX_DERIVED_CACHES} functions as {@link #derivedCache} (past it: null). The
     * tables share three quarters of {@link LexiconConfig#derivedCacheBytes()}.
     */
    public DerivedNumbers derivedNumbers(Object function) {
        DerivedNumbers table = derivedNumbers.get(function);
        if (table == null && derivedNumbers.size() < MAX_DERIVED_CACHES) {
            table = derivedNumbers.computeIfAbsent(function,
                    k -> new DerivedNumbers(MAX_DERIVED_NUMBERS, numbersBudget));
        }
        return table;
    }

    /** Heap bytes the derived caches count now: the value entries' and the number tables'. */
    public long derivedBytes() {
        return derived.weightedSize() * DERIVED_ENTRY_BYTES + numbersBudget.used();
    }

    /** Drops every cached mapping (for tests and after external changes to the store). */
    public void clearCaches() {
        derived.invalidateAll();
        derivedNumbers.values().forEach(DerivedNumbers::clear);
        values.invalidateAll();
        ids.invalidateAll();
        prefixes.clear();
        dictionaries.clear();
    }

    /**
     * Refuses a store whose lexicon has another format version: this Basalt reads versions
     * {@link TermIds#OLDEST_READABLE_FORMAT_VERSION} to {@link TermIds#FORMAT_VERSION} (version 2 is
     * version 3 without trained dictionaries, docs/FORMAT.md §4).
     */
    static void checkFormat(byte[] format) {
        if (format != null && (format.length != 1 || format[0] < TermIds.OLDEST_READABLE_FORMAT_VERSION
                || format[0] > TermIds.FORMAT_VERSION)) {
            throw new StoreException("this store's dictionary has format " + (format.length == 1 ? format[0] : "?")
                    + " (store property '" + FORMAT_PROPERTY + "') but this Basalt reads formats "
                    + TermIds.OLDEST_READABLE_FORMAT_VERSION + " to " + TermIds.FORMAT_VERSION
                    + " only. To migrate: open the store with the Basalt release that wrote it, export its statements"
                    + " with an RDF4J client (e.g. RepositoryConnection.export to an N-Quads file), and load that file"
                    + " into a new store with 'basalt load --store NEWDIR FILE'");
        }
    }

    KeyPrefixes prefixes() {
        return prefixes;
    }

    TermDictionary.Cache dictionaries() {
        return dictionaries;
    }

    Long cachedId(Value value) {
        return ids.getIfPresent(value);
    }

    Value cachedValue(long id) {
        return values.get(id);
    }

    /**
     * Rehearses the id → value cache's eviction on a scratch copy of up to {@code entries} of its values
     * ({@link ClockCache#rehearseEviction}), leaving the cache as it was; returns the scratch cache's evictions.
     */
    public long rehearseValueEviction(int entries) {
        return values.rehearseEviction(entries);
    }

    /** Publishes a committed mapping, both ways. */
    void cache(Value value, long id) {
        ids.put(value, id);
        // as the dictionary decodes it: a number compares by its value (ExactNumericLiteral)
        values.put(id, ExactNumericLiteral.exact(value));
    }

    /**
     * Publishes a committed mapping read by its id, one way: a term resolved for a result is rarely
     * looked up by value afterwards, and the value → id cache's insertion (Caffeine's hash map,
     * write buffer and eviction) cost about a twentieth of a short-query mix's CPU at 10M triples.
     */
    void cacheValue(long id, Value value) {
        values.put(id, value);
    }

    static long getLong(byte[] b) {
        return TermKeys.getLong(b, 0);
    }

    /** The smallest key greater than every key starting with {@code prefix}, or null if none. */
    static byte[] prefixEnd(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xFF) {
                byte[] end = Arrays.copyOf(prefix, i + 1);
                end[i]++;
                return end;
            }
        }
        return null;
    }
}
