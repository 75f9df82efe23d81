package dev.basalt.sail;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.SailSink;

import dev.basalt.sail.spill.OverflowModelFactory;

/**
 * Writes one statement set of the backing store. Every call goes straight into the store's open
 * write transaction through {@link StoreWriter}; {@link #flush()} commits it durably (or leaves
 * that to the enclosing commit group, whose end commits). RDF4J's transaction branches obtain a
 * sink only when they flush, which a connection does inside its commit group.
 *
 * <p>A sink of a SERIALIZABLE branch carries the transaction's {@link ObservedReads}: observed
 * patterns are recorded, and {@link #prepare()} and again {@link #flush()} (inside the commit
 * group, so authoritatively) fail with a conflict if a statement the transaction read has changed.
 *
 * <p>Thread rules: one sink serves one branch flush in one thread; the {@link StoreWriter} serializes the
 * writes and refuses a thread that does not hold the open commit group.
 */
final class BasaltSailSink implements SailSink {
    /** Statements written per batch when a whole change set is flushed. */
    static final int BATCH = 20_000;
    private final StoreWriter writer;
    private final StatementSet set;
    private final ObservedReads reads;
    private boolean unflushed;

    /** @param reads the SERIALIZABLE transaction's observed reads, or null below SERIALIZABLE */
    BasaltSailSink(StoreWriter writer, StatementSet set, ObservedReads reads) {
        this.writer = writer;
        this.set = set;
        this.reads = reads;
    }

    @Override
    public void prepare() throws SailException {
        if (reads != null) {
            reads.check();
        }
    }

    @Override
    public void flush() throws SailException {
        if (reads != null) {
            reads.check();
        }
        unflushed = false;
        writer.flush();
    }

    @Override
    public void close() throws SailException {
        try {
            if (unflushed) {
                unflushed = false;
                writer.discard();
            }
        } finally {
            if (reads != null) {
                reads.close();
            }
        }
    }

    @Override
    public void setNamespace(String prefix, String name) throws SailException {
        write(s -> s.setNamespace(prefix, name));
    }

    @Override
    public void removeNamespace(String prefix) throws SailException {
        write(s -> s.removeNamespace(prefix));
    }

    @Override
    public void clearNamespaces() throws SailException {
        write(WriteSession::clearNamespaces);
    }

    @Override
    public void clear(Resource... contexts) throws SailException {
        write(s -> s.clear(set, contexts));
    }

    @Override
    public void observe(Resource subj, IRI pred, Value obj, Resource... contexts) throws SailException {
        if (reads != null) {
            reads.observe(subj, pred, obj, contexts);
        }
    }

    @Override
    public void approve(Resource subj, IRI pred, Value obj, Resource ctx) throws SailException {
        write(s -> s.add(set, subj, pred, obj, ctx));
    }

    /**
     * Streams a change set's additions into the store in batches, so a change set spilled to disk
     * is never held in the heap; then releases its spill store, as this sink is the last reader of
     * a change set (the RDF4J branch drops it right after flushing it here).
     */
    @Override
    public void approveAll(Set<Statement> approved, Set<Resource> approvedContexts) {
        try {
            List<Statement> batch = new ArrayList<>(BATCH);
            for (Statement st : approved) {
                batch.add(st);
                if (batch.size() == BATCH) {
                    List<Statement> full = batch;
                    write(s -> s.addAll(set, full));
                    batch = new ArrayList<>(BATCH);
                }
            }
            if (!batch.isEmpty()) {
                List<Statement> rest = batch;
                write(s -> s.addAll(set, rest));
            }
        } finally {
            OverflowModelFactory.release(approved);
        }
    }

    /** Streams a change set's removals into the store in batches; see {@link #approveAll}. */
    @Override
    public void deprecateAll(Set<Statement> deprecated) {
        try {
            List<Statement> batch = new ArrayList<>(BATCH);
            for (Statement st : deprecated) {
                batch.add(st);
                if (batch.size() == BATCH) {
                    List<Statement> full = batch;
                    write(s -> full.forEach(x -> s.remove(set, x)));
                    batch = new ArrayList<>(BATCH);
                }
            }
            if (!batch.isEmpty()) {
                List<Statement> rest = batch;
                write(s -> rest.forEach(x -> s.remove(set, x)));
            }
        } finally {
            OverflowModelFactory.release(deprecated);
        }
    }

    @Override
    public void deprecate(Statement statement) throws SailException {
        write(s -> s.remove(set, statement));
    }

    private void write(java.util.function.Consumer<WriteSession> change) {
        unflushed = true;
        writer.write(change);
    }
}
