package dev.basalt.store.lexicon;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.journal.StoreException;

/**
 * Reading the dictionary of one state of the store: term → id through TERM2ID, id → term through
 * ID2TERM, with the {@link Lexicon}'s shared caches in front. Inline values never touch the trees.
 * A subclass says which ids are committed and so may enter the shared caches.
 *
 * <p>ID2TERM holds each term's key in its {@link TermValues} form (whole, after an interned
 * prefix, or compressed, with or without a trained dictionary); {@link #fullKey} restores it. Large terms (full key over
 * {@link LargeTermKeys#THRESHOLD}) follow the collision protocol of {@link LargeTermKeys}: every
 * TERM2ID entry under the digest prefix is checked against the full key restored from ID2TERM.
 *
 * <p>Threads: those of its subclass, which are those of its trees: a committed
 * {@link LexiconReader} may be used by any number of threads while its snapshot is open; a
 * {@link LexiconWriter} and a reader of the open transaction by one thread at a time. The
 * {@link Lexicon}'s caches in front are thread-safe.
 */
abstract class LexiconView {
    final Lexicon lexicon;
    final BTree termToId;
    final BTree idToTerm;

    LexiconView(Lexicon lexicon, BTree termToId, BTree idToTerm) {
        this.lexicon = lexicon;
        this.termToId = termToId;
        this.idToTerm = idToTerm;
    }

    /** True if {@code id} belongs to a committed commit point, so caching it is safe for every reader. */
    abstract boolean isCommitted(long id);

    /** The key prefix tree of this state, or null if it has none. */
    abstract BTree prefixTree();

    /** True if key prefix {@code number} is committed, so caching it is safe for every reader. */
    abstract boolean isPrefixCommitted(int number);

    /** The id of a term, or {@link TermIds#NULL} if this state does not know it. */
    public long lookup(Value value) {
        long inline = InlineValues.encode(value);
        if (inline != TermIds.NULL) {
            return inline;
        }
        Long cached = lexicon.cachedId(value);
        if (cached != null) {
            return cached;
        }
        byte[] key = keyOf(value, false);
        if (key == null) {
            return TermIds.NULL;
        }
        long id = find(key);
        if (id != TermIds.NULL && isCommitted(id)) {
            lexicon.cache(value, id);
        }
        return id;
    }

    /**
     * Ids of many terms, {@link TermIds#NULL} for unknown ones. Terms not found in the caches are
     * looked up in key order, so a batch touches each TERM2ID page once.
     */
    public long[] lookupAll(List<? extends Value> values) {
        long[] ids = new long[values.size()];
        List<Integer> misses = new ArrayList<>();
        byte[][] keys = new byte[values.size()][];
        for (int i = 0; i < ids.length; i++) {
            Value v = values.get(i);
            long inline = InlineValues.encode(v);
            Long cached = inline != TermIds.NULL ? Long.valueOf(inline) : lexicon.cachedId(v);
            if (cached != null) {
                ids[i] = cached;
            } else if (v instanceof Triple) {
                ids[i] = lookup(v);
            } else {
                keys[i] = TermKeys.encode(v);
                misses.add(i);
            }
        }
        misses.sort(Comparator.comparing((Integer i) -> keys[i], Arrays::compareUnsigned));
        for (int i : misses) {
            long id = find(keys[i]);
            ids[i] = id;
            if (id != TermIds.NULL && isCommitted(id)) {
                lexicon.cache(values.get(i), id);
            }
        }
        return ids;
    }

    /**
     * The term of an id. {@link TermIds#NULL} and {@link TermIds#DEFAULT_GRAPH} resolve to null
     * (no term; the default graph is RDF4J's null context). An unknown dictionary id is an error:
     * ids only come from this store's indices.
     */
    public Value resolve(long id, ValueFactory vf) {
        if (id == TermIds.NULL || id == TermIds.DEFAULT_GRAPH) {
            return null;
        }
        if (InlineValues.isInline(id)) {
            return InlineValues.decode(id, vf);
        }
        Value cached = lexicon.cachedValue(id);
        return cached != null ? cached : resolveStored(id, vf);
    }

