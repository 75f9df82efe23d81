package dev.basalt.sail.spill;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Namespace;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.impl.AbstractModel;
import org.eclipse.rdf4j.model.impl.FilteredModel;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleNamespace;

/**
 * A {@link Model} of pending changes that starts as a {@link LinkedHashModel} and, once its
 * {@link SpillPolicy} says so, moves every statement into a {@link SpillStore} and keeps working
 * there: from then on its heap use does not grow with its size. Filters, {@code contains},
 * {@code remove} and {@code size} with a pattern are index range operations; iteration reads
 * batches of ids and resolves them one statement at a time; {@code Iterator.remove} is supported.
 *
 * <p>Same semantics as RDF4J's models: a null subject, predicate or object matches any; no
 * contexts matches any context; a null context is the default graph. Thread-safety is that of
 * RDF4J's change sets: one writer excluding readers, readers concurrently (the spill store
 * serializes them). {@link #release} deletes the spill store; a released model refuses every
 * further use rather than silently looking empty.
 */
final class OverflowModel extends AbstractModel {
    private static final long serialVersionUID = 1L;

    private final transient OverflowModelFactory factory;
    private final transient SpillOwner owner;
    private final Set<Namespace> namespaces = new LinkedHashSet<>();
    private volatile LinkedHashModel memory = new LinkedHashModel();
    private volatile transient SpillStore disk;

    OverflowModel(OverflowModelFactory factory, SpillOwner owner) {
        this.factory = factory;
        this.owner = owner;
    }

    /** True once the statements live in a spill store. */
    boolean isSpilled() {
        return disk != null;
    }

    /** Deletes the spill store of a model of this factory that nobody will read again; no-op for other sets. */
    static void release(Set<Statement> statements) {
        if (statements instanceof OverflowModel m) {
            m.release();
        }
    }

    void release() {
        SpillStore d = disk;
        if (d != null) {
            factory.release(d);
        }
    }

    private void spillIfNeeded() {
        LinkedHashModel m = memory;
        if (m == null || !factory.policy().shouldSpill(m.size())) {
            return;
        }
        SpillStore d = factory.newStore(this, owner);
        for (Statement st : m) {
            d.add(st);
        }
        disk = d;
        memory = null;
    }

    // ---- namespaces: change set models never use them, kept in memory ----

    @Override
    public Set<Namespace> getNamespaces() {
        return namespaces;
    }

    @Override
    public void setNamespace(Namespace namespace) {
        removeNamespace(namespace.getPrefix());
        namespaces.add(namespace);
    }

    @Override
    public Namespace setNamespace(String prefix, String name) {
        Namespace ns = new SimpleNamespace(prefix, name);
        setNamespace(ns);
        return ns;
    }

    @Override
    public Optional<Namespace> removeNamespace(String prefix) {
        Optional<Namespace> ns = getNamespace(prefix);
        ns.ifPresent(namespaces::remove);
        return ns;
    }

    // ---- statements ----

    @Override
    public boolean add(Resource subj, IRI pred, Value obj, Resource... contexts) {
        LinkedHashModel m = memory;
        boolean changed;
        if (m != null) {
            changed = m.add(subj, pred, obj, contexts);
            spillIfNeeded();
            return changed;
        }
        SpillStore d = disk();
        if (contexts == null || contexts.length == 0) {
            return d.add(getValueFactory().createStatement(subj, pred, obj));
        }
        changed = false;
        for (Resource c : contexts) {
            changed |= d.add(getValueFactory().createStatement(subj, pred, obj, c));
        }
        return changed;
    }

    @Override
    public boolean add(Statement st) {
        LinkedHashModel m = memory;
        if (m != null) {
            boolean changed = m.add(st);
            spillIfNeeded();
            return changed;
        }
        return disk().add(st);
    }

    @Override
    public boolean addAll(Collection<? extends Statement> statements) {
        boolean changed = false;
        for (Statement st : statements) {
            changed |= add(st);
        }
        return changed;
    }

    @Override
    public boolean removeAll(Collection<?> statements) {
        boolean changed = false;
        for (Object o : statements) {
            changed |= remove(o);
        }
        return changed;
    }

    @Override
    public boolean remove(Object o) {
        if (!(o instanceof Statement st)) {
            return false;
        }
        LinkedHashModel m = memory;
        if (m != null) {
            return m.remove(st);
        }
        SpillStore d = disk();
        long[] quad = d.quadOf(st);
        return quad != null && d.remove(quad);
    }

    @Override
    public boolean contains(Object o) {
        if (!(o instanceof Statement st)) {
            return false;
        }
        LinkedHashModel m = memory;
        if (m != null) {
            return m.contains(st);
        }
        SpillStore d = disk();
        long[] quad = d.quadOf(st);
        return quad != null && d.containsAny(List.of(quad));
    }

