package dev.basalt.store.lexicon;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;

import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.io.TaskResults;
import dev.basalt.store.spatial.SpatialIndex;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
    private static final Logger LOG = LoggerFactory.getLogger(LexiconWriter.class);
    private final WriteTransaction tx;
    private final TermIdAllocator allocator;
    private final TermIdAllocator committed;
    /** Terms this transaction added, most recent last; bounded, for the repeated use of new terms. */
    private final LinkedHashMap<Value, Long> added;
    /**
     * Ids of terms given only by their keys (a byte-level parser's, see {@link #getOrCreateAll(List,
     * long[], byte[][], byte[][])}): a direct-mapped cache by key hash, a slot keeping the last key
     * that landed there; this writer's own, never published. Cheaper per term than a map with
     * recency order, which a load of mostly new terms would churn. Allocated on the first such term
     * (a slot per cached term, twice the writer cache size): other transactions do not pay for it.
     */
    private byte[][] keyCacheKeys;
    private long[] keyCacheIds;
    private final int keyCacheSlots;
    /** Key prefixes this transaction interned, by their {@link KeyPrefixes#text}; bounded like {@link #added}. */
    private final LinkedHashMap<String, Integer> newPrefixes;
    private BTree prefixTree;
    /** Prefixes committed before this transaction; -1 until the first prefix lookup reads it. */
    private int committedPrefixes = -1;
    private int nextPrefix;
    private boolean changed;
    /** This transaction's TERM2ID entries while they are built bottom-up (the dictionary was empty); else null. */
    private BottomUpTermIndex bottomUp;
    /** This transaction's ID2TERM values while TERM2ID is built bottom-up and a spill directory was given; else null. */
    private SpilledTermValues spilledValues;
    /** Heap bytes the bottom-up entries may take; past it they are written and the rest inserted one by one. */
    private long bottomUpBudget;
    /** Times the in-memory TERM2ID entries were merged into the tree at their budget. */
    private int bottomUpMerges;
    /**
     * The keys merged into TERM2ID at the budget (every key the tree holds while it is built
     * bottom-up), so that a new term skips the tree; dropped once it would pass a quarter of the budget.
     */
    private MergedKeysFilter mergedKeys = new MergedKeysFilter();
    /** Lookups of keys in the tree that {@link #mergedKeys} made unnecessary. */
    private long treeLookupsSkipped;
    /** The Zstandard dictionary new values are compressed with, or null; looked up at the first new term. */
    private TermDictionary dictionary;
    private boolean dictionaryLooked;
    /** A dictionary this transaction trained, private until it commits; else null. */
    private TermDictionary newDictionary;
    /** Samples for a dictionary while the store has none; null when it has one or training was tried. */
    private TermDictionaryTraining training;
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
        this.added = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Value, Long> eldest) {
                return size() > limit;
            }
        };
        this.keyCacheSlots = Integer.highestOneBit(Math.max(limit, 1)) * 2;
        this.newPrefixes = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > limit;
            }
        };
    }

    @Override
    BTree prefixTree() {
        if (prefixTree == null && tx.hasTree(Lexicon.PREFIXES)) {
            prefixTree = tx.tree(Lexicon.PREFIXES);
        }
        return prefixTree;
    }

    @Override
    boolean isPrefixCommitted(int number) {
        return committedPrefixes < 0 || number <= committedPrefixes;
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
        if (bottomUp == null && termToId.isEmpty()) {
            bottomUp = new BottomUpTermIndex();
            bottomUpBudget = budgetBytes;
            if (spillDirectory != null && idToTerm.isEmpty()) {
                spilledValues = new SpilledTermValues(spillDirectory);
            }
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
        BottomUpTermIndex entries = bottomUp;
        SpilledTermValues values = spilledValues;
        bottomUp = null;
        spilledValues = null;
        mergedKeys = new MergedKeysFilter();
        if (entries == null) {
            if (values != null) {
                values.writeTo(idToTerm);
            }
            return;
        }
        if (values == null || !termToId.isEmpty()) {
            // a merge into TERM2ID (the budget was passed) frees the tree's previous pages: it goes
            // first, so that ID2TERM's pages fill that space rather than leave it free in the file
            entries.writeTo(termToId);
            if (values != null) {
                values.writeTo(idToTerm);
            }
            return;
        }
        // TERM2ID's keys are sorted on another thread while this one writes ID2TERM
        FutureTask<int[]> sort = new FutureTask<>(entries::sortedOrder);
        Thread sorter = new Thread(sort, "basalt-term-sort");
        sorter.setDaemon(true);
        sorter.start();
        try {
            values.writeTo(idToTerm);
        } catch (RuntimeException e) {
            sort.cancel(true);
            throw e;
        }
        entries.writeTo(termToId, sorted(sort));
    }

    private static int[] sorted(FutureTask<int[]> sort) {
        return TaskResults.await(sort, "sorting the dictionary's keys");
    }

    /** Drops the entries kept since {@link #startBottomUp(Path)} and closes their files; for a transaction that rolls back. */
    public void discardBottomUp() {
        bottomUp = null;
        mergedKeys = new MergedKeysFilter();
        if (spilledValues != null) {
            spilledValues.close();
            spilledValues = null;
        }
    }

    @Override
    byte[] storedValue(long id) {
        byte[] spilled = spilledValues == null ? null : spilledValues.get(id);
        return spilled != null ? spilled : super.storedValue(id);
    }

    @Override
    long find(byte[] fullKey, byte[] prefix) {
        if (bottomUp == null) {
            return super.find(fullKey, prefix);
        }
        if (prefix == null) {
            long id = bottomUp.get(fullKey);
            return id != TermIds.NULL || !mayBeMerged(fullKey) ? id : super.find(fullKey, null);
        }
        for (int ordinal = 0; ; ordinal++) {
            long id = bottomUpEntry(LargeTermKeys.withOrdinal(prefix, ordinal));
            if (id == TermIds.NULL || Arrays.equals(fullKey(id, storedValue(id)), fullKey)) {
                return id;
            }
        }
    }

    /**
     * While TERM2ID is built bottom-up: the id under a TERM2ID key, in memory or in the part of the
     * tree already merged ({@link #mergeBottomUp}); {@link TermIds#NULL} if neither has it.
     */
    private long bottomUpEntry(byte[] t2iKey) {
        long id = bottomUp.get(t2iKey);
        if (id == TermIds.NULL && mayBeMerged(t2iKey)) {
            byte[] v = termToId.get(t2iKey);
            id = v == null ? TermIds.NULL : Lexicon.getLong(v);
        }
        return id;
    }

    /** Whether TERM2ID, while it is built bottom-up, may hold {@code t2iKey} (false: it does not). */
    private boolean mayBeMerged(byte[] t2iKey) {
        if (termToId.isEmpty()) {
            return false;
        }
        if (mergedKeys.mightContain(t2iKey)) {
            return true;
        }
        treeLookupsSkipped++;
        return false;
    }

    /** Entries under a long term's {@link LargeTermKeys#prefix}: the ordinal of the next one. */
    private int ordinalsUnder(byte[] prefix) {
        if (bottomUp == null) {
            return Math.toIntExact(termToId.rangeCount(prefix, Lexicon.prefixEnd(prefix)));
        }
        int ordinal = 0;
        while (bottomUpEntry(LargeTermKeys.withOrdinal(prefix, ordinal)) != TermIds.NULL) {
            ordinal++;
        }
        return ordinal;
    }

    /** Lookups of new keys in TERM2ID that the filter of merged keys made unnecessary. */
    long treeLookupsSkipped() {
        return treeLookupsSkipped;
    }

    /** Times the in-memory TERM2ID entries were merged into the tree because they reached their budget. */
    int bottomUpMerges() {
        return bottomUpMerges;
    }

    /**
     * Whether the in-memory TERM2ID entries are due to be merged into the tree: their heap passes
     * the budget (the spilled ID2TERM values keep nothing per term in the heap).
     */
    private boolean bottomUpFull() {
        return bottomUp.bytes() + mergedKeys.bytes() > bottomUpBudget;
    }

    /**
     * Merges the in-memory TERM2ID entries into the tree bottom-up (one sequential rebuild of the
     * tree, {@link BTree#bulkMerge}) and goes on with an empty in-memory index: ids are still handed
     * out in the order terms come, TERM2ID's pages are full, and the heap the entries took is free.
     */
    private void mergeBottomUp() {
        BottomUpTermIndex entries = bottomUp;
        bottomUp = new BottomUpTermIndex();
        long t0 = System.nanoTime();
        int n = entries.size();
        if (mergedKeys.startMerge(n, bottomUpBudget / 4)) {
            entries.writeTo(termToId, mergedKeys::add);
        } else {
            entries.writeTo(termToId);
        }
        bottomUpMerges++;
        LOG.info("{} in-memory dictionary entries merged bottom-up into TERM2ID (now {} entries) in {} ms; {} tree"
                + " lookups of new keys skipped so far, merged-key filters {} bytes{}", n, termToId.size(),
                (System.nanoTime() - t0) / 1_000_000, treeLookupsSkipped, mergedKeys.bytes(),
                mergedKeys.dropped() ? " (dropped: past a quarter of the budget)" : "");
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
                int slot = keyCacheSlot(keys[i]);
                if (Arrays.equals(keyCacheKeys[slot], keys[i])) {
                    ids[i] = keyCacheIds[slot];
                } else {
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
        byte[] stored = TermValues.encode(key, this::internPrefix, dictionary());
        if (training != null && stored.length > TermCompression.DICTIONARY_THRESHOLD) {
            train(key);
        }
        if (spilledValues != null) {
            spilledValues.put(id, stored);
        } else {
            idToTerm.put(idKey(id), stored);
        }
        byte[] t2iKey = key;
        if (prefix != null) {
            t2iKey = LargeTermKeys.withOrdinal(prefix, ordinalsUnder(prefix));
        }
        if (bottomUp != null) {
            bottomUp.put(t2iKey, id);
            if (bottomUpFull()) {
                mergeBottomUp();
            }
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
                int slot = keyCacheSlot(key);
                keyCacheKeys[slot] = key;
                keyCacheIds[slot] = id;
            }
        } else if (isCommitted(id)) {
            lexicon.cache(value, id);
        } else {
            added.put(value, id);
        }
    }

    /** The number of a key's first {@code length} bytes as a key prefix, interned if new; 0 past {@link KeyPrefixes#LIMIT}. */
    private int internPrefix(byte[] key, int length) {
        String text = KeyPrefixes.text(key, length);
        Integer known = newPrefixes.get(text);
        if (known == null) {
            known = lexicon.prefixes().cachedNumber(text);
        }
        if (known != null) {
            return known;
        }
        BTree tree = tx.tree(Lexicon.PREFIXES);
        prefixTree = tree;
        if (committedPrefixes < 0) {
            committedPrefixes = KeyPrefixes.count(tree);
            nextPrefix = committedPrefixes + 1;
        }
        byte[] byBytes = KeyPrefixes.bytesKey(key, length);
        byte[] found = tree.get(byBytes);
        if (found != null) {
            int number = KeyPrefixes.number(found);
            if (number <= committedPrefixes) {
                lexicon.prefixes().cache(number, Arrays.copyOf(key, length));
            } else {
                newPrefixes.put(text, number);
            }
            return number;
        }
        if (nextPrefix > KeyPrefixes.LIMIT) {
            return 0;
        }
        int number = nextPrefix++;
        tree.put(KeyPrefixes.numberKey(number), Arrays.copyOf(key, length));
        tree.put(byBytes, KeyPrefixes.numberBytes(number));
        newPrefixes.put(text, number);
        return number;
    }

    /**
     * The dictionary to compress a new term's key with: the store's newest, or the one this
     * transaction trained, or null (then {@link #training} collects samples if the store has none).
     */
    private TermDictionary dictionary() {
        if (!dictionaryLooked) {
            dictionaryLooked = true;
            BTree tree = prefixTree();
            int number = TermDictionary.latestNumber(tree);
            if (number > 0) {
                dictionary = lexicon.dictionaries().get(number, tree, TermIds.NULL);
            } else {
                training = new TermDictionaryTraining(lexicon.config().dictionarySampleBytes());
            }
        }
        return dictionary;
    }

    /**
     * Offers the key of a new term whose stored form is long enough to gain from a dictionary as a
     * sample; once there are enough, trains the store's first dictionary and stores it, so the
     * terms after it are compressed with it ({@link TermDictionaryTraining}).
     */
    private void train(byte[] key) {
        if (!training.offer(key)) {
            return;
        }
        byte[] bytes = training.train();
        training = null;
        if (bytes != null) {
            BTree tree = tx.tree(Lexicon.PREFIXES);
            prefixTree = tree;
            newDictionary = new TermDictionary(TermDictionary.latestNumber(tree) + 1, bytes);
            tree.put(TermDictionary.key(newDictionary.number), bytes);
            tx.setProperty(Lexicon.FORMAT_PROPERTY, new byte[] { (byte) TermIds.FORMAT_VERSION });
            dictionary = newDictionary;
        }
    }

    @Override
    TermDictionary dictionary(int number, long id) {
        return newDictionary != null && number == newDictionary.number ? newDictionary : super.dictionary(number, id);
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
        for (Map.Entry<Value, Long> e : added.entrySet()) {
            lexicon.cache(e.getKey(), e.getValue());
        }
        added.clear();
        if (keyCacheKeys != null) {
            Arrays.fill(keyCacheKeys, null);
        }
        for (Map.Entry<String, Integer> e : newPrefixes.entrySet()) {
            lexicon.prefixes().cache(e.getValue(), e.getKey().getBytes(StandardCharsets.ISO_8859_1));
        }
        newPrefixes.clear();
        if (newDictionary != null) {
            lexicon.dictionaries().cache(newDictionary);
            newDictionary = null;
        }
    }

    private int keyCacheSlot(byte[] key) {
        if (keyCacheKeys == null) {
            keyCacheKeys = new byte[keyCacheSlots][];
            keyCacheIds = new long[keyCacheSlots];
        }
        int h = Arrays.hashCode(key);
        return (h ^ (h >>> 16)) & (keyCacheSlots - 1);
    }

    /** Dictionary term counts including this transaction's additions. */
    public LexiconCounts counts() {
        return LexiconCounts.of(allocator);
    }
}
