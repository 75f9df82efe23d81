package dev.basalt.sail;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.basalt.store.Snapshot;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconReader;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;

/**
 * Everything a reader needs of one commit point: the snapshot, its dictionary and the statement
 * indices of both sets. Immutable and shareable between threads while its snapshot is open; the
 * {@link ReadSource} that handed it out decides when the snapshot closes.
 */
final class ReadView {
    private final Snapshot snapshot;
    private final LexiconReader lexicon;
    private final Map<StatementSet, QuadIndexes> quads = new EnumMap<>(StatementSet.class);

    ReadView(Snapshot snapshot, Lexicon lexicon, List<QuadOrder> orders) {
        this.snapshot = snapshot;
        this.lexicon = lexicon.reader(snapshot);
        for (StatementSet set : StatementSet.values()) {
            quads.put(set, new QuadIndexes(orders, o -> snapshot.tree(set.treeName(o))));
        }
    }

    Snapshot snapshot() {
        return snapshot;
    }

    LexiconReader lexicon() {
        return lexicon;
    }

    QuadIndexes quads(StatementSet set) {
        return quads.get(set);
    }

    long commitCounter() {
        return snapshot.commit().counter();
    }
}
