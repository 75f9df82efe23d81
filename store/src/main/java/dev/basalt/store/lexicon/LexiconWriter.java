package dev.basalt.store.lexicon;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.spatial.SpatialIndex;

/**
 * Adds terms to the dictionary inside the store's one write transaction (see
 * {@link Lexicon#writer}). Reads see the transaction's own additions. Ids it allocates are kept
 * out of the shared caches until {@link #afterCommit()}: if the transaction rolls back, the
 * allocator state (a property of the same transaction) rolls back with it and those ids will be
 * handed out again for other terms, so they must never have been published.
 *
 * <p>It looks terms up (one at a time, or a batch in key order so that each TERM2ID page is
 * touched once) and numbers new ones; the rest is delegated: {@link WriterTermCache} keeps the ids
 * of the terms it created, {@link NewTermValues} makes their ID2TERM values (interned prefixes,
 * compression), {@link BottomUpBuild} builds the dictionary bottom-up when the transaction starts
 * from an empty one, and {@link SpatialIndex} gets the geometry terms.
 *
 * <p>Protocol: {@code getOrCreate*} any number of times, then {@link #beforeCommit()}, the
 * transaction's commit, and {@link #afterCommit()}; on rollback {@link #discardBottomUp()} and
 * drop the writer. Not thread-safe, like the transaction: one thread at a time (its parts too;
 * only {@link #finishBottomUp()} uses a helper thread, which ends before it returns).
 */
public final class LexiconWriter extends LexiconView {
    private final WriteTransaction tx;
    private final TermIdAllocator allocator;
    private final TermIdAllocator committed;
    /** Ids of the terms this transaction created, kept from the shared caches until the commit. */
    private final WriterTermCache added;
    /** The ID2TERM values of new terms: their interned prefixes and the compression dictionary. */
    private final NewTermValues values;
    private boolean changed;
    /** The dictionary built bottom-up while this transaction started from an empty one; else null. */
    private BottomUpBuild bottomUp;
    /**
     * The spatial index entries of the geometry terms this transaction creates, or null if the
     * store's spatial index is not current (see {@link SpatialIndex}): then it is left alone, and
     * {@link #rebuildSpatialIndex()} (which the sail runs on open) brings it up to date.
     */
    private SpatialIndex spatial;

    LexiconWriter(Lexicon lexicon, WriteTransaction tx, TermIdAllocator allocator) {
        super(lexicon, tx.tree(Lexicon.TERM_TO_ID), tx.tree(Lexicon.ID_TO_TERM));
        this.tx = tx;
        this.allocator = allocator;
        this.committed = allocator.copy();
        this.spatial = SpatialIndex.isCurrent(tx.property(SpatialIndex.PROPERTY), tx.property(Lexicon.ALLOCATOR_PROPERTY))
                ? new SpatialIndex() : null;
        int limit = lexicon.config().writerCacheSize();
        this.added = new WriterTermCache(limit);
        this.values = new NewTermValues(lexicon, tx, limit);
    }

    @Override
    BTree prefixTree() {
        return values.prefixTree();
    }

    @Override
    boolean isPrefixCommitted(int number) {
        return values.isPrefixCommitted(number);
    }

    @Override
    boolean isCommitted(long id) {
        return committed.isAllocated(id);
    }

    /**
     * If the dictionary is empty, keeps the TERM2ID entries of the terms this writer creates from
     * now on in memory and writes them into the tree bottom-up, in key order, at
     * {@link #finishBottomUp()} (at the latest in {@link #beforeCommit()}): much cheaper than
     * inserting each new term into the tree, as a bulk load of a new store does for millions of
     * terms. If {@code spillDirectory} is not null, their ID2TERM values are appended to files
     * there and written into ID2TERM bottom-up, in id order, at the same time (the caller deletes
     * the directory; {@link #discardBottomUp()} closes the files of a load that fails). Keys and
     * ID2TERM values are the same as without it, and so are the ids: in the order the terms come.
     * Returns whether it did.
     */
    public boolean startBottomUp(Path spillDirectory) {
        return startBottomUp(spillDirectory, Runtime.getRuntime().maxMemory() / 3);
    }

