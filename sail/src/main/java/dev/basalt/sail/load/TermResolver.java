package dev.basalt.sail.load;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.lexicon.TermIds;

/**
 * Turns a batch of statements into quads of term ids: every term of the batch is resolved (and
 * new ones added to the dictionary) in one {@link LexiconWriter#getOrCreateAll} call, which looks
 * up and inserts the misses in key order. A statement without a context goes to the load's target
 * context if one is set, else to the default graph; a target context replaces every context.
 */
final class TermResolver {
    private final LexiconWriter lexicon;
    private final Resource target;
    private final long[] quad = new long[4];

    TermResolver(LexiconWriter lexicon, Resource target) {
        this.lexicon = lexicon;
        this.target = target;
    }

    void resolve(List<Statement> batch, QuadSorter sink) {
        List<Value> terms = new ArrayList<>(batch.size() * 4);
        for (Statement st : batch) {
            terms.add(st.getSubject());
            terms.add(st.getPredicate());
            terms.add(st.getObject());
            Resource c = target != null ? target : st.getContext();
            if (c != null) {
                terms.add(c);
            }
        }
        long[] ids = lexicon.getOrCreateAll(terms);
        int k = 0;
        for (Statement st : batch) {
            quad[0] = ids[k++];
            quad[1] = ids[k++];
            quad[2] = ids[k++];
            quad[3] = (target != null || st.getContext() != null) ? ids[k++] : TermIds.DEFAULT_GRAPH;
            sink.add(quad);
        }
    }
}
