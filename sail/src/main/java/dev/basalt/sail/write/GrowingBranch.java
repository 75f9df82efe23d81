package dev.basalt.sail.write;

import java.util.Set;
import java.util.function.Supplier;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Namespace;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.Changeset;
import org.eclipse.rdf4j.sail.base.SailClosable;
import org.eclipse.rdf4j.sail.base.SailDataset;
import org.eclipse.rdf4j.sail.base.SailSink;
import org.eclipse.rdf4j.sail.base.SailSource;
import dev.basalt.sail.read.BasaltSailDataset;
import dev.basalt.sail.read.StatementSet;

/**
 * The explicit statements of one isolated transaction: RDF4J's branch while the transaction is
 * small, the store's write transaction once it is promoted (see {@link WriteThroughTransaction}).
 * Sinks and datasets it hands out switch with it, also those handed out before the promotion
 * (RDF4J keeps an operation's sink and dataset for the whole operation, and an
 * {@code add(file)} is one operation):
 * <ul>
 * <li>a sink passes changes to its RDF4J change set, counting additions; the addition that
 * reaches the threshold promotes the transaction, if this is the branch's only open sink (an
 * update operation's pending changes must not be handed over before it ends). Promotion flushes
 * that change set into the branch and the branch into the store, then the sink writes through an
 * {@link UnisolatedSink} gated by the transaction's open reads;</li>
 * <li>a dataset reads RDF4J's branch before, and a live view of the write transaction after.</li>
 * </ul>
 * {@code prepare()} and {@code flush()} go to RDF4J's branch until promotion; afterwards there is
 * nothing to check (nothing else commits meanwhile) and the connection's commit ends the
 * transaction.
 *
 * <p>Thread rules: as RDF4J's branch, used by its connection one thread at a time.
 */
public final class GrowingBranch implements SailSource {
    private final SailSource branch;
    private final WriteThroughTransaction tx;
    private final StatementSet set;
    private final ValueFactory vf;
    private int openSinks;

    public GrowingBranch(SailSource branch, WriteThroughTransaction tx, StatementSet set, ValueFactory vf) {
        this.branch = branch;
        this.tx = tx;
        this.set = set;
        this.vf = vf;
    }

    /**
     * Promotes the transaction now, whatever its size, for a bulk write (see
     * {@code IsolatingSailStore#writeThroughNow()}): only while no sink of the branch is open (the
     * connection flushed its pending operation) and promotion is possible at all.
     *
     * @return true if the transaction writes through (now or already)
     */
    public boolean promoteNow() {
        if (tx.isPromoted()) {
            return true;
        }
        if (openSinks > 0 || !tx.mayPromote()) {
            return false;
        }
        return tx.promote(branch::flush);
    }

    @Override
    public SailSource fork() {
        if (tx.isPromoted()) {
            throw new SailException("a large transaction that writes through into the Basalt store cannot be forked");
        }
        return branch.fork();
    }

    @Override
    public SailSink sink(IsolationLevel level) throws SailException {
        if (tx.isPromoted()) {
            return new Sink(null);
        }
        return new Sink(branch.sink(level));
    }

    @Override
    public SailDataset dataset(IsolationLevel level) throws SailException {
        return new Dataset(tx.isPromoted() ? null : branch.dataset(level));
    }

    private SailDataset live() {
        return new BasaltSailDataset(((LiveReads) tx.reads()).datasetLease(), set, vf);
    }

    @Override
    public void prepare() throws SailException {
        tx.ensureUsable();
        if (!tx.isPromoted()) {
            branch.prepare();
        }
    }

    @Override
    public void flush() throws SailException {
        tx.ensureUsable();
        if (!tx.isPromoted()) {
            branch.flush();
        }
    }

    @Override
    public void close() throws SailException {
        branch.close();
    }

    /**
     * Runs an operation of the connection as one the transaction is busy with: a promoted
     * transaction cannot lose the writer to a waiting commit meanwhile (see
     * {@link WriteThroughTransaction#preemptIfIdle()}).
     */
    private <T> T busy(Supplier<T> operation) {
        tx.enter();
        try {
            return operation.get();
        } finally {
            tx.exit();
        }
    }

    private void busy(Runnable operation) {
        tx.enter();
        try {
            operation.run();
        } finally {
            tx.exit();
        }
    }

    /** Closes both (either may be null), the second also if closing the first fails. */
    private static void closeBoth(SailClosable first, SailClosable second) {
        try {
            if (first != null) {
                first.close();
            }
        } finally {
            if (second != null) {
                second.close();
            }
        }
    }

