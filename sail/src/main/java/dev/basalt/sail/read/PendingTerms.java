package dev.basalt.sail.read;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;

import dev.basalt.store.lexicon.LexiconReader;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.lexicon.TermKind;

/**
 * Term ids for the values of an open transaction: a term the store's dictionary holds keeps its id
 * (the lexicon of a commit point, which contains every term of older ones); any other term gets a
 * transaction-pending id of its own kind ({@link TermIds#FIRST_PENDING_COUNTER}), so
 * {@link #lookup} never answers 0, and {@link #resolve} turns both back into values.
 *
 * <p>Not thread-safe: one per query or preview of one transaction, used by its thread.
 */
public final class PendingTerms {
    private final LexiconReader lexicon;
    private final ValueFactory vf;
    private final Map<Value, Long> ids = new HashMap<>();
    private final List<Value> pending = new ArrayList<>();

    public PendingTerms(LexiconReader lexicon, ValueFactory vf) {
        this.lexicon = lexicon;
        this.vf = vf;
    }

    public long lookup(Value value) {
        Long known = ids.get(value);
        if (known != null) {
            return known;
        }
        long id = lexicon.lookup(value);
        if (id == TermIds.NULL) {
            id = TermIds.make(kindOf(value).code(), TermIds.FIRST_PENDING_COUNTER + pending.size());
            pending.add(value);
        }
        ids.put(value, id);
        return id;
    }

    private static TermKind kindOf(Value v) {
        if (v.isIRI()) {
            return TermKind.IRI;
        }
        if (v.isBNode()) {
            return TermKind.BLANK_NODE;
        }
        return v.isTriple() ? TermKind.TRIPLE : TermKind.LITERAL;
    }

    public Value[] resolve(long[] idArray) {
        long[] stored = idArray.clone();
        boolean anyPending = false;
        for (int i = 0; i < stored.length; i++) {
            if (TermIds.isPending(stored[i])) {
                stored[i] = TermIds.NULL;
                anyPending = true;
            }
        }
        Value[] out = lexicon.resolveAll(stored, vf);
        if (anyPending) {
            for (int i = 0; i < idArray.length; i++) {
                if (TermIds.isPending(idArray[i])) {
                    out[i] = pending.get((int) (TermIds.payload(idArray[i]) - TermIds.FIRST_PENDING_COUNTER));
                }
            }
        }
        return out;
    }
}
