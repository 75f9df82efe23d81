package dev.basalt.store.lexicon;


import dev.basalt.store.btree.BTree;

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