    @Override
    public boolean contains(Resource subj, IRI pred, Value obj, Resource... contexts) {
        LinkedHashModel m = memory;
        if (m != null) {
            return m.contains(subj, pred, obj, contexts);
        }
        SpillStore d = disk();
        return d.containsAny(d.patterns(subj, pred, obj, contexts));
    }

    @Override
    public boolean remove(Resource subj, IRI pred, Value obj, Resource... contexts) {
        LinkedHashModel m = memory;
        if (m != null) {
            return m.remove(subj, pred, obj, contexts);
        }
        SpillStore d = disk();
        boolean changed = false;
        for (long[] pattern : d.patterns(subj, pred, obj, contexts)) {
            List<long[]> batch = new ArrayList<>();
            byte[] after = null;
            do {
                batch.clear();
                after = d.read(pattern, after, batch);
                for (long[] quad : batch) {
                    changed |= d.remove(quad);
                }
            } while (after != null);
        }
        return changed;
    }

    @Override
    public boolean clear(Resource... contexts) {
        return remove(null, null, null, contexts);
    }

    @Override
    public void clear() {
        LinkedHashModel m = memory;
        if (m != null) {
            m.clear();
        } else {
            remove(null, null, null);
        }
    }

    @Override
    public int size() {
        LinkedHashModel m = memory;
        return m != null ? m.size() : (int) Math.min(Integer.MAX_VALUE, disk().size());
    }

    @Override
    public boolean isEmpty() {
        LinkedHashModel m = memory;
        return m != null ? m.isEmpty() : disk().size() == 0;
    }

    @Override
    public Iterator<Statement> iterator() {
        return match(null, null, null);
    }

    @Override
    public Model filter(Resource subj, IRI pred, Value obj, Resource... contexts) {
        return new FilteredModel(this, subj, pred, obj, contexts) {
            private static final long serialVersionUID = 1L;

            @Override
            public Iterator<Statement> iterator() {
                return match(subj, pred, obj, contexts);
            }

            @Override
            public int size() {
                LinkedHashModel m = memory;
                if (m != null) {
                    return m.filter(subj, pred, obj, contexts).size();
                }
                SpillStore d = disk();
                return (int) Math.min(Integer.MAX_VALUE, d.count(d.patterns(subj, pred, obj, contexts)));
            }

            @Override
            public boolean isEmpty() {
                return !OverflowModel.this.contains(subj, pred, obj, contexts);
            }

            @Override
            protected void removeFilteredTermIteration(Iterator<Statement> iter, Resource s, IRI p, Value o,
                    Resource... c) {
                OverflowModel.this.removeTermIteration(iter, s, p, o, c);
            }
        };
    }

    @Override
    public void removeTermIteration(Iterator<Statement> iter, Resource subj, IRI pred, Value obj,
            Resource... contexts) {
        LinkedHashModel m = memory;
        if (m != null) {
            m.removeTermIteration(iter, subj, pred, obj, contexts);
        } else {
            remove(subj, pred, obj, contexts);
        }
    }

    private Iterator<Statement> match(Resource subj, IRI pred, Value obj, Resource... contexts) {
        LinkedHashModel m = memory;
        if (m != null) {
            return m.filter(subj, pred, obj, contexts).iterator();
        }
        SpillStore d = disk();
        return new SpillIterator(d, d.patterns(subj, pred, obj, contexts));
    }

    private SpillStore disk() {
        SpillStore d = disk;
        if (d == null) {
            throw new IllegalStateException("change set model in an inconsistent state");
        }
        return d;
    }

    private static org.eclipse.rdf4j.model.ValueFactory getValueFactory() {
        return org.eclipse.rdf4j.model.impl.SimpleValueFactory.getInstance();
    }

    /** Statements of a spill store matching patterns, read in batches that each seek anew. */
    private static final class SpillIterator implements Iterator<Statement> {
        private final SpillStore store;
        private final List<long[]> patterns;
        private final List<long[]> batch = new ArrayList<>();
        private int pattern;
        private int pos;
        private byte[] after;
        private boolean rangeDone = true;
        private long[] last;

        SpillIterator(SpillStore store, List<long[]> patterns) {
            this.store = store;
            this.patterns = patterns;
            this.pattern = -1;
        }

        @Override
        public boolean hasNext() {
            while (pos == batch.size()) {
                batch.clear();
                pos = 0;
                if (rangeDone) {
                    if (++pattern >= patterns.size()) {
                        return false;
                    }
                    after = null;
                }
                after = store.read(patterns.get(pattern), after, batch);
                rangeDone = after == null;
            }
            return true;
        }

        @Override
        public Statement next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            last = batch.get(pos++);
            return store.statement(last);
        }

        @Override
        public void remove() {
            if (last == null) {
                throw new IllegalStateException();
            }
            store.remove(last);
            last = null;
        }
    }
}
