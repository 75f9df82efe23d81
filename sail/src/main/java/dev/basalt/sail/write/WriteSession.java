package dev.basalt.sail.write;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;

import dev.basalt.sail.inference.ClosureStore;
import dev.basalt.sail.inference.Reasoner;
import dev.basalt.sail.inference.ReasonerTerms;
import dev.basalt.store.Snapshot;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconWriter;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadCursor;
import dev.basalt.store.quads.QuadIndexes;
import dev.basalt.store.quads.QuadOrder;
import dev.basalt.sail.read.NamespaceTable;
import dev.basalt.sail.read.ReadView;
import dev.basalt.sail.read.StatementSet;

/**
 * One open store write transaction as the sail uses it: statements of both sets, their terms and
 * namespaces change together and commit as one commit point. Owned by {@link StoreWriter}, which
 * serializes every call; not thread-safe itself.
 */
public final class WriteSession {
    private final WriteTransaction tx;
    private final Lexicon dictionary;
    private final LexiconWriter lexicon;
    private final List<QuadOrder> orders;
    private final Map<StatementSet, QuadIndexes> quads = new EnumMap<>(StatementSet.class);
    private boolean changed;
    /** Keeps the closure at commit, or null when the store keeps none. */
    private final Reasoner reasoner;
    private final ExplicitChanges explicitChanges = new ExplicitChanges();

    /** The commit counter of the commit point this transaction builds on. */
    private final long base;

    /** @param base the commit counter of the commit point {@code tx} builds on */
    WriteSession(WriteTransaction tx, long base, Lexicon lexicon, List<QuadOrder> orders, Reasoner reasoner) {
        this.tx = tx;
        this.base = base;
        this.dictionary = lexicon;
        this.lexicon = lexicon.writer(tx);
        this.orders = orders;
        this.reasoner = reasoner;
    }

    private QuadIndexes quads(StatementSet set) {
        return quads.computeIfAbsent(set, s -> s.writable(tx, orders));
    }

    /**
     * True for a write of the inferred set by an RDF4J branch when the store's reasoner owns that
     * set: a transaction's inferences before commit ({@link TransactionInferences}) are not
     * written; the reasoner computes them again at commit.
     */
    private boolean ownedByReasoner(StatementSet set) {
        return set == StatementSet.INFERRED && reasoner != null;
    }

    public void add(StatementSet set, Resource s, org.eclipse.rdf4j.model.IRI p, Value o, Resource c) {
        if (ownedByReasoner(set)) {
            return;
        }
        long[] quad = { lexicon.getOrCreate(s), lexicon.getOrCreate(p), lexicon.getOrCreate(o),
                c == null ? TermIds.DEFAULT_GRAPH : lexicon.getOrCreate(c) };
        addQuad(set, quad);
    }

    /** Adds many statements: terms resolved in one batch, each index written in its own key order. */
    void addAll(StatementSet set, Collection<? extends Statement> statements) {
        Value[] terms = new Value[statements.size() * 4];
        int i = 0;
        for (Statement st : statements) {
            terms[i++] = st.getSubject();
            terms[i++] = st.getPredicate();
            terms[i++] = st.getObject();
            terms[i++] = st.getContext();
        }
        addAll(set, terms, statements.size());
    }

    /**
     * Adds the first {@code count} statements of {@code terms}, four entries each (subject,
     * predicate, object, context; a null context is the default graph): terms resolved in one
     * batch, each index written in its own key order.
     */
    void addAll(StatementSet set, Value[] terms, int count) {
        if (ownedByReasoner(set)) {
            return;
        }
        List<Value> nonNull = new ArrayList<>(count * 4);
        for (int i = 0; i < count * 4; i++) {
            if (terms[i] != null) {
                nonNull.add(terms[i]);
            }
        }
        long[] ids = lexicon.getOrCreateAll(nonNull);
        long[][] batch = new long[count][4];
        int k = 0;
        for (int i = 0; i < count * 4; i++) {
            batch[i / 4][i % 4] = terms[i] == null ? TermIds.DEFAULT_GRAPH : ids[k++];
        }
        if (set == StatementSet.EXPLICIT) {
            List<long[]> added = quads(StatementSet.EXPLICIT).addAll(batch);
            changed |= !added.isEmpty();
            if (reasoner != null) {
                added.forEach(explicitChanges::added);
            }
            QuadIndexes inferred = quads(StatementSet.INFERRED);
            if (inferred.size() > 0) {
                for (long[] quad : batch) {
                    changed |= inferred.remove(quad);
                }
            }
        } else {
            QuadIndexes explicit = quads(StatementSet.EXPLICIT);
            List<long[]> onlyInferred = new ArrayList<>(batch.length);
            for (long[] quad : batch) {
                if (!explicit.contains(quad)) {
                    onlyInferred.add(quad);
                }
            }
            changed |= !quads(StatementSet.INFERRED).addAll(onlyInferred.toArray(new long[0][])).isEmpty();
        }
    }

    /**
     * Runs a bulk write of explicit statements in this transaction (see {@link BulkWrite}). The
     * caller has checked that the store has no inferred statements ({@link #hasInferred()}) or that
     * the reasoner owns them ({@link #keepsClosure()}): the quads new to the store are then the
     * transaction's explicit additions, from which the commit maintains the closure in one run
     * (past {@link ExplicitChanges#LIMIT} the commit recomputes it).
     */
    public long bulk(BulkWrite write) {
        long added = write.write(tx, lexicon, orders, reasoner == null ? quad -> { } : explicitChanges::added);
        // the bulk write put keys into the trees behind the cached index views' backs
        quads.clear();
        changed |= added > 0;
        return added;
    }

