package dev.basalt.sail.spill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.store.Store;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.journal.StoreException;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconConfig;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;

/**
 * A throwaway Basalt store holding the statements of one spilled change set: its own journal in
 * its own temporary directory, not durable, with its own lexicon, and the quads in the four orders
 * spoc, posc, ospc and cspo, so that every pattern a {@link org.eclipse.rdf4j.model.Model} filter
 * can ask is a prefix range of one index. Nothing is ever committed: everything lives in one open
 * write transaction whose dirty pages the B+trees' write-retention queues push to the journal file,
 * so the heap holds a bounded working set whatever the number of statements.
 *
 * <p>{@link #close()} rolls the transaction back, closes the journal and deletes the directory.
 * It is idempotent and may run on any thread (the {@link java.lang.ref.Cleaner} of
 * {@link OverflowModelFactory} calls it when a change set is dropped without being released).
 * Every method is synchronized: RDF4J's change sets let several readers share a model.
 */
final class SpillStore implements AutoCloseable {
    static final String JOURNAL = "spill.jnl";
    private static final Logger LOG = LoggerFactory.getLogger(SpillStore.class);
    private static final List<QuadOrder> ORDERS = List.of(QuadOrder.parse("spoc"), QuadOrder.parse("posc"),
            QuadOrder.parse("ospc"), QuadOrder.parse("cspo"));
    private static final String TREE_PREFIX = "s.";
    private static final long PAGE_CACHE_BYTES = 16L * 1024 * 1024;
    private static final int VALUE_CACHE = 20_000;
    /** Quads read per cursor before it is dropped; the next batch seeks again, so removals in between are safe. */
    private static final int BATCH = 512;

