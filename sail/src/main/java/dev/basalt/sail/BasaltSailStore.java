package dev.basalt.sail;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.SailStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;
import dev.basalt.sail.inference.Reasoner;
import dev.basalt.store.OnlineCompactor;
import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.journal.StoreException;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.lexicon.LexiconReader;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;
import dev.basalt.store.spatial.SpatialIndex;
import dev.basalt.sail.ops.CompactionPolicy;
import dev.basalt.sail.ops.StorePrewarm;
import dev.basalt.sail.read.LatestSnapshots;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.ReadView;
import dev.basalt.sail.read.StatementSet;
import dev.basalt.sail.write.StoreWriter;

/**
 * The backing {@link SailStore} of a {@link BasaltStore}: one {@link Store} journal holding the
 * lexicon, the statement indices of the explicit and inferred sets and the namespaces. Reads go
 * to the newest commit point ({@link LatestSnapshots}); writes go through one {@link StoreWriter}.
 * {@link IsolatingSailStore} wraps it to give connections their isolation.
 *
 * <p>The statement index orders are fixed when the store is created and recorded in the
 * property {@value #INDEXES_PROPERTY}; opening with a configuration that names other orders is
 * refused (see {@link #open}).
 *
 * <p>Thread-safe: shared by every connection of the store; reads lease views from the synchronized {@link
 * LatestSnapshots} and the synchronized {@link StoreWriter} serializes the writes.
 */
final class BasaltSailStore extends SailStoreBase {
    static final String INDEXES_PROPERTY = "sail.indexes";
    /** The rule set the inferred statements are closed under (absent: none); docs/FORMAT.md 5.1. */
    static final String INFERENCE_PROPERTY = "sail.inference";

    private static final Logger LOG = LoggerFactory.getLogger(BasaltSailStore.class);
    private final Store store;
    private final Lexicon lexicon;
    private final List<QuadOrder> orders;
    private final LatestSnapshots latest;
    private final StoreWriter writer;
    /** The store's reasoner, or null when it keeps no closure. */
    private final Reasoner reasoner;
    /** Serializes online compactions (operator-started and automatic ones). */
    private final Object compaction = new Object();
    private final CompactionPolicy policy;
    /** What the store read into its caches when it opened, or null if it did not ({@link StorePrewarm}). */
    private StorePrewarm.Outcome prewarmed;

    private BasaltSailStore(Store store, Lexicon lexicon, List<QuadOrder> orders, Reasoner reasoner, int compactFreePercent) {
        this(store, lexicon, List.copyOf(orders), new LatestSnapshots(store, lexicon, List.copyOf(orders)), reasoner,
                compactFreePercent);
    }

    private BasaltSailStore(Store store, Lexicon lexicon, List<QuadOrder> orders, LatestSnapshots latest,
            Reasoner reasoner, int compactFreePercent) {
        super(SimpleValueFactory.getInstance(), latest);
        this.store = store;
        this.lexicon = lexicon;
        this.orders = orders;
        this.reasoner = reasoner;
        this.latest = latest;
        this.policy = new CompactionPolicy(store, compactFreePercent, this::compactOnline);
        this.writer = new StoreWriter(store, lexicon, this.orders, () -> {
            latest.invalidate();
            policy.afterCommit();
        }, reasoner);
        statementSets(latest, writer);
    }

    /**
     * Reads a sample of the store's pages and terms as cache misses read them, without caching them
     * ({@link StorePrewarm#rehearseMisses}): for a server, after its warm-ups.
     */
    StorePrewarm.Rehearsal rehearseMisses(Path journal) {
        return StorePrewarm.rehearseMisses(journal, store, lexicon, getValueFactory());
    }

    /** What the store read into its caches when it opened, or null when its prewarm was off. */
    StorePrewarm.Outcome prewarmed() {
        return prewarmed;
    }

    /** The reasoner that keeps the store's closure, or null when the store keeps none. */
    Reasoner reasoner() {
        return reasoner;
    }

