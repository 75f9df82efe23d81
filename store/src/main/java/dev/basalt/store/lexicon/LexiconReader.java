package dev.basalt.store.lexicon;

import java.util.function.BooleanSupplier;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;

/**
 * The dictionary as of one committed commit point (see {@link Lexicon#reader(dev.basalt.store.Snapshot)}).
 * Everything it reads is committed, so every mapping it finds may enter the shared caches.
 * Thread-safe as long as its snapshot is open.
 *
 * <p>A reader of the open write transaction ({@link Lexicon#reader(LexiconWriter)}) also sees the
 * terms the transaction added; only the committed ones enter the shared caches. It reads the
 * transaction's trees, so like the transaction it must not be used while that transaction writes.
 */
public final class LexiconReader extends LexiconView {
    private final BTree prefixes;
    /** The writer whose transaction this reader reads, or null for a committed snapshot. */
    private final LexiconWriter uncommitted;

    LexiconReader(Lexicon lexicon, BTree termToId, BTree idToTerm, BTree prefixes) {
        this(lexicon, termToId, idToTerm, prefixes, null);
    }

    LexiconReader(Lexicon lexicon, BTree termToId, BTree idToTerm, BTree prefixes, LexiconWriter uncommitted) {
        super(lexicon, termToId, idToTerm);
        this.prefixes = prefixes;
        this.uncommitted = uncommitted;
    }

    /**
     * The lexicon's cache of values derived by {@code function} ({@link Lexicon#derivedCache}) for a
     * reader of a committed snapshot, whose ids are all committed; null for a reader of a write
     * transaction.
     */
    public DerivedCache derivedCache(Object function) {
        return uncommitted == null ? lexicon.derivedCache(function) : null;
    }

    /**
     * The lexicon's table of numbers derived by {@code function} ({@link Lexicon#derivedNumbers}) for
     * a reader of a committed snapshot; null for a reader of a write transaction.
     */
    public DerivedNumbers derivedNumbers(Object function) {
        return uncommitted == null ? lexicon.derivedNumbers(function) : null;
    }

    /**
     * Reads the dictionary's terms in id order into the lexicon's id → value cache, at most {@code max} of them
     * (those it holds already count), until {@code stop} says so (checked every 1,024 terms): results and
     * ORDER BY keys then find their values cached from the first query. Returns the terms read. Only for a
     * reader of a committed snapshot, whose terms may all enter the shared cache.
     */
    public long prewarmValues(long max, ValueFactory vf, BooleanSupplier stop) {
        if (uncommitted != null) {
            throw new IllegalStateException("only a reader of a committed snapshot fills the shared value cache");
        }
        long read = 0;
        if (idToTerm == null) {
            return read;
        }
        BTreeCursor c = idToTerm.cursor(null, null);
        while (read < max && ((read & 1023) != 0 || !stop.getAsBoolean()) && c.next()) {
            long id = TermKeys.getLong(c.key(), 0);
            if (lexicon.cachedValue(id) == null) {
                Value value = TermKeys.decode(fullKey(id, c.value()), vf, component -> resolve(component, vf));
                lexicon.cacheValue(id, value);
            }
            read++;
        }
        return read;
    }

    @Override
    boolean isCommitted(long id) {
        return uncommitted == null || uncommitted.isCommitted(id);
    }

    @Override
    BTree prefixTree() {
        return uncommitted != null ? uncommitted.prefixTree() : prefixes;
    }

    @Override
    TermDictionary dictionary(int number, long id) {
        return uncommitted != null ? uncommitted.dictionary(number, id) : super.dictionary(number, id);
    }

    @Override
    boolean isPrefixCommitted(int number) {
        return uncommitted == null || uncommitted.isPrefixCommitted(number);
    }
}
