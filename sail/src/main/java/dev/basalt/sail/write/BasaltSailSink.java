package dev.basalt.sail.write;

import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.sail.SailException;

import dev.basalt.sail.spill.OverflowModelFactory;
import dev.basalt.sail.read.ObservedReads;
import dev.basalt.sail.read.StatementSet;

/**
 * Writes one statement set of the backing store when an RDF4J branch flushes into it. Changes are
 * buffered in a {@link WriteBatch}; a full batch, and at {@link #flush()} the rest, goes into the
 * store's open write transaction through {@link StoreWriter#write}; {@link #flush()} then commits
 * it durably (or leaves that to the enclosing commit group, whose end commits). RDF4J's
 * transaction branches obtain a sink only when they flush, which a connection does inside its
 * commit group.
 *
 * <p>A sink of a SERIALIZABLE branch carries the transaction's {@link ObservedReads}: observed
 * patterns are recorded, and {@link #prepare()} and again {@link #flush()} (inside the commit
 * group, so authoritatively) fail with a conflict if a statement the transaction read has changed.
 *
 * <p>Thread rules: one sink serves one branch flush in one thread; the {@link StoreWriter} serializes the
 * writes and refuses a thread that does not hold the open commit group.
 */
final class BasaltSailSink extends BatchingSink {
    private final ObservedReads reads;
    private boolean unflushed;

    /** @param reads the SERIALIZABLE transaction's observed reads, or null below SERIALIZABLE */
    BasaltSailSink(StoreWriter writer, StatementSet set, ObservedReads reads) {
        super(writer, set);
        this.reads = reads;
    }

    @Override
    void ensureUsable() {
        // a branch flush: nothing refuses it before the writer does
    }

    @Override
    void changed() {
        if (batch.isFull()) {
            write();
        }
    }

    private void write() {
        unflushed = true;
        writer.write(batch.take());
    }

    private void writeBuffered() {
        if (!batch.isEmpty()) {
            write();
        }
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
        writeBuffered();
        unflushed = false;
        writer.flush();
    }

    @Override
    public void close() throws SailException {
        try {
            batch.discard();
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
    public void observe(Resource subj, IRI pred, Value obj, Resource... contexts) throws SailException {
        if (reads != null) {
            reads.observe(subj, pred, obj, contexts);
        }
    }

    /**
     * Streams a change set's additions into the store in batches, so a change set spilled to disk
     * is never held in the heap; then releases its spill store, as this sink is the last reader of
     * a change set (the RDF4J branch drops it right after flushing it here). The last batch is
     * written before the release: nothing buffered refers to a released spill store.
     */
    @Override
    public void approveAll(Set<Statement> approved, Set<Resource> approvedContexts) {
        try {
            super.approveAll(approved, approvedContexts);
            writeBuffered();
        } finally {
            OverflowModelFactory.release(approved);
        }
    }

    /** Streams a change set's removals into the store in batches; see {@link #approveAll}. */
    @Override
    public void deprecateAll(Set<Statement> deprecated) {
        try {
            super.deprecateAll(deprecated);
            writeBuffered();
        } finally {
            OverflowModelFactory.release(deprecated);
        }
    }
}