    /** Opens (or creates) the store in {@code journal} and checks the statement index orders. */
    static BasaltSailStore open(Path journal, BasaltStoreConfig config) {
        StoreConfig storeConfig = config.toStoreConfig();
        Store store = Store.open(journal, storeConfig);
        try {
            try (Snapshot s = store.snapshot()) {
                Lexicon.requireReadable(s);
                StatementSet.requireLayout(s.property(StatementSet.LAYOUT_PROPERTY));
            } catch (StoreException e) {
                throw new StoreException(journal + ": " + e.getMessage(), e);
            }
            requireJournalMode(store, journal, config);
            List<QuadOrder> orders = indexOrders(store, journal, config);
            InferenceMode mode = config.getInference();
            Reasoner reasoner = mode == InferenceMode.NONE ? null : new Reasoner(mode);
            Lexicon lexicon = new Lexicon(config.toLexiconConfig());
            buildSpatialIndex(store, lexicon, journal);
            BasaltSailStore sail = new BasaltSailStore(store, lexicon, orders, reasoner,
                    config.getCompactFreePercent());
            sail.reconcileInference(journal, reasoner);
            if (StorePrewarm.enabled(config.getPrewarm(), System.getProperty(StorePrewarm.PROPERTY))) {
                sail.prewarmed = StorePrewarm.run(journal, store, storeConfig.pageCacheBytes(), lexicon,
                        sail.getValueFactory());
            }
            return sail;
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    /** Refuses a configuration that names another journal mode than the file was created with. */
    private static void requireJournalMode(Store store, Path journal, BasaltStoreConfig config) {
        JournalMode mode = store.stats().journal().mode();
        if (config.isJournalModeSet() && config.getJournalMode() != mode) {
            throw new SailException("the Basalt store " + journal + " was created in journal mode " + mode
                    + ", but the configuration asks for " + config.getJournalMode() + ". The journal mode is fixed"
                    + " when a store is created: set journalMode to '" + mode + "' or leave it unset, or export the"
                    + " data and load it into a new store");
        }
    }

    /**
     * Makes the inferred statements match the configured rule set when the store was closed under
     * another one (or none): recomputes the closure, or, when inference is turned off, removes the
     * inferred statements the reasoner had written. One commit; nothing when they already match.
     */
    private void reconcileInference(Path journal, Reasoner reasoner) {
        String stored;
        try (Snapshot s = store.snapshot()) {
            byte[] b = s.property(INFERENCE_PROPERTY);
            stored = b == null ? InferenceMode.NONE.label() : new String(b, StandardCharsets.UTF_8);
        }
        String wanted = reasoner == null ? InferenceMode.NONE.label() : reasoner.mode().label();
        if (stored.equals(wanted)) {
            return;
        }
        LOG.info("{}: the inferred statements were closed under '{}', the configuration asks for '{}': {}", journal,
                stored, wanted, reasoner == null ? "removing them" : "computing the closure");
        Object group = new Object();
        writer.beginGroup(group);
        boolean written = false;
        try {
            writer.write(session -> {
                if (reasoner != null) {
                    session.closeFully(reasoner);
                } else {
                    session.clear(StatementSet.INFERRED);
                }
                session.setProperty(INFERENCE_PROPERTY, wanted.getBytes(StandardCharsets.UTF_8));
            });
            written = true;
        } finally {
            writer.endGroup(group, written);
        }
    }

    /**
     * Builds the spatial index of a store whose index does not cover its dictionary (written by a
     * Basalt without one, or by a writer that did not keep it): one commit, on open, before any
     * other writer; nothing when it is current.
     */
    private static void buildSpatialIndex(Store store, Lexicon lexicon, Path journal) {
        try (Snapshot s = store.snapshot()) {
            if (SpatialIndex.isCurrent(s.property(SpatialIndex.PROPERTY), s.property(Lexicon.ALLOCATOR_PROPERTY))) {
                return;
            }
        }
        long started = System.nanoTime();
        try (WriteTransaction tx = store.begin()) {
            LexiconWriter w = lexicon.writer(tx);
            long n = w.rebuildSpatialIndex();
            w.beforeCommit();
            tx.commit();
            w.afterCommit();
            LOG.info("{}: built the spatial index of {} geometry terms in {} ms", journal, n,
                    (System.nanoTime() - started) / 1_000_000);
        }
    }

    private static List<QuadOrder> indexOrders(Store store, Path journal, BasaltStoreConfig config) {
        byte[] stored;
        try (Snapshot s = store.snapshot()) {
            stored = s.property(INDEXES_PROPERTY);
        }
        String requested = config.getStatementIndexes();
        if (stored == null) {
            List<QuadOrder> orders = BasaltStoreConfig.parseIndexes(
                    requested != null ? requested : BasaltStoreConfig.DEFAULT_INDEXES);
            try (WriteTransaction tx = store.begin()) {
                SailLayout.recordIndexes(tx, orders);
                tx.commit();
            }
            return orders;
        }
        List<QuadOrder> orders = BasaltStoreConfig.parseIndexes(new String(stored, StandardCharsets.UTF_8));
        if (requested != null && !BasaltStoreConfig.parseIndexes(requested).equals(orders)) {
            throw new SailException("the Basalt store " + journal + " was created with statement indexes '"
                    + names(orders) + "', but the configuration asks for '" + requested + "'. Index orders are fixed "
                    + "when a store is created: set statementIndexes to '" + names(orders) + "' or leave it unset, "
                    + "or export the data and load it into a new store");
        }
        return orders;
    }

    static String names(List<QuadOrder> orders) {
        return orders.stream().map(QuadOrder::name).collect(Collectors.joining(","));
    }

    Store store() {
        return store;
    }

    List<QuadOrder> orders() {
        return orders;
    }

    ReadSource latest() {
        return latest;
    }

    StoreWriter writer() {
        return writer;
    }

    /** A read view of a past snapshot; the caller owns the snapshot. */
    ReadView view(Snapshot snapshot) {
        return new ReadView(snapshot, lexicon, orders);
    }

    /**
     * Exact number of statements of a set, in all contexts or in the given ones (null = the
     * default graph): one range count per context.
     */
    static long size(ReadView view, StatementSet set, Resource... contexts) {
        QuadIndexes quads = view.quads(set);
        if (contexts == null || contexts.length == 0) {
            return quads.size();
        }
        LexiconReader lex = view.lexicon();
        Set<Long> ids = new LinkedHashSet<>();
        for (Resource c : contexts) {
            long id = c == null ? TermIds.DEFAULT_GRAPH : lex.lookup(c);
            if (id != TermIds.NULL) {
                ids.add(id);
            }
        }
        long n = 0;
        for (long id : ids) {
            n += quads.count(new long[] { 0, 0, 0, id });
        }
        return n;
    }

    /**
     * Online compaction of this store while it serves reads and writes ({@link OnlineCompactor});
     * one at a time. Its commits let go of the shared view of the previous commit point like the
     * writer's do.
     */
    OnlineCompactor.Result compactOnline() {
        synchronized (compaction) {
            return OnlineCompactor.compact(store, OnlineCompactor.Options.DEFAULT, latest::invalidate);
        }
    }

    @Override
    public void close() throws SailException {
        policy.close();
        try {
            writer.close();
            latest.close();
        } finally {
            store.close();
        }
    }
}