    /** Passes changes to RDF4J's change set until the transaction is promoted, then writes them through. */
    private final class Sink implements SailSink {
        private SailSink small;
        private SailSink large;
        private boolean closed;

        Sink(SailSink small) {
            this.small = small;
            openSinks++;
            if (small == null) {
                large = new UnisolatedSink(tx.writer(), set, tx.owner(), tx.gate());
            }
        }

        private SailSink current() {
            tx.ensureUsable();
            return large != null ? large : small;
        }

        private void promoteIfDue(int added) {
            if (large == null && tx.count(added) && openSinks == 1) {
                SailSink changes = small;
                if (tx.promote(() -> {
                    changes.flush();
                    changes.close();
                    branch.flush();
                })) {
                    small = null;
                    large = new UnisolatedSink(tx.writer(), set, tx.owner(), tx.gate());
                }
            }
        }

        @Override
        public void approve(Resource subj, IRI pred, Value obj, Resource ctx) throws SailException {
            busy(() -> {
                current().approve(subj, pred, obj, ctx);
                promoteIfDue(1);
            });
        }

        @Override
        public void approve(Statement statement) throws SailException {
            busy(() -> {
                current().approve(statement);
                promoteIfDue(1);
            });
        }

        @Override
        public void deprecate(Statement statement) throws SailException {
            busy(() -> current().deprecate(statement));
        }

        @Override
        public void deprecateAll(Set<Statement> deprecated) {
            busy(() -> current().deprecateAll(deprecated));
        }

        @Override
        public void clear(Resource... contexts) throws SailException {
            busy(() -> current().clear(contexts));
        }

        @Override
        public void setNamespace(String prefix, String name) throws SailException {
            busy(() -> current().setNamespace(prefix, name));
        }

        @Override
        public void removeNamespace(String prefix) throws SailException {
            busy(() -> current().removeNamespace(prefix));
        }

        @Override
        public void clearNamespaces() throws SailException {
            busy(() -> current().clearNamespaces());
        }

        @Override
        public void observe(Resource subj, IRI pred, Value obj, Resource... contexts) throws SailException {
            // once promoted nothing else commits before this transaction: its reads need no check
            if (large == null) {
                small.observe(subj, pred, obj, contexts);
            }
        }

        @Override
        public void observe(Resource subj, IRI pred, Value obj, Resource context) throws SailException {
            if (large == null) {
                small.observe(subj, pred, obj, context);
            }
        }

        @Override
        public void observeAll(Set<Changeset.SimpleStatementPattern> observed) {
            if (large == null) {
                small.observeAll(observed);
            }
        }

        @Override
        public void prepare() throws SailException {
            busy(() -> current().prepare());
        }

        @Override
        public void flush() throws SailException {
            busy(() -> current().flush());
        }

        @Override
        public void close() throws SailException {
            if (closed) {
                return;
            }
            closed = true;
            openSinks--;
            closeBoth(small, large);
        }
    }

    /** Reads RDF4J's branch until the transaction is promoted, then the live view. */
    private final class Dataset implements SailDataset {
        private SailDataset small;
        private SailDataset large;

        Dataset(SailDataset small) {
            this.small = small;
        }

        private SailDataset current() {
            tx.ensureUsable();
            if (large == null && tx.isPromoted()) {
                // the branch's dataset stays open until this one closes: iterations may still read it
                large = live();
            }
            return large != null ? large : small;
        }

        @Override
        public void close() throws SailException {
            closeBoth(small, large);
        }

        @Override
        public CloseableIteration<? extends Namespace> getNamespaces() throws SailException {
            return busy(() -> current().getNamespaces());
        }

        @Override
        public String getNamespace(String prefix) throws SailException {
            return busy(() -> current().getNamespace(prefix));
        }

        @Override
        public CloseableIteration<? extends Resource> getContextIDs() throws SailException {
            return busy(() -> current().getContextIDs());
        }

        @Override
        public CloseableIteration<? extends Statement> getStatements(Resource subj, IRI pred, Value obj,
                Resource... contexts) throws SailException {
            return busy(() -> current().getStatements(subj, pred, obj, contexts));
        }

        @Override
        public CloseableIteration<? extends Triple> getTriples(Resource subj, IRI pred, Value obj) throws SailException {
            return busy(() -> current().getTriples(subj, pred, obj));
        }
    }
}
