package dev.basalt.store.lexicon;

import dev.basalt.store.btree.BTree;

/**
 * The dictionary as of one committed commit point (see {@link Lexicon#reader}). Everything it
 * reads is committed, so every mapping it finds may enter the shared caches. Thread-safe as long
 * as its snapshot is open.
 */
public final class LexiconReader extends LexiconView {
    private final BTree prefixes;

    LexiconReader(Lexicon lexicon, BTree termToId, BTree idToTerm, BTree prefixes) {
        super(lexicon, termToId, idToTerm);
        this.prefixes = prefixes;
    }

    @Override
    boolean isCommitted(long id) {
        return true;
    }

    @Override
    BTree prefixTree() {
        return prefixes;
    }

    @Override
    boolean isPrefixCommitted(int number) {
        return true;
    }
}