    /**
     * A dictionary term that is not in the cache: read from ID2TERM, decoded, cached if committed. Apart from
     * {@link #resolve}, whose cache path is what runs once the cache is warm, so that its compiled form stays small.
     */
    private Value resolveStored(long id, ValueFactory vf) {
        return decodeStored(id, storedValue(id), vf);
    }

    /** The term of dictionary id {@code id} from its ID2TERM value {@code stored} (null: none, an error), cached if committed. */
    private Value decodeStored(long id, byte[] stored, ValueFactory vf) {
        if (stored == null) {
            throw new StoreException("term id " + TermIds.describe(id) + " is not in the dictionary (ID2TERM tree '"
                    + Lexicon.ID_TO_TERM + "'); the statement indices and the lexicon disagree");
        }
        Value value = TermKeys.decode(fullKey(id, stored), vf, component -> resolve(component, vf));
        if (isCommitted(id)) {
            lexicon.cacheValue(id, value);
        }
        return value;
    }

    /**
     * The identity of the id space this view reads: the same object for every view of one open store's lexicon, whose
     * committed ids each name one term for as long as it is open (ids are never given to another term). A cache of
     * what is derived from committed terms by id (the HTTP route's encoded terms) is kept per term space.
     */
    public Object termSpace() {
        return lexicon;
    }

    /**
     * Terms of many ids (null for NULL and DEFAULT_GRAPH), index-aligned. A batch repeats ids (a
     * result column repeating a subject or a label, a predicate shared by a subject's statements):
     * each distinct id is resolved once, with one cache probe, and its value shared; uncached terms
     * are read in id order through one cursor ({@link #storedValues}), where neighbouring ids share
     * dictionary pages.
     */
    public Value[] resolveAll(long[] ids, ValueFactory vf) {
        long[] distinct = ids.clone();
        Arrays.sort(distinct);
        int n = 0;
        for (long id : distinct) {
            if (n == 0 || id != distinct[n - 1]) {
                distinct[n++] = id;
            }
        }
        Value[] values = new Value[n];
        long[] missing = null;
        int[] missAt = null;
        int misses = 0;
        for (int k = 0; k < n; k++) {
            long id = distinct[k];
            if (id == TermIds.NULL || id == TermIds.DEFAULT_GRAPH) {
                continue;
            }
            Value v = InlineValues.isInline(id) ? InlineValues.decode(id, vf) : lexicon.cachedValue(id);
            if (v == null) {
                if (missing == null) {
                    missing = new long[n - k];
                    missAt = new int[n - k];
                }
                missing[misses] = id;
                missAt[misses++] = k;
            }
            values[k] = v;
        }
        if (misses == 1) {
            values[missAt[0]] = resolveStored(missing[0], vf);
        } else if (misses > 1) {
            byte[][] stored = storedValues(missing, misses);
            for (int m = 0; m < misses; m++) {
                values[missAt[m]] = decodeStored(missing[m], stored[m], vf);
            }
        }
        Value[] out = new Value[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = values[Arrays.binarySearch(distinct, 0, n, ids[i])];
        }
        return out;
    }

    /**
     * Ids of the triple terms in the dictionary whose subject (if not NULL) matches, in key
     * order. With a subject this is a prefix scan of TERM2ID; without, a scan of every triple term.
     */
    public List<long[]> tripleTerms(long subject) {
        List<long[]> out = new ArrayList<>();
        if (termToId == null) {
            return out;
        }
        byte[] from = subject == TermIds.NULL ? new byte[] { TermKeys.TRIPLE }
                : Arrays.copyOf(TermKeys.encodeTriple(subject, 0, 0), 9);
        BTreeCursor c = termToId.cursor(from, Lexicon.prefixEnd(from));
        while (c.next()) {
            long[] spo = TermKeys.tripleIds(c.key());
            out.add(new long[] { spo[0], spo[1], spo[2], Lexicon.getLong(c.value()) });
        }
        return out;
    }