    private final Path dir;
    private final Store store;
    private final WriteTransaction tx;
    private final LexiconWriter lexicon;
    private final QuadIndexes quads;
    private final ValueFactory vf = SimpleValueFactory.getInstance();
    private final Map<Long, Value> values = new LinkedHashMap<>(1024, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Value> eldest) {
            return size() > VALUE_CACHE;
        }
    };
    private boolean closed;

    private SpillStore(Path dir, Store store) {
        this.dir = dir;
        this.store = store;
        this.tx = store.begin();
        this.lexicon = new Lexicon(new LexiconConfig(16, 16, VALUE_CACHE)).writer(tx);
        // pending changes are never queried spatially: their geometries are indexed when they reach the store
        lexicon.withoutSpatialIndex();
        this.quads = new QuadIndexes(ORDERS, o -> tx.tree(TREE_PREFIX + o.name()));
    }

    /** A new empty spill store in a fresh directory under {@code parent}. */
    static SpillStore create(Path parent) {
        Path dir = null;
        try {
            Files.createDirectories(parent);
            dir = Files.createTempDirectory(parent, "changes-");
            StoreConfig config = StoreConfig.defaults().withPageCacheBytes(PAGE_CACHE_BYTES);
            config = config.withJournal(config.journal().withDurable(false));
            return new SpillStore(dir, Store.open(dir.resolve(JOURNAL), config));
        } catch (IOException | StoreException e) {
            if (dir != null) {
                deleteTree(dir);
            }
            throw new StoreException("cannot create a spill store for pending changes under " + parent + ": "
                    + e.getMessage() + ". Check free space and permissions there, or raise the spill threshold");
        }
    }

    Path directory() {
        return dir;
    }

    synchronized boolean add(Statement st) {
        ensureOpen();
        long[] quad = { lexicon.getOrCreate(st.getSubject()), lexicon.getOrCreate(st.getPredicate()),
                lexicon.getOrCreate(st.getObject()),
                st.getContext() == null ? TermIds.DEFAULT_GRAPH : lexicon.getOrCreate(st.getContext()) };
        return quads.add(quad);
    }

    synchronized boolean remove(long[] quad) {
        ensureOpen();
        return quads.remove(quad);
    }

    synchronized long size() {
        ensureOpen();
        return quads.size();
    }

    /** Number of statements matching any of the patterns (which must not overlap). */
    synchronized long count(List<long[]> patterns) {
        ensureOpen();
        long n = 0;
        for (long[] p : patterns) {
            n += quads.count(p);
        }
        return n;
    }

    synchronized boolean containsAny(List<long[]> patterns) {
        ensureOpen();
        for (long[] p : patterns) {
            if (QuadOrder.boundCount(p) == 4 ? quads.contains(p) : quads.scan(p).next()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The id patterns of a Model pattern: one per context (none bound = any context; a null
     * context is the default graph), without those that name a term this store has never seen.
     * An empty list matches nothing.
     */
    synchronized List<long[]> patterns(Resource s, org.eclipse.rdf4j.model.IRI p, Value o, Resource... contexts) {
        ensureOpen();
        long[] spo = { id(s), id(p), id(o) };
        if (spo[0] == TermIds.NULL && s != null || spo[1] == TermIds.NULL && p != null
                || spo[2] == TermIds.NULL && o != null) {
            return List.of();
        }
        List<long[]> out = new ArrayList<>();
        if (contexts == null || contexts.length == 0) {
            out.add(new long[] { spo[0], spo[1], spo[2], 0 });
            return out;
        }
        for (Resource c : new java.util.LinkedHashSet<>(Arrays.asList(contexts))) {
            long id = c == null ? TermIds.DEFAULT_GRAPH : lexicon.lookup(c);
            if (id != TermIds.NULL) {
                out.add(new long[] { spo[0], spo[1], spo[2], id });
            }
        }
        return out;
    }

    private long id(Value v) {
        return v == null ? 0 : lexicon.lookup(v);
    }

    /**
     * Reads up to {@link #BATCH} quads matching the pattern with a key (in the pattern's best
     * order) after {@code after} (null = from the start) into {@code out}; returns the key of the
     * last one read, or null when the range is exhausted.
     */
    synchronized byte[] read(long[] pattern, byte[] after, List<long[]> out) {
        ensureOpen();
        QuadOrder order = ORDERS.get(quads.bestOrder(pattern));
        byte[] from = after == null ? order.lowerBound(pattern) : Arrays.copyOf(after, after.length + 1);
        BTreeCursor cursor = tx.tree(TREE_PREFIX + order.name()).cursor(from, order.upperBound(pattern));
        byte[] last = null;
        int read = 0;
        while (read < BATCH && cursor.next()) {
            last = cursor.key();
            read++;
            long[] quad = new long[4];
            order.decode(last, quad);
            if (matches(pattern, quad)) {
                out.add(quad);
            }
        }
        return read < BATCH ? null : last;
    }

    private static boolean matches(long[] pattern, long[] quad) {
        for (int i = 0; i < 4; i++) {
            if (pattern[i] != 0 && pattern[i] != quad[i]) {
                return false;
            }
        }
        return true;
    }

    /** The statement of a quad read from this store. */
    synchronized Statement statement(long[] quad) {
        ensureOpen();
        return vf.createStatement((Resource) value(quad[0]), (org.eclipse.rdf4j.model.IRI) value(quad[1]),
                value(quad[2]), (Resource) value(quad[3]));
    }

    private Value value(long id) {
        if (id == TermIds.DEFAULT_GRAPH) {
            return null;
        }
        Value v = values.get(id);
        if (v == null) {
            v = lexicon.resolve(id, vf);
            values.put(id, v);
        }
        return v;
    }

    /** The id quad of a statement, or null if one of its terms is unknown here (so it is not stored). */
    synchronized long[] quadOf(Statement st) {
        ensureOpen();
        long[] quad = { lexicon.lookup(st.getSubject()), lexicon.lookup(st.getPredicate()),
                lexicon.lookup(st.getObject()),
                st.getContext() == null ? TermIds.DEFAULT_GRAPH : lexicon.lookup(st.getContext()) };
        for (long id : quad) {
            if (id == TermIds.NULL) {
                return null;
            }
        }
        return quad;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        values.clear();
        try {
            tx.rollback();
            store.close();
        } catch (RuntimeException e) {
            LOG.warn("closing the spill store {} failed: {}", dir, e.getMessage());
        } finally {
            deleteTree(dir);
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("the spilled change set in " + dir + " was already released");
        }
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            LOG.warn("could not delete the spill directory {}: {}", dir, e.getMessage());
        }
    }
}