    /**
     * {@link #startBottomUp(Path)} with the entries' memory bounded: once they take about
     * {@code budgetBytes} of heap they are merged into TERM2ID bottom-up (the tree is built again
     * from its entries and them, {@link BTree#bulkMerge}) and the in-memory index starts empty
     * again, so a dictionary larger than the heap allows is still loaded, with the same ids (terms
     * are numbered in the order they come) and TERM2ID's pages full; a term not in memory is looked
     * up in the tree. ID2TERM values spilled to files stay there to the end, whatever the
     * budget: ID2TERM is always written bottom-up, in id order, by {@link #finishBottomUp()} (ids
     * only grow, so inserting them one by one would split every leaf in two and leave it half full).
     */
    public boolean startBottomUp(Path spillDirectory, long budgetBytes) {
        if (bottomUp == null) {
            bottomUp = BottomUpBuild.startIfEmpty(termToId, idToTerm, spillDirectory, budgetBytes);
        }
        return bottomUp != null;
    }

    /**
     * Writes the entries kept since {@link #startBottomUp(Path)} into TERM2ID and ID2TERM; no-op if
     * none are kept. TERM2ID's keys are sorted on a thread of its own meanwhile, which ends before
     * this returns.
     */
    public void finishBottomUp() {
        flushSpatial();
        BottomUpBuild build = bottomUp;
        bottomUp = null;
        if (build != null) {
            build.finish();
        }
    }

    /** Drops the entries kept since {@link #startBottomUp(Path)} and closes their files; for a transaction that rolls back. */
    public void discardBottomUp() {
        if (bottomUp != null) {
            bottomUp.discard();
            bottomUp = null;
        }
    }

    @Override
    byte[] storedValue(long id) {
        byte[] spilled = bottomUp == null ? null : bottomUp.spilledValue(id);
        return spilled != null ? spilled : super.storedValue(id);
    }

    /** One {@link #storedValue} per id: a spilled term is not in the tree the batch read walks. */
    @Override
    byte[][] storedValues(long[] ids, int n) {
        byte[][] out = new byte[n][];
        for (int i = 0; i < n; i++) {
            out[i] = storedValue(ids[i]);
        }
        return out;
    }

    @Override
    long find(byte[] fullKey, byte[] prefix) {
        if (bottomUp == null) {
            return super.find(fullKey, prefix);
        }
        if (prefix == null) {
            return bottomUp.get(fullKey);
        }
        for (int ordinal = 0; ; ordinal++) {
            long id = bottomUp.get(LargeTermKeys.withOrdinal(prefix, ordinal));
            if (id == TermIds.NULL || Arrays.equals(fullKey(id, storedValue(id)), fullKey)) {
                return id;
            }
        }
    }

    /** Entries under a long term's {@link LargeTermKeys#prefix}: the ordinal of the next one. */
    private int ordinalsUnder(byte[] prefix) {
        if (bottomUp == null) {
            return Math.toIntExact(termToId.rangeCount(prefix, Lexicon.prefixEnd(prefix)));
        }
        int ordinal = 0;
        while (bottomUp.get(LargeTermKeys.withOrdinal(prefix, ordinal)) != TermIds.NULL) {
            ordinal++;
        }
        return ordinal;
    }

    /** Lookups of new keys in TERM2ID that the filter of merged keys made unnecessary (while built bottom-up). */
    long treeLookupsSkipped() {
        return bottomUp == null ? 0 : bottomUp.treeLookupsSkipped();
    }

    /** Times the in-memory TERM2ID entries were merged into the tree at their budget (while built bottom-up). */
    int bottomUpMerges() {
        return bottomUp == null ? 0 : bottomUp.merges();
    }

