package dev.basalt.store.lexicon;

/**
 * How many dictionary terms of each kind a commit point holds. Dictionary terms are never
 * deleted and ids never reused, so these are the {@link TermIdAllocator} counters: exact and
 * read in constant time. Inline literals are not counted (they have no dictionary entry).
 *
 * <p>Immutable; safe to share between threads.
 */
public record LexiconCounts(long iris, long literals, long blankNodes, long triples) {
    public static final LexiconCounts EMPTY = new LexiconCounts(0, 0, 0, 0);

    static LexiconCounts of(TermIdAllocator a) {
        return new LexiconCounts(a.allocated(TermKind.IRI), a.allocated(TermKind.LITERAL),
                a.allocated(TermKind.BLANK_NODE), a.allocated(TermKind.TRIPLE));
    }

    public long total() {
        return iris + literals + blankNodes + triples;
    }
}