    /** The dictionary key of a term, or null if a component of a triple term is unknown (reading only). */
    byte[] keyOf(Value value, boolean create) {
        if (value instanceof Triple t) {
            long s = idFor(t.getSubject(), create);
            long p = idFor(t.getPredicate(), create);
            long o = idFor(t.getObject(), create);
            if (s == TermIds.NULL || p == TermIds.NULL || o == TermIds.NULL) {
                return null;
            }
            return TermKeys.encodeTriple(s, p, o);
        }
        return TermKeys.encode(value);
    }

    long idFor(Value component, boolean create) {
        return lookup(component);
    }

    /** The id stored for a full term key, following the large-key collision protocol. */
    long find(byte[] fullKey) {
        return find(fullKey, LargeTermKeys.isLarge(fullKey) ? LargeTermKeys.prefix(fullKey) : null);
    }

    /** {@link #find(byte[])} with the key's {@link LargeTermKeys#prefix} already computed (null for a short key). */
    long find(byte[] fullKey, byte[] prefix) {
        if (termToId == null) {
            return TermIds.NULL;
        }
        if (prefix == null) {
            byte[] v = termToId.get(fullKey);
            return v == null ? TermIds.NULL : Lexicon.getLong(v);
        }
        BTreeCursor c = termToId.cursor(prefix, Lexicon.prefixEnd(prefix));
        while (c.next()) {
            long id = Lexicon.getLong(c.value());
            byte[] stored = storedValue(id);
            if (stored == null) {
                throw new StoreException("TERM2ID entry for large term id " + TermIds.describe(id)
                        + " has no ID2TERM entry; the lexicon trees disagree");
            }
            if (Arrays.equals(fullKey(id, stored), fullKey)) {
                return id;
            }
        }
        return TermIds.NULL;
    }

    /** The full term key of a stored ID2TERM value of term {@code id}. */
    byte[] fullKey(long id, byte[] stored) {
        return TermValues.decode(stored, id,
                number -> lexicon.prefixes().bytes(number, prefixTree(), isPrefixCommitted(number), id),
                number -> dictionary(number, id));
    }

    /** Zstandard dictionary {@code number} of this state; {@code id} names the term being decoded in errors. */
    TermDictionary dictionary(int number, long id) {
        return lexicon.dictionaries().get(number, prefixTree(), id);
    }

    /** The ID2TERM value of a dictionary id, or null if it has none. */
    byte[] storedValue(long id) {
        return idToTerm == null ? null : idToTerm.get(idKey(id));
    }

    /** Entries a batch read steps over to reach the next id before it repositions its cursor instead. */
    private static final int STEP_AHEAD = 8;

    /**
     * The ID2TERM values of {@code ids[0, n)} (dictionary ids, best in ascending order), index-aligned, null for an id
     * without one: what as many {@link #storedValue} calls give, read through one cursor. The ids a batch misses in the cache
     * are mostly neighbours (the subjects of one description, a result's column of terms loaded together), so the
     * cursor steps to the next id within a few entries and otherwise repositions from the path it holds (finger
     * search, {@link BTreeCursor#reset}), where each {@link #storedValue} descends from the root.
     */
    byte[][] storedValues(long[] ids, int n) {
        byte[][] out = new byte[n][];
        if (idToTerm == null || n == 0) {
            return out;
        }
        BTreeCursor c = idToTerm.cursor(idKey(ids[0]), null);
        boolean on = c.next();
        long at = on ? TermKeys.getLong(c.keyView(), 0) : TermIds.NULL;
        for (int i = 0; i < n; i++) {
            long id = ids[i];
            for (int step = 0; on && Long.compareUnsigned(at, id) < 0 && step < STEP_AHEAD; step++) {
                on = c.next();
                at = on ? TermKeys.getLong(c.keyView(), 0) : TermIds.NULL;
            }
            if (!on || at != id) {
                c.reset(idKey(id), null);
                on = c.next();
                at = on ? TermKeys.getLong(c.keyView(), 0) : TermIds.NULL;
            }
            out[i] = on && at == id ? c.value() : null;
        }
        return out;
    }

    static byte[] idKey(long id) {
        byte[] k = new byte[8];
        TermKeys.putLong(k, 0, id);
        return k;
    }
}
