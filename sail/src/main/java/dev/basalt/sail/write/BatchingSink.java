package dev.basalt.sail.write;

import java.util.function.Consumer;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.SailSink;
import dev.basalt.sail.read.StatementSet;

/**
 * A sink of one statement set that buffers every change in order in a {@link WriteBatch} and hands
 * full batches to the {@link StoreWriter}; the two sinks of the store ({@link BasaltSailSink} for an
 * RDF4J branch's flush, {@link UnisolatedSink} for writes straight into the store's transaction)
 * differ only in when and how a batch is written, and how the sink ends ({@link #flush()},
 * {@link #close()}). RDF4J's defaults turn {@code approveAll}/{@code deprecateAll} into single
 * changes.
 *
 * <p>Thread rules: a sink serves one branch flush or one update operation, used by one thread at a
 * time; the {@link StoreWriter} serializes the writes.
 */
abstract class BatchingSink implements SailSink {
    final StoreWriter writer;
    final WriteBatch batch;

    BatchingSink(StoreWriter writer, StatementSet set) {
        this.writer = writer;
        this.batch = new WriteBatch(set);
    }

    /** Refuses further changes when the sink can no longer take them. */
    abstract void ensureUsable();

    /** A change was buffered; writes the batch if it is full and may be written now. */
    abstract void changed();

    @Override
    public void setNamespace(String prefix, String name) throws SailException {
        step(s -> s.setNamespace(prefix, name));
    }

    @Override
    public void removeNamespace(String prefix) throws SailException {
        step(s -> s.removeNamespace(prefix));
    }

    @Override
    public void clearNamespaces() throws SailException {
        step(WriteSession::clearNamespaces);
    }

    private void step(Consumer<WriteSession> change) {
        ensureUsable();
        batch.step(change);
        changed();
    }

    @Override
    public void clear(Resource... contexts) throws SailException {
        ensureUsable();
        batch.clear(contexts);
        changed();
    }

    @Override
    public void approve(Resource subj, IRI pred, Value obj, Resource ctx) throws SailException {
        ensureUsable();
        batch.add(subj, pred, obj, ctx);
        changed();
    }

    @Override
    public void deprecate(Statement statement) throws SailException {
        ensureUsable();
        batch.remove(statement);
        changed();
    }
}
