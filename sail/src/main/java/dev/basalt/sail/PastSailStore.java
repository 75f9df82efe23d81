package dev.basalt.sail;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.EvaluationStatistics;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.SailSource;
import org.eclipse.rdf4j.sail.base.SailStore;

/**
 * A read-only {@link SailStore} over one past commit point, for a read-as-of connection: its
 * datasets read that commit point and its sinks refuse to write. Closing it closes the snapshot.
 *
 * <p>Thread-safe: read-only over one fixed commit point; the connection that owns it may be used from any
 * thread.
 */
final class PastSailStore implements SailStore {
    private final FixedSnapshot reads;
    private final ValueFactory vf;
    private final SailSource explicit;
    private final SailSource inferred;

    PastSailStore(FixedSnapshot reads, ValueFactory vf) {
        this.reads = reads;
        this.vf = vf;
        this.explicit = new BasaltSailSource(reads, null, StatementSet.EXPLICIT, vf);
        this.inferred = new BasaltSailSource(reads, null, StatementSet.INFERRED, vf);
    }

    ReadSource reads() {
        return reads;
    }

    ReadView view() {
        return reads.view();
    }

    @Override
    public ValueFactory getValueFactory() {
        return vf;
    }

    @Override
    public EvaluationStatistics getEvaluationStatistics() {
        return new BasaltEvaluationStatistics(reads);
    }

    @Override
    public SailSource getExplicitSailSource() {
        return explicit;
    }

    @Override
    public SailSource getInferredSailSource() {
        return inferred;
    }

    @Override
    public void close() throws SailException {
        reads.close();
    }
}