    @Override
    public List<long[]> tripleTerms(long subject) {
        finishBottomUp();
        return super.tripleTerms(subject);
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

    /**
     * Ids of many terms, adding new ones: terms are looked up in key order, and new ones are
     * numbered in the order they first occur in the batch (as while TERM2ID is built bottom-up,
     * {@link #startBottomUp()}).
     */
    public long[] getOrCreateAll(List<? extends Value> values) {
        long[] inline = new long[values.size()];
        for (int i = 0; i < inline.length; i++) {
            inline[i] = InlineValues.encode(values.get(i));
        }
        return getOrCreateAll(values, inline, new byte[values.size()][], null);
    }

    /**
     * {@link #getOrCreateAll(List)} with each term's encoding computed beforehand (a bulk loader's
     * parser threads do it, so this writer's one thread does not): {@code inline[i]} is
     * {@link InlineValues#encode}{@code (values[i])}, and where that is {@link TermIds#NULL},
     * {@code keys[i]} is {@link TermKeys#encode}{@code (values[i])}, or null (then this method
     * encodes the term if it needs the key, and stores it in {@code keys});
     * {@code largePrefixes}, if not null, holds {@link LargeTermKeys#prefix}{@code (keys[i])} for
     * each key that {@link LargeTermKeys#isLarge} (a digest of the whole key) and null for the
     * others. The same term may occur more than once. A null value stands for a term known only
     * by its (given) key, as a byte-level parser produces it; it is neither inline nor a triple term,
     * and this writer remembers its id by key only.
     */
    public long[] getOrCreateAll(List<? extends Value> values, long[] inline, byte[][] keys, byte[][] largePrefixes) {
        if (bottomUp != null) {
            return getOrCreateInOrder(values, inline, keys, largePrefixes);
        }
        long[] ids = new long[values.size()];
        int[] misses = new int[ids.length];
        int missCount = 0;
        for (int i = 0; i < ids.length; i++) {
            if (inline[i] != TermIds.NULL) {
                ids[i] = inline[i];
                continue;
            }
            Value v = values.get(i);
            if (v == null) {
                ids[i] = added.get(keys[i]);
                if (ids[i] == TermIds.NULL) {
                    misses[missCount++] = i;
                }
                continue;
            }
            Long known = added.get(v);
            if (known == null) {
                known = lexicon.cachedId(v);
            }
            if (known != null) {
                ids[i] = known;
            } else if (v instanceof Triple) {
                ids[i] = getOrCreate(v);
            } else {
                if (keys[i] == null) {
                    keys[i] = TermKeys.encode(v);
                }
                misses[missCount++] = i;
            }
        }
        Integer[] order = new Integer[missCount];
        for (int m = 0; m < missCount; m++) {
            order[m] = misses[m];
        }
        // looked up in key order, so the batch touches each TERM2ID page once (the sort is stable:
        // the first of equal keys is the term's first occurrence in the batch) ...
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys[a], keys[b]));
        int[] firstOf = new int[ids.length];
        byte[][] prefixes = new byte[ids.length][];
        int[] created = new int[missCount];
        int createdCount = 0;
        int previous = -1;
        for (int i : order) {
            // equal keys are neighbours once sorted: a term repeated in the batch is created once
            if (previous >= 0 && Arrays.equals(keys[previous], keys[i])) {
                firstOf[i] = firstOf[previous];
                continue;
            }
            firstOf[i] = i;
            prefixes[i] = largePrefixes != null ? largePrefixes[i]
                    : LargeTermKeys.isLarge(keys[i]) ? LargeTermKeys.prefix(keys[i]) : null;
            ids[i] = find(keys[i], prefixes[i]);
            if (ids[i] == TermIds.NULL) {
                created[createdCount++] = i;
            } else {
                remember(values.get(i), keys[i], ids[i]);
            }
            previous = i;
        }
        // ... and new terms numbered in the order they first occur, as a load into an empty store
        // numbers them, so their ids do not depend on where batches end
        Arrays.sort(created, 0, createdCount);
        for (int c = 0; c < createdCount; c++) {
            int i = created[c];
            ids[i] = insert(keys[i], prefixes[i]);
            remember(values.get(i), keys[i], ids[i]);
        }
        for (int m = 0; m < missCount; m++) {
            int i = misses[m];
            if (firstOf[i] != i) {
                ids[i] = ids[firstOf[i]];
            }
        }
        return ids;
    }

    /**
     * {@link #getOrCreateAll(List, long[], byte[][], byte[][])} while TERM2ID is built bottom-up:
     * the in-memory index holds every term of the dictionary, so each term costs one probe and a
     * new one is created at once, in batch order (key order would only serve tree inserts).
     */
    private long[] getOrCreateInOrder(List<? extends Value> values, long[] inline, byte[][] keys,
            byte[][] largePrefixes) {
        long[] ids = new long[values.size()];
        for (int i = 0; i < ids.length; i++) {
            Value v = values.get(i);
            if (inline[i] != TermIds.NULL) {
                ids[i] = inline[i];
            } else if (v instanceof Triple) {
                ids[i] = getOrCreate(v);
            } else {
                byte[] key = keys[i] != null ? keys[i] : (keys[i] = TermKeys.encode(v));
                byte[] prefix = largePrefixes != null ? largePrefixes[i]
                        : LargeTermKeys.isLarge(key) ? LargeTermKeys.prefix(key) : null;
                ids[i] = create(v, key, prefix);
            }
        }
        return ids;
    }

    @Override
    long idFor(Value component, boolean create) {
        return create ? getOrCreate(component) : lookup(component);
    }

    /** Finds the key or inserts it under a fresh id. */
    private long create(Value value, byte[] key) {
        return create(value, key, LargeTermKeys.isLarge(key) ? LargeTermKeys.prefix(key) : null);
    }

    /** {@link #create(Value, byte[])} with the key's {@link LargeTermKeys#prefix} computed (null for a short key). */
    private long create(Value value, byte[] key, byte[] prefix) {
        long id = find(key, prefix);
        if (id == TermIds.NULL) {
            id = insert(key, prefix);
        }
        remember(value, key, id);
        return id;
    }

    /** Numbers a term that {@link #find} did not find and stores it in both trees; returns its id. */
    private long insert(byte[] key, byte[] prefix) {
        long id = allocator.allocate(TermKeys.kind(key));
        if (spatial != null) {
            String wkt = SpatialTerms.wkt(key);
            if (wkt != null) {
                spatial.add(id, wkt);
                if (spatial.pendingCount() >= SpatialIndex.FLUSH_ENTRIES) {
                    flushSpatial();
                }
            }
        }
        byte[] stored = values.encode(key);
        if (bottomUp != null) {
            bottomUp.putValue(id, stored);
        } else {
            idToTerm.put(idKey(id), stored);
        }
        byte[] t2iKey = key;
        if (prefix != null) {
            t2iKey = LargeTermKeys.withOrdinal(prefix, ordinalsUnder(prefix));
        }
        if (bottomUp != null) {
            bottomUp.put(t2iKey, id);
        } else {
            termToId.put(t2iKey, idKey(id));
        }
        changed = true;
        return id;
    }

    /** Caches the id of a term found or created: by value, or by key for a term known only by its key. */
    private void remember(Value value, byte[] key, long id) {
        if (value == null) {
            if (bottomUp == null) { // else the bottom-up index remembers it
                added.put(key, id);
            }
        } else if (isCommitted(id)) {
            lexicon.cache(value, id);
        } else {
            added.put(value, id);
        }
    }

    @Override
    TermDictionary dictionary(int number, long id) {
        TermDictionary own = values.newDictionary(number);
        return own != null ? own : super.dictionary(number, id);
    }

    /** True if this writer added a term. */
    public boolean isChanged() {
        return changed;
    }

    /** Records the allocator state in the transaction; call right before it commits. */
    public void beforeCommit() {
        finishBottomUp();
        if (changed) {
            byte[] state = allocator.toBytes();
            tx.setProperty(Lexicon.ALLOCATOR_PROPERTY, state);
            if (spatial != null) {
                tx.setProperty(SpatialIndex.PROPERTY, SpatialIndex.coverage(state));
            }
        }
    }

    /** Writes the spatial index entries collected so far into the transaction's index tree. */
    private void flushSpatial() {
        if (spatial != null && spatial.hasPending()) {
            spatial.flush(tx.tree(SpatialIndex.TREE));
        }
    }

    /**
     * Keeps no spatial index in this transaction (a scratch store that is never queried spatially,
     * such as a transaction's spilled changes): geometry terms are not parsed, and the index is left
     * as it is, so it is no longer current once this transaction adds terms.
     */
    public void withoutSpatialIndex() {
        spatial = null;
    }

    /** True if the store's spatial index covers the dictionary as this transaction sees it. */
    public boolean spatialIndexCurrent() {
        return spatial != null;
    }

    /**
     * Builds the spatial index anew from every geometry term of the dictionary (a store written
     * without it, or by a writer that did not keep it), in this transaction; returns the number of
     * geometry terms indexed. Terms this transaction adds afterwards are indexed as usual.
     */
    public long rebuildSpatialIndex() {
        finishBottomUp();
        tx.tree(SpatialIndex.TREE).clear();
        SpatialIndex index = new SpatialIndex();
        long n = SpatialTerms.collect(this, idToTerm, index);
        spatial = index;
        flushSpatial();
        tx.setProperty(SpatialIndex.PROPERTY, SpatialIndex.coverage(changed ? allocator.toBytes()
                : tx.property(Lexicon.ALLOCATOR_PROPERTY)));
        return n;
    }

    /** Publishes the terms this transaction added (the ones still remembered) to the shared caches. */
    public void afterCommit() {
        added.publish(lexicon);
        values.afterCommit();
    }

    /** Dictionary term counts including this transaction's additions. */
    public LexiconCounts counts() {
        return LexiconCounts.of(allocator);
    }
}
