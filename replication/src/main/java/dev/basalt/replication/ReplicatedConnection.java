package dev.basalt.replication;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.sail.SailConnection;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.UnknownSailTransactionStateException;
import org.eclipse.rdf4j.sail.UpdateContext;
import org.eclipse.rdf4j.sail.helpers.SailConnectionWrapper;

import dev.basalt.replication.log.ChangeSet;
import dev.basalt.replication.log.ChangeSet.NamespaceChange;
import dev.basalt.replication.log.ChangeSetCodec;

/**
 * A connection of a {@link ReplicatedSail}. Reads go to the local store. A transaction runs on the
 * local store's connection as usual, so its reads, SPARQL UPDATE's WHERE clauses included, see its
 * own pending writes; meanwhile every write is recorded as its effect on concrete statements
 * (a removal by pattern or a {@code clear} is expanded to the statements it matches in the
 * transaction's view). At commit the local transaction is rolled back and the recorded change set
 * goes through the replication log, whose state machine applies it here and on every replica.
 * {@link #lastCommitIndex()} is the log index of the last commit made through this connection.
 *
 * <p>Used by one thread at a time, as RDF4J's sail connections are.
 */
final class ReplicatedConnection extends SailConnectionWrapper {
    private final ReplicatedSail sail;
    private final ValueFactory vf;
    /** The open transaction's changes; null outside a transaction. */
    private ChangeSet changes;
    private long lastCommitIndex = -1;

    ReplicatedConnection(ReplicatedSail sail, SailConnection local) {
        super(local);
        this.sail = sail;
        this.vf = sail.getValueFactory();
    }

    long lastCommitIndex() {
        return lastCommitIndex;
    }

    @Override
    public void begin() throws SailException {
        begin(sail.getDefaultIsolationLevel());
    }

    @Override
    public void begin(IsolationLevel level) throws SailException {
        IsolationLevel chosen = level == null ? sail.getDefaultIsolationLevel()
                : IsolationLevels.getCompatibleIsolationLevel(level, ReplicatedSail.LEVELS);
        if (chosen == null) {
            throw new UnknownSailTransactionStateException("a replicated Basalt store offers isolation up to "
                    + "SNAPSHOT_READ, not " + level);
        }
        // NONE would write the local store directly; the local store is written by the log only
        super.begin(chosen == IsolationLevels.NONE ? IsolationLevels.READ_COMMITTED : chosen);
        changes = new ChangeSet();
    }

    @Override
    public void commit() throws SailException {
        ChangeSet committing = changes;
        if (committing == null) {
            super.commit();
            return;
        }
        changes = null;
        super.rollback();
        if (committing.isEmpty()) {
            return;
        }
        try {
            lastCommitIndex = sail.commit(ChangeSetCodec.encode(committing));
        } catch (IOException e) {
            throw new SailException("commit not acknowledged by replica " + sail.settings().nodeId() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public void rollback() throws SailException {
        changes = null;
        super.rollback();
    }

    @Override
    public void close() throws SailException {
        changes = null;
        super.close();
    }

    @Override
    public void addStatement(Resource subj, IRI pred, Value obj, Resource... contexts) throws SailException {
        ChangeSet c = active();
        super.addStatement(subj, pred, obj, contexts);
        recordAdd(c, subj, pred, obj, contexts);
    }

    @Override
    public void addStatement(UpdateContext op, Resource subj, IRI pred, Value obj, Resource... contexts)
            throws SailException {
        ChangeSet c = active();
        super.addStatement(op, subj, pred, obj, contexts);
        recordAdd(c, subj, pred, obj, contexts);
    }

    @Override
    public void removeStatements(Resource subj, IRI pred, Value obj, Resource... contexts) throws SailException {
        recordRemovals(active(), subj, pred, obj, contexts);
        super.removeStatements(subj, pred, obj, contexts);
    }

    @Override
    public void removeStatement(UpdateContext op, Resource subj, IRI pred, Value obj, Resource... contexts)
            throws SailException {
        recordRemovals(active(), subj, pred, obj, contexts);
        super.removeStatement(op, subj, pred, obj, contexts);
    }

    @Override
    public void clear(Resource... contexts) throws SailException {
        recordRemovals(active(), null, null, null, contexts);
        super.clear(contexts);
    }

    @Override
    public void setNamespace(String prefix, String name) throws SailException {
        ChangeSet c = active();
        super.setNamespace(prefix, name);
        c.namespace(new NamespaceChange(NamespaceChange.Kind.SET, prefix, name));
    }

    @Override
    public void removeNamespace(String prefix) throws SailException {
        ChangeSet c = active();
        super.removeNamespace(prefix);
        c.namespace(new NamespaceChange(NamespaceChange.Kind.REMOVE, prefix, null));
    }

    @Override
    public void clearNamespaces() throws SailException {
        ChangeSet c = active();
        super.clearNamespaces();
        c.namespace(new NamespaceChange(NamespaceChange.Kind.CLEAR, null, null));
    }

    private ChangeSet active() {
        if (changes == null) {
            throw new UnknownSailTransactionStateException("no transaction active on this replicated connection;"
                    + " call begin() before writing");
        }
        return changes;
    }

    private void recordAdd(ChangeSet c, Resource subj, IRI pred, Value obj, Resource... contexts) {
        if (contexts.length == 0) {
            c.add(vf.createStatement(subj, pred, obj));
        }
        for (Resource ctx : contexts) {
            c.add(ctx == null ? vf.createStatement(subj, pred, obj) : vf.createStatement(subj, pred, obj, ctx));
        }
    }

    /**
     * Records what a removal takes away: the statement itself when it is fully given, else every
     * explicit statement matching the pattern in this transaction's view.
     */
    private void recordRemovals(ChangeSet c, Resource subj, IRI pred, Value obj, Resource... contexts) {
        if (subj != null && pred != null && obj != null && contexts.length > 0) {
            for (Resource ctx : contexts) {
                c.remove(ctx == null ? vf.createStatement(subj, pred, obj) : vf.createStatement(subj, pred, obj, ctx));
            }
            return;
        }
        List<Statement> matched = new ArrayList<>();
        try (CloseableIteration<? extends Statement> it = getWrappedConnection().getStatements(subj, pred, obj, false,
                contexts)) {
            while (it.hasNext()) {
                matched.add(it.next());
            }
        }
        matched.forEach(c::remove);
    }
}
