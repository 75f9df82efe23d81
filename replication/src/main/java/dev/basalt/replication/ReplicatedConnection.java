package dev.basalt.replication;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.order.StatementOrder;
import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Namespace;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.Query;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.rio.RioSetting;
import org.eclipse.rdf4j.sail.SailConnection;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.UnknownSailTransactionStateException;
import org.eclipse.rdf4j.sail.UpdateContext;
import org.eclipse.rdf4j.sail.helpers.SailConnectionWrapper;

import dev.basalt.replication.log.ChangeSet;
import dev.basalt.replication.log.ChangeSet.NamespaceChange;
import dev.basalt.replication.log.ChangeSetCodec;
import dev.basalt.replication.log.UploadEntry;
import dev.basalt.sail.repository.UploadTarget;

/**
 * A connection of a {@link ReplicatedSail}. Reads go to the local store. A transaction's writes are
 * recorded as their effect on concrete statements (a {@link ChangeSet}); at commit the change set
 * goes through the replication log, whose state machine applies it here and on every replica, so
 * the transaction is executed once on every node, the leader included. {@link #lastCommitIndex()}
 * is the log index of the last commit made through this connection.
 *
 * <p><b>Deferred local transaction.</b> A transaction that only writes (an {@code INSERT DATA}, an
 * upload, statements removed by their full quad) never touches the local store before its commit:
 * its writes are only recorded. The first read inside a transaction (a query, a
 * {@code getStatements}, {@code size}, the list of namespaces, a SPARQL UPDATE's WHERE clause, or a
 * removal by pattern or {@code clear}, which must find what they match) begins a local transaction
 * on the store's connection, writes the change set recorded so far into it and from then on
 * passes every write through as well, so the transaction's reads see its own pending writes. That
 * local transaction is only the transaction's view: at commit it is rolled back, and the log's
 * apply is the one that changes the store.
 *
 * <p><b>Uploads.</b> An N-Triples or N-Quads upload of at least {@link WholeUpload#MIN_BYTES} (RDF4J
 * Server's {@code POST .../statements}, or {@code add(InputStream, ...)} of a Basalt repository) that
 * is the first write of its transaction is not parsed here: its bytes are compressed and committed as
 * an upload entry ({@link UploadEntry}), which every replica loads with the store's bulk loader; the
 * entry's pieces go to the log while the body is still read ({@link UploadStream}), and a rollback
 * aborts the pieces sent. The
 * transaction's later writes follow it in the same entry; a later read loads the upload into the
 * local transaction first. An upload into a transaction that already wrote or read is parsed by
 * RDF4J and recorded statement by statement. A malformed upload is found by the replicas' loaders,
 * all alike: the entry is refused everywhere and the commit fails with an {@link RDFParseException}
 * holding the parser's message (RDF4J Server answers it with 400, as for one server).
 *
 * <p>Used by one thread at a time, as RDF4J's sail connections are.
 */
