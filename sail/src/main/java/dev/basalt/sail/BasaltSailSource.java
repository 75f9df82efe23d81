package dev.basalt.sail;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.SailReadOnlyException;
import org.eclipse.rdf4j.sail.base.BackingSailSource;
import org.eclipse.rdf4j.sail.base.SailDataset;
import org.eclipse.rdf4j.sail.base.SailSink;

/**
 * One statement set of the backing store as RDF4J's sail-base sees it. Datasets read through a
 * {@link ReadSource}; sinks write through the {@link StoreWriter}, or refuse to when the source
 * is a read-only past commit point (writer null).
 */
final class BasaltSailSource extends BackingSailSource {
    private final ReadSource reads;
    private final StoreWriter writer;
    private final StatementSet set;
    private final ValueFactory vf;

    BasaltSailSource(ReadSource reads, StoreWriter writer, StatementSet set, ValueFactory vf) {
        this.reads = reads;
        this.writer = writer;
        this.set = set;
        this.vf = vf;
    }

    @Override
    public SailSink sink(IsolationLevel level) throws SailException {
        if (writer == null) {
            throw new SailReadOnlyException("this connection reads a past commit point of a Basalt store and cannot write");
        }
        return new BasaltSailSink(writer, set);
    }

    @Override
    public SailDataset dataset(IsolationLevel level) throws SailException {
        return new BasaltSailDataset(reads, set, vf);
    }
}
