package dev.basalt.sail.spill;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.ModelFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ModelFactory} of RDF4J's snapshot layer over a Basalt store: every change set model
 * starts in memory and spills into a {@link SpillStore} when the {@link SpillPolicy} says so (see
 * {@link OverflowModel}).
 *
 * <p>A spill store is deleted, whichever comes first: when its model is {@linkplain
 * OverflowModel#release released} (Basalt's backing sink does so after writing a change set into
 * the store), when the owning connection rolls back ({@link SpillOwner}), when the model becomes
 * unreachable (a {@link Cleaner} action; RDF4J drops change sets without closing them), when the
 * sail shuts down ({@link #close}), or when the JVM exits (a shutdown hook). Thread-safe.
 */
public final class OverflowModelFactory implements ModelFactory, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(OverflowModelFactory.class);
    private static final Cleaner CLEANER = Cleaner.create();
    private static final Set<SpillStore> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(SpillStore::close), "basalt-spill-cleanup"));
    }

    private final SpillPolicy policy;
    private final Set<SpillStore> stores = ConcurrentHashMap.newKeySet();
    private final AtomicLong spills = new AtomicLong();

    public OverflowModelFactory(SpillPolicy policy) {
        this.policy = policy;
    }

    public SpillPolicy policy() {
        return policy;
    }

    @Override
    public Model createEmptyModel() {
        return new OverflowModel(this, SpillOwner.current());
    }

    /** Number of change set models that have spilled to disk so far. */
    public long spillCount() {
        return spills.get();
    }

    /** Number of spill stores not yet deleted. */
    public int openSpillStores() {
        stores.removeIf(SpillStore::isClosed);
        return stores.size();
    }

    /** A new spill store for {@code model}, deleted at the latest when the model becomes unreachable. */
    SpillStore newStore(OverflowModel model, SpillOwner owner) {
        SpillStore store = SpillStore.create(policy.directory());
        stores.add(store);
        LIVE.add(store);
        spills.incrementAndGet();
        // the action must not reach the model, or the model would never become unreachable
        Set<SpillStore> mine = stores;
        CLEANER.register(model, () -> release(store, mine));
        if (owner != null) {
            owner.adopt(() -> release(store, mine));
        }
        LOG.debug("pending changes spill to {}", store.directory());
        return store;
    }

    /**
     * Deletes the spill store of a change set model made by any factory of this kind, once nobody
     * will read the model again; a no-op for other sets and for models still in memory.
     */
    public static void release(Set<org.eclipse.rdf4j.model.Statement> changeSet) {
        OverflowModel.release(changeSet);
    }

    static void release(SpillStore store, Set<SpillStore> of) {
        store.close();
        of.remove(store);
        LIVE.remove(store);
    }

    void release(SpillStore store) {
        release(store, stores);
    }

    /** Deletes every spill store of this factory and leftovers of a crashed run in its directory. */
    @Override
    public void close() {
        for (SpillStore s : stores) {
            release(s);
        }
        deleteLeftovers(policy.directory());
    }

    /** Deletes what an earlier process left in a spill directory (call only while holding the store's lock). */
    public static void deleteLeftovers(Path directory) {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (Stream<Path> children = Files.list(directory)) {
            children.filter(p -> LIVE.stream().noneMatch(s -> s.directory().equals(p))).forEach(SpillStore::deleteTree);
        } catch (IOException e) {
            LOG.warn("could not clean the spill directory {}: {}", directory, e.getMessage());
        }
    }
}
