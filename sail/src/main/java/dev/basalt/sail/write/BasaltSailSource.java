package dev.basalt.sail.write;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.SailReadOnlyException;
import org.eclipse.rdf4j.sail.base.BackingSailSource;
import org.eclipse.rdf4j.sail.base.SailDataset;
import org.eclipse.rdf4j.sail.base.SailSink;
import dev.basalt.sail.read.BasaltSailDataset;
import dev.basalt.sail.read.ObservedReads;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.StatementSet;

/**
 * One statement set of the backing store as RDF4J's transaction branches see it. A dataset pins
 * the newest commit point (for a read-as-of connection, its past one) until it is closed; a sink
 * writes through the {@link StoreWriter}, or refuses to when the source is a read-only past
 * commit point (writer null).
 *
 * <p>A branch at SERIALIZABLE asks for its sink and then, at once and in the same thread, for its
 * snapshot dataset. The sink's {@link ObservedReads} must compare against exactly the commit
 * point that dataset pinned, so the sink is parked in a thread-local and the next dataset created
 * in that thread hands it a share of its lease.
 */
public final class BasaltSailSource extends BackingSailSource {
    private final ReadSource reads;
    private final StoreWriter writer;
    private final StatementSet set;
    private final ValueFactory vf;
    /** Relies on RDF4J's call order: {@code Rdf4jInternals}, dependency 2. */
    private final ThreadLocal<ObservedReads> awaitingStart = new ThreadLocal<>();

    public BasaltSailSource(ReadSource reads, StoreWriter writer, StatementSet set, ValueFactory vf) {
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
        ObservedReads observed = null;
        if (level != null && level.isCompatibleWith(IsolationLevels.SERIALIZABLE)) {
            observed = new ObservedReads(reads, set);
            awaitingStart.set(observed);
        }
        return new BasaltSailSink(writer, set, observed);
    }

    @Override
    public SailDataset dataset(IsolationLevel level) throws SailException {
        ObservedReads observed = awaitingStart.get();
        awaitingStart.remove();
        BasaltSailDataset dataset = new BasaltSailDataset(reads.acquire(), set, vf);
        if (observed != null) {
            observed.startAt(dataset.shareLease());
        }
        return dataset;
    }
}
