package dev.basalt.sail;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.sail.SailException;
import dev.basalt.sail.read.FixedSnapshot;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.ReadView;

/**
 * A read-only {@link org.eclipse.rdf4j.sail.base.SailStore} over one past commit point, for a read-as-of connection: its
 * datasets read that commit point and its sinks refuse to write. Closing it closes the snapshot.
 *
 * <p>Thread-safe: read-only over one fixed commit point; the connection that owns it may be used from any
 * thread.
 */
final class PastSailStore extends SailStoreBase {
    private final FixedSnapshot reads;

    PastSailStore(FixedSnapshot reads, ValueFactory vf) {
        super(vf, reads);
        this.reads = reads;
        statementSets(reads, null);
    }

    ReadSource reads() {
        return reads;
    }

    ReadView view() {
        return reads.view();
    }

    @Override
    public void close() throws SailException {
        reads.close();
    }
}