final class ReplicatedConnection extends SailConnectionWrapper implements UploadTarget {
    private final ReplicatedSail sail;
    private final ValueFactory vf;
    /** The open transaction's changes; null outside a transaction. */
    private ChangeSet changes;
    /** The isolation level of the local transaction, begun at the transaction's first read. */
    private IsolationLevel localLevel;
    /** True once the open transaction's local transaction is begun (see the class comment). */
    private boolean localActive;
    /** An update operation started before the local transaction was, and not yet ended. */
    private UpdateContext openUpdate;
    /** The open transaction's upload (its first write), on its way to the log, or null. */
    private WholeUpload upload;
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
        if (!super.isOpen()) {
            throw new SailException("this replicated connection is closed");
        }
        if (changes != null) {
            throw new SailException("this replicated connection already has an active transaction");
        }
        IsolationLevel chosen = level == null ? sail.getDefaultIsolationLevel()
                : IsolationLevels.getCompatibleIsolationLevel(level, ReplicatedSail.LEVELS);
        if (chosen == null) {
            throw new UnknownSailTransactionStateException("a replicated Basalt store offers isolation up to "
                    + "SNAPSHOT_READ, not " + level);
        }
        // NONE would write the local store directly; the local store is written by the log only
        localLevel = chosen == IsolationLevels.NONE ? IsolationLevels.READ_COMMITTED : chosen;
        localActive = false;
        openUpdate = null;
        upload = null;
        changes = new ChangeSet();
        sail.transactionsBegun.increment();
    }

    /**
     * Before a read inside a transaction: begins the local transaction, if it is not yet, with the
     * changes recorded so far, so that the read sees them.
     */
    private void materialize() {
        ChangeSet c = changes;
        if (c == null || localActive) {
            return;
        }
        super.begin(localLevel);
        localActive = true;
        sail.localTransactionsBegun.increment();
        if (upload != null) {
            WholeUpload.loadInto(getWrappedConnection(), upload.entry(), sail.tempDir());
        }
        for (NamespaceChange ns : c.namespaces()) {
            switch (ns.kind()) {
                case SET -> super.setNamespace(ns.prefix(), ns.name());
                case REMOVE -> super.removeNamespace(ns.prefix());
                case CLEAR -> super.clearNamespaces();
            }
        }
        for (Statement st : c.removed()) {
            super.removeStatements(st.getSubject(), st.getPredicate(), st.getObject(), new Resource[] {st.getContext()});
        }
        for (Statement st : c.added()) {
            super.addStatement(st.getSubject(), st.getPredicate(), st.getObject(), new Resource[] {st.getContext()});
        }
        if (openUpdate != null) {
            super.startUpdate(openUpdate);
        }
    }

    /** True while a transaction is open whose local transaction is not begun. */
    private boolean deferring() {
        return changes != null && !localActive;
    }

    @Override
    public boolean isActive() throws UnknownSailTransactionStateException {
        return changes != null || super.isActive();
    }

    @Override
    public void commit() throws SailException {
        ChangeSet committing = changes;
        if (committing == null) {
            super.commit();
            return;
        }
        boolean local = localActive;
        WholeUpload uploaded = upload;
        changes = null;
        upload = null;
        localActive = false;
        openUpdate = null;
        if (local) {
            super.rollback();
        }
        if (committing.isEmpty() && uploaded == null) {
            return;
        }
        try {
            lastCommitIndex = uploaded == null ? sail.commit(ChangeSetCodec.encode(committing))
                    : uploaded.commit(committing);
        } catch (IOException e) {
            RDFParseException malformed = WholeUpload.malformed(e);
            if (malformed != null) {
                throw malformed;
            }
            throw new SailException("commit not acknowledged by replica " + sail.settings().nodeId() + ": "
                    + e.getMessage(), e);
        } finally {
            if (uploaded != null) {
                uploaded.abandon(); // nothing once committed; else the parts sent are aborted
            }
        }
    }

    @Override
    public void rollback() throws SailException {
        boolean local = changes == null || localActive;
        changes = null;
        abandonUpload();
        localActive = false;
        openUpdate = null;
        if (local) {
            super.rollback();
        }
    }

    @Override
    public void prepare() throws SailException {
        if (!deferring()) {
            super.prepare();
        }
    }

    @Override
    public void flush() throws SailException {
        if (!deferring()) {
            super.flush();
        }
    }

    @Override
    public void close() throws SailException {
        changes = null;
        abandonUpload();
        localActive = false;
        openUpdate = null;
        super.close();
    }

    // reads: inside a transaction they see its writes, so its local transaction is begun first

    @Override
    public Optional<TupleExpr> prepareQuery(QueryLanguage ql, Query.QueryType type, String query, String baseURI) {
        materialize();
        return super.prepareQuery(ql, type, query, baseURI);
    }

    @Override
    public CloseableIteration<? extends BindingSet> evaluate(TupleExpr tupleExpr, Dataset dataset,
            BindingSet bindings, boolean includeInferred) throws SailException {
        materialize();
        return super.evaluate(tupleExpr, dataset, bindings, includeInferred);
    }

    @Override
    public Explanation explain(Explanation.Level level, TupleExpr tupleExpr, Dataset dataset, BindingSet bindings,
            boolean includeInferred, int timeoutSeconds) {
        materialize();
        return super.explain(level, tupleExpr, dataset, bindings, includeInferred, timeoutSeconds);
    }

    @Override
    public CloseableIteration<? extends Resource> getContextIDs() throws SailException {
        materialize();
        return super.getContextIDs();
    }

    @Override
    public CloseableIteration<? extends Statement> getStatements(Resource subj, IRI pred, Value obj,
            boolean includeInferred, Resource... contexts) throws SailException {
        materialize();
        return super.getStatements(subj, pred, obj, includeInferred, contexts);
    }

    @Override
    public CloseableIteration<? extends Statement> getStatements(StatementOrder order, Resource subj, IRI pred,
            Value obj, boolean includeInferred, Resource... contexts) throws SailException {
        materialize();
        return super.getStatements(order, subj, pred, obj, includeInferred, contexts);
    }

    @Override
    public boolean hasStatement(Resource subj, IRI pred, Value obj, boolean includeInferred, Resource... contexts)
            throws SailException {
        materialize();
        return super.hasStatement(subj, pred, obj, includeInferred, contexts);
    }

    @Override
    public long size(Resource... contexts) throws SailException {
        materialize();
        return super.size(contexts);
    }

    @Override
    public CloseableIteration<? extends Namespace> getNamespaces() throws SailException {
        materialize();
        return super.getNamespaces();
    }

    /**
     * A namespace lookup while the local transaction is not begun is answered from the recorded
     * namespace changes, or else from the store (RDF4J's inserters ask for every prefix they see,
     * SPARQL's {@code INSERT DATA} included, and need not begin a local transaction for that).
     */
    @Override
    public String getNamespace(String prefix) throws SailException {
        if (deferring()) {
            List<NamespaceChange> recorded = changes.namespaces();
            for (int i = recorded.size() - 1; i >= 0; i--) {
                NamespaceChange ns = recorded.get(i);
                if (ns.kind() == NamespaceChange.Kind.CLEAR || ns.prefix().equals(prefix)) {
                    return ns.kind() == NamespaceChange.Kind.SET ? ns.name() : null;
                }
            }
        }
        return super.getNamespace(prefix);
    }

    // writes: recorded; passed to the local transaction once it is begun

    @Override
    public void startUpdate(UpdateContext op) throws SailException {
        if (deferring()) {
            openUpdate = op;
        } else {
            super.startUpdate(op);
        }
    }

    @Override
    public void endUpdate(UpdateContext op) throws SailException {
        if (deferring()) {
            openUpdate = null;
        } else {
            super.endUpdate(op);
        }
    }

    @Override
    public void addStatement(Resource subj, IRI pred, Value obj, Resource... contexts) throws SailException {
        ChangeSet c = active();
        if (localActive) {
            super.addStatement(subj, pred, obj, contexts);
        }
        recordAdd(c, subj, pred, obj, contexts);
    }

    @Override
    public void addStatement(UpdateContext op, Resource subj, IRI pred, Value obj, Resource... contexts)
            throws SailException {
        ChangeSet c = active();
        if (localActive) {
            super.addStatement(op, subj, pred, obj, contexts);
        }
        recordAdd(c, subj, pred, obj, contexts);
    }

    @Override
    public void removeStatements(Resource subj, IRI pred, Value obj, Resource... contexts) throws SailException {
        ChangeSet c = active();
        recordRemovals(c, subj, pred, obj, contexts);
        if (localActive) {
            super.removeStatements(subj, pred, obj, contexts);
        }
    }

    @Override
    public void removeStatement(UpdateContext op, Resource subj, IRI pred, Value obj, Resource... contexts)
            throws SailException {
        ChangeSet c = active();
        recordRemovals(c, subj, pred, obj, contexts);
        if (localActive) {
            super.removeStatement(op, subj, pred, obj, contexts);
        }
    }

    @Override
    public void clear(Resource... contexts) throws SailException {
        ChangeSet c = active();
        recordRemovals(c, null, null, null, contexts);
        super.clear(contexts);
    }

    @Override
    public void setNamespace(String prefix, String name) throws SailException {
        ChangeSet c = active();
        if (localActive) {
            super.setNamespace(prefix, name);
        }
        c.namespace(new NamespaceChange(NamespaceChange.Kind.SET, prefix, name));
    }

    @Override
    public void removeNamespace(String prefix) throws SailException {
        ChangeSet c = active();
        if (localActive) {
            super.removeNamespace(prefix);
        }
        c.namespace(new NamespaceChange(NamespaceChange.Kind.REMOVE, prefix, null));
    }

    @Override
    public void clearNamespaces() throws SailException {
        ChangeSet c = active();
        if (localActive) {
            super.clearNamespaces();
        }
        c.namespace(new NamespaceChange(NamespaceChange.Kind.CLEAR, null, null));
    }

    /**
     * Takes an upload whole ({@link WholeUpload}, see the class comment) when it is the transaction's
     * first write; else declines it, {@code data} reset.
     */
    @Override
    public boolean addUpload(InputStream data, RDFFormat format, String baseUri, Resource context,
            Set<RioSetting<?>> nonFatalErrors) throws IOException {
        ChangeSet c = active();
        if (localActive || upload != null || !c.isEmpty()) {
            return false;
        }
        upload = WholeUpload.take(sail, data, format, baseUri, context, nonFatalErrors);
        return upload != null;
    }

    /** Drops the open transaction's upload, if any: the parts it sent are aborted. */
    private void abandonUpload() {
        WholeUpload dropped = upload;
        upload = null;
        if (dropped != null) {
            dropped.abandon();
        }
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
     * explicit statement matching the pattern in this transaction's view (its local transaction is
     * begun for that).
     */
    private void recordRemovals(ChangeSet c, Resource subj, IRI pred, Value obj, Resource... contexts) {
        if (subj != null && pred != null && obj != null && contexts.length > 0) {
            for (Resource ctx : contexts) {
                c.remove(ctx == null ? vf.createStatement(subj, pred, obj) : vf.createStatement(subj, pred, obj, ctx));
            }
            return;
        }
        materialize();
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