    /** True if the store's reasoner keeps the inferred statements (the closure of the explicit ones). */
    public boolean keepsClosure() {
        return reasoner != null;
    }

    /** True if the store holds inferred statements in this transaction. */
    public boolean hasInferred() {
        return quads(StatementSet.INFERRED).size() > 0;
    }

    private void addQuad(StatementSet set, long[] quad) {
        if (set == StatementSet.EXPLICIT) {
            if (quads(StatementSet.EXPLICIT).add(quad)) {
                changed = true;
                if (reasoner != null) {
                    explicitChanges.added(quad);
                }
            }
            changed |= quads(StatementSet.INFERRED).remove(quad);
        } else if (!quads(StatementSet.EXPLICIT).contains(quad)) {
            changed |= quads(StatementSet.INFERRED).add(quad);
        }
    }

    void remove(StatementSet set, Statement st) {
        if (ownedByReasoner(set)) {
            return;
        }
        long[] quad = { lexicon.lookup(st.getSubject()), lexicon.lookup(st.getPredicate()),
                lexicon.lookup(st.getObject()),
                st.getContext() == null ? TermIds.DEFAULT_GRAPH : lexicon.lookup(st.getContext()) };
        for (long id : quad) {
            if (id == TermIds.NULL) {
                return;
            }
        }
        if (quads(set).remove(quad)) {
            changed = true;
            if (set == StatementSet.EXPLICIT && reasoner != null) {
                explicitChanges.removed(quad);
            }
        }
    }

    /** Removes every statement of the set, or those in the given contexts (null = default graph). */
    public void clear(StatementSet set, Resource... contexts) {
        if (ownedByReasoner(set)) {
            return;
        }
        clearSet(set, contexts);
    }

    private void clearSet(StatementSet set, Resource... contexts) {
        if (set == StatementSet.EXPLICIT) {
            explicitChanges.overflow();
        }
        if (contexts.length == 0) {
            for (QuadOrder o : orders) {
                String name = set.treeName(o);
                if (tx.hasTree(name) && !tx.tree(name).isEmpty()) {
                    tx.tree(name).clear();
                    changed = true;
                }
            }
            return;
        }
        for (Resource ctx : contexts) {
            long c = ctx == null ? TermIds.DEFAULT_GRAPH : lexicon.lookup(ctx);
            if (c != TermIds.NULL) {
                clearContext(set, c);
            }
        }
    }

    private void clearContext(StatementSet set, long context) {
        QuadIndexes q = quads(set);
        long[] pattern = { 0, 0, 0, context };
        while (true) {
            List<long[]> batch = new ArrayList<>();
            QuadCursor cursor = q.scan(pattern);
            while (batch.size() < WriteBatch.SIZE && cursor.next()) {
                batch.add(cursor.quad().clone());
            }
            for (long[] quad : batch) {
                changed |= q.remove(quad);
            }
            if (batch.size() < WriteBatch.SIZE) {
                return;
            }
        }
    }

    /** The statement indices of this transaction as the reasoner sees them. */
    ClosureStore closureStore() {
        return new ClosureStore(quads(StatementSet.EXPLICIT), quads(StatementSet.INFERRED),
                () -> clearSet(StatementSet.INFERRED));
    }

    private ReasonerTerms reasonerTerms() {
        return ReasonerTerms.of(lexicon::getOrCreate, id -> lexicon.resolve(id, SimpleValueFactory.getInstance()));
    }

    /** Recomputes the closure of the explicit statements under {@code r}'s rules in this transaction. */
    public void closeFully(Reasoner r) {
        r.closeFully(closureStore(), reasonerTerms());
        changed = true;
    }

    void setNamespace(String prefix, String name) {
        changed |= NamespaceTable.set(tx, prefix, name);
    }

    void removeNamespace(String prefix) {
        changed |= NamespaceTable.remove(tx, prefix);
    }

    void clearNamespaces() {
        changed |= NamespaceTable.clear(tx);
    }

    public void setProperty(String name, byte[] value) {
        tx.setProperty(name, value);
        changed = true;
    }

    /**
     * A live view of this transaction's state over the commit point {@code base} it builds on (see
     * {@link ReadView}); to be read only while nothing writes into this session.
     */
    ReadView readView(Snapshot base, LiveReads live) {
        Map<StatementSet, QuadIndexes> views = new EnumMap<>(StatementSet.class);
        for (StatementSet set : StatementSet.values()) {
            views.put(set, new QuadIndexes(orders, o -> existing(set.treeName(o)),
                    set.defaultGraphOnly(tx::property)));
        }
        return new ReadView(base, dictionary.reader(lexicon), views, this::existing, live);
    }

    private BTree existing(String name) {
        return tx.hasTree(name) ? tx.tree(name) : null;
    }

    boolean isChanged() {
        return changed || lexicon.isChanged();
    }

    /** Commits if anything changed (else rolls back: no empty commit points); returns the commit or null. */
    CommitPoint commit() {
        Reasoner.Compiled compiled = null;
        if (reasoner != null && !explicitChanges.isEmpty()) {
            ClosureStore closure = closureStore();
            if (explicitChanges.overflowed()) {
                reasoner.closeFully(closure, reasonerTerms());
            } else {
                compiled = reasoner.maintain(closure, reasonerTerms(), explicitChanges.added(),
                        explicitChanges.removed(), base);
            }
            explicitChanges.clear();
            changed = true;
        }
        if (!isChanged()) {
            tx.rollback();
            return null;
        }
        lexicon.beforeCommit();
        CommitPoint p = tx.commit();
        lexicon.afterCommit();
        if (compiled != null) {
            reasoner.committed(p.counter(), compiled);
        }
        return p;
    }

    void rollback() {
        tx.rollback();
    }
}
