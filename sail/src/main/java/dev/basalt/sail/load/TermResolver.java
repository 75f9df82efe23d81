package dev.basalt.sail.load;

import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.lexicon.TermIds;

/**
 * Turns a batch of statements into quads of term ids: the batch's distinct terms are resolved
 * (and new ones added to the dictionary) in one {@link LexiconWriter#getOrCreateAll} call with the
 * encodings the parser threads computed, which looks up and inserts the misses in key order; then each statement's quad is put together from
 * its references. Runs on the loading thread, the lexicon writer's only user.
 */
final class TermResolver {
    private final LexiconWriter lexicon;
    private final long[] quad = new long[4];

    TermResolver(LexiconWriter lexicon) {
        this.lexicon = lexicon;
    }

    void resolve(TermBatch batch, QuadSorter sink) {
        long[] ids = lexicon.getOrCreateAll(batch.terms(), batch.inline(), batch.keys(), batch.largePrefixes());
        int[] refs = batch.refs();
        for (int s = 0; s < batch.size(); s++) {
            int at = 4 * s;
            quad[0] = ids[refs[at]];
            quad[1] = ids[refs[at + 1]];
            quad[2] = ids[refs[at + 2]];
            int c = refs[at + 3];
            quad[3] = c == TermBatch.DEFAULT_GRAPH ? TermIds.DEFAULT_GRAPH : ids[c];
            sink.add(quad);
        }
    }
}
