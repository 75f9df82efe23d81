package dev.basalt.sail.read;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.eclipse.rdf4j.sail.SailException;

import dev.basalt.store.Snapshot;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconReader;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;
import dev.basalt.store.spatial.SpatialIndex;

/**
 * Everything a reader needs of one state of the store: the snapshot, its dictionary, the
 * statement indices of both sets and its other trees (the namespace table).
 *
 * <p>A view of a commit point is immutable and shareable between threads while its snapshot is
 * open; the {@link ReadSource} that handed it out decides when the snapshot closes.
 *
 * <p>A <em>live</em> view ({@link #live()} not null) reads the store's open write transaction as a
 * large transaction ({@code WriteThroughTransaction}) has written it so far, over the commit point
 * that transaction builds on ({@link #snapshot()}). Its trees change when that transaction writes
 * again; a reader that keeps a cursor between calls registers with {@link LiveTransaction#track} to be
 * told before that happens. Once the transaction has ended the view is unreadable
 * ({@link #ensureReadable()}).
 */
public final class ReadView {
    private final Snapshot snapshot;
    private final LexiconReader lexicon;
    private final Map<StatementSet, QuadIndexes> quads;
    private final Function<String, BTree> trees;
    private final LiveTransaction live;
    /** The spatial index of a committed view, made on first use; see {@link #spatialIndex}. */
    private volatile SnapshotSpatialIndex spatial;

    public ReadView(Snapshot snapshot, Lexicon lexicon, List<QuadOrder> orders) {
        this.snapshot = snapshot;
        this.lexicon = lexicon.reader(snapshot);
        this.quads = new EnumMap<>(StatementSet.class);
        for (StatementSet set : StatementSet.values()) {
            quads.put(set, new QuadIndexes(orders, o -> snapshot.tree(set.treeName(o)),
                    set.defaultGraphOnly(snapshot::property)));
        }
        this.trees = snapshot::tree;
        this.live = null;
    }

    /**
     * A live view of a write transaction.
     *
     * @param base  the commit point the transaction builds on
     * @param trees the transaction's trees by name (null for one that does not exist)
     * @param live  the transaction's reads
     */
    public ReadView(Snapshot base, LexiconReader lexicon, Map<StatementSet, QuadIndexes> quads, Function<String, BTree> trees,
            LiveTransaction live) {
        this.snapshot = base;
        this.lexicon = lexicon;
        this.quads = new EnumMap<>(quads);
        this.trees = trees;
        this.live = live;
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    /**
     * The spatial index of a committed view whose index covers its dictionary, kept with the view;
     * null for a live view (its transaction's entries are not final until commit) and a stale index.
     */
    public SnapshotSpatialIndex spatialIndex() {
        SnapshotSpatialIndex s = spatial;
        if (s == null && live == null) {
            BTree tree = tree(SpatialIndex.TREE);
            if (tree != null && SpatialIndex.isCurrent(snapshot.property(SpatialIndex.PROPERTY),
                    snapshot.property(Lexicon.ALLOCATOR_PROPERTY))) {
                s = new SnapshotSpatialIndex(this, tree);
                spatial = s;
            }
        }
        return s;
    }

    public LexiconReader lexicon() {
        return lexicon;
    }

    public QuadIndexes quads(StatementSet set) {
        return quads.get(set);
    }

    /** The tree {@code name} of this state, or null if it has none. */
    BTree tree(String name) {
        return trees.apply(name);
    }

    /** The namespace table, or null if there is none. */
    BTree namespaces() {
        return tree(NamespaceTable.TREE);
    }

    public long commitCounter() {
        return snapshot.commit().counter();
    }

    /** The reads of the large transaction this live view shows, or null for a commit point. */
    LiveTransaction live() {
        return live;
    }

    /** Refuses to read a live view whose transaction has ended. */
    void ensureReadable() {
        if (live != null && live.isEnded()) {
            throw new SailException("this iteration read a large transaction of a Basalt store that has since been "
                    + "committed or rolled back; read it before the transaction ends, or open a new iteration");
        }
    }
}
