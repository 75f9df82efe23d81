package dev.basalt.sail;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.common.transaction.TransactionSetting;
import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.order.StatementOrder;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.EvaluationStrategy;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.SailReadOnlyException;
import org.eclipse.rdf4j.sail.base.SailSourceConnection;
import org.eclipse.rdf4j.sail.base.SailStore;
import org.eclipse.rdf4j.sail.UpdateContext;
import org.eclipse.rdf4j.sail.helpers.DefaultSailChangedEvent;

import dev.basalt.optimizer.rdf4j.QueryHints;
import dev.basalt.sail.spill.SpillOwner;
import dev.basalt.sail.query.NativeQueries;
import dev.basalt.sail.query.SessionDataset;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.StatementSet;
import dev.basalt.sail.write.BulkWrite;
import dev.basalt.sail.write.StoreWriter;
import dev.basalt.sail.write.TransactionInferences;
import dev.basalt.sail.write.UnisolatedSink;
import dev.basalt.sail.write.WriteThroughTransaction;

/**
 * A connection to a {@link BasaltStore}, built on RDF4J's {@link SailSourceConnection}: changes
 * stay private to the connection (in RDF4J's change sets) until commit, so any number of
 * connections, also in one thread, can interleave writes without waiting for each other. At
 * isolation NONE there is no change set: an update operation writes through to the store and,
 * once it exceeds one batch, holds the store's writer until it ends (see {@link UnisolatedSink}).
 *
 * <p>An isolated transaction that grows past {@code largeTransactionThreshold} additions writes
 * through into the store's write transaction from then on, holding the store writer until it ends
 * ({@link WriteThroughTransaction}); its commit, rollback or close ends that hold.
 *
 * <p>Commit runs RDF4J's flush of the connection's inferred and explicit changes inside one
 * commit group of the store writer, so both become one atomic commit point of the journal (see
 * {@link StoreWriter}), which is durable when {@code commit()} returns. {@link #size} is answered
 * by exact range counts when the connection has no transaction open.
 *
 * <p>A read-as-of connection (see {@link BasaltStore#getConnectionAsOf(long)}) reads one past
 * commit point and refuses to begin a transaction.
 *
 * <p>Queries and explanations go to the evaluator that answers them through {@link QueryRouter}: a pending
 * root of the repository's query front door runs its shape's kept plan alone where it can, every other query
 * goes through RDF4J's {@code evaluateInternal} with Basalt's strategy in it ({@link #getEvaluationStrategy}).
 * The store's query timeout applies to both.
 */
public class BasaltStoreConnection extends SailSourceConnection {
    private final BasaltStore basalt;
    private final BasaltSailStore backing;
    private final PastSailStore past;
    /** This connection's view of the store, the owner of its commit groups. */
    private final SailStore store;
    private volatile DefaultSailChangedEvent changes;
    /** Spill stores of the open transaction's private change sets, deleted at once on rollback. */
    private volatile SpillOwner spills = new SpillOwner();
    /** Where this connection's queries and explanations are evaluated. */
    private final QueryRouter queries;
    /** The open transaction's own inferences before commit, or null when the store keeps no closure. */
    private final TransactionInferences inferences;
    /**
     * The evaluation mode RDF4J's strategy would get for this connection's queries: the store's default, or the one
     * the transaction settings named until the transaction ends, as {@code SailSourceConnection} keeps it ({@link Rdf4jInternals}
     * dependency 9). A kept plan run without RDF4J's strategy is looked up with it.
     */
    private volatile QueryEvaluationMode evaluationMode;

    BasaltStoreConnection(BasaltStore sail, SailStore store, BasaltSailStore backing, PastSailStore past) {
        super(sail, store, sail.getEvaluationStrategyFactory());
        this.basalt = sail;
        this.backing = backing;
        this.past = past;
        this.store = store;
        this.changes = new DefaultSailChangedEvent(sail);
        this.queries = new QueryRouter(this, sail, backing, past);
        this.evaluationMode = sail.getDefaultQueryEvaluationMode();
        this.inferences = past == null && backing.reasoner() != null
                ? new TransactionInferences(backing.reasoner(), backing.latest(), sail.getValueFactory())
                : null;
    }

    /**
     * True while the open transaction's own inferences are shown to it before commit: the store
     * keeps a closure and the transaction is isolated (at NONE each operation commits with its
     * inferences).
     */
    private boolean previewsInferences() {
        return inferences != null && isActive() && !IsolationLevels.NONE.isCompatibleWith(getTransactionIsolation());
    }

    /** Before a read that includes inferred statements: the transaction's inferences brought up to date. */
    private void showOwnInferences(boolean includeInferred) {
        if (!includeInferred || !previewsInferences()) {
            return;
        }
        if (isWritingThrough()) {
            inferences.overflow();
        }
        boolean written = inferences.refresh(this::explicitInTransaction,
                st -> super.addInferredStatement(st.getSubject(), st.getPredicate(), st.getObject(), (Resource) null),
                st -> super.removeInferredStatement(st.getSubject(), st.getPredicate(), st.getObject(),
                        (Resource) null));
        if (written) {
            // RDF4J keeps inferred writes in a sink of their own until flushed into the transaction's branch
            flushUpdates();
        }
    }

    private boolean explicitInTransaction(Statement st) {
        try (CloseableIteration<? extends Statement> it = super.getStatementsInternal(st.getSubject(),
                st.getPredicate(), st.getObject(), false)) {
            return it.hasNext();
        }
    }

    /** Tells the preview of the transaction's inferences about the explicit triples matching a removal or clear. */
    private void noteRemovals(Resource subj, IRI pred, Value obj, Resource... contexts) {
        if (!previewsInferences()) {
            return;
        }
        if (subj != null && pred != null && obj != null) {
            inferences.removed(subj, pred, obj);
            return;
        }
        try (CloseableIteration<? extends Statement> it = super.getStatementsInternal(subj, pred, obj, false,
                contexts)) {
            int n = 0;
            while (it.hasNext()) {
                if (++n > TransactionInferences.CHANGE_LIMIT) {
                    inferences.overflow();
                    return;
                }
                Statement st = it.next();
                inferences.removed(st.getSubject(), st.getPredicate(), st.getObject());
            }
        }
    }

    @Override
    protected CloseableIteration<? extends Statement> getStatementsInternal(Resource subj, IRI pred, Value obj,
            boolean includeInferred, Resource... contexts) throws SailException {
        showOwnInferences(includeInferred);
        return super.getStatementsInternal(subj, pred, obj, includeInferred, contexts);
    }

    @Override
    protected CloseableIteration<? extends Statement> getStatementsInternal(StatementOrder order, Resource subj,
            IRI pred, Value obj, boolean includeInferred, Resource... contexts) throws SailException {
        showOwnInferences(includeInferred);
        return super.getStatementsInternal(order, subj, pred, obj, includeInferred, contexts);
    }

    /** True while this connection's transaction writes through into the store (a large transaction). */
    boolean isWritingThrough() {
        return store instanceof IsolatingSailStore isolating && isolating.isWritingThrough();
    }

    /** True for a read-only connection to a past commit point. */
    public boolean isReadAsOf() {
        return past != null;
    }

    /** The commit counter a read-as-of connection reads, or -1 for a normal connection. */
    public long getAsOfCommit() {
        return past == null ? -1 : past.view().commitCounter();
    }

    /** Marks a read-as-of connection opened for a query's as-of hint, which it then answers itself. */
    void servesHint(QueryHints.AsOf asOf) {
        queries.servesHint(asOf);
    }

    /**
     * Evaluates a query, stopped after the store's {@code queryTimeoutSeconds} if it has one (a
     * shorter per-query limit of RDF4J's still applies on top).
     */
    @Override
    protected CloseableIteration<? extends BindingSet> evaluateInternal(TupleExpr tupleExpr, Dataset dataset,
            BindingSet bindings, boolean includeInferred) throws SailException {
        showOwnInferences(includeInferred);
        CloseableIteration<? extends BindingSet> result = queries.evaluate(tupleExpr, dataset, bindings, includeInferred);
        return NativeQueries.timeLimited(result, basalt.getQueryTimeoutSeconds());
    }

    /** RDF4J's own evaluation of a query on this connection, for {@link QueryRouter}. */
    CloseableIteration<? extends BindingSet> evaluateWithRdf4j(TupleExpr tupleExpr, Dataset dataset,
            BindingSet bindings, boolean includeInferred) {
        return super.evaluateInternal(tupleExpr, dataset, bindings, includeInferred);
    }

    /** True while a transaction at SERIALIZABLE is open. */
    boolean inSerializableTransaction() {
        return isActive() && getTransactionIsolation().isCompatibleWith(IsolationLevels.SERIALIZABLE);
    }

    /** Routed as queries are ({@link QueryRouter#explain}). */
    @Override
    public Explanation explain(Explanation.Level level, TupleExpr tupleExpr, Dataset dataset, BindingSet bindings,
            boolean includeInferred, int timeoutSeconds) {
        return queries.explain(level, tupleExpr, dataset, bindings, includeInferred, timeoutSeconds);
    }

    /** RDF4J's own explanation of a query on this connection, for {@link QueryRouter}. */
    Explanation explainWithRdf4j(Explanation.Level level, TupleExpr tupleExpr, Dataset dataset, BindingSet bindings,
            boolean includeInferred, int timeoutSeconds) {
        return super.explain(level, tupleExpr, dataset, bindings, includeInferred, timeoutSeconds);
    }

    @Override
    public void setTransactionSettings(TransactionSetting... settings) {
        QueryEvaluationMode mode = basalt.getDefaultQueryEvaluationMode();
        for (TransactionSetting setting : settings) {
            if (setting instanceof QueryEvaluationMode m) {
                mode = m;
            }
        }
        super.setTransactionSettings(settings);
        evaluationMode = mode;
    }

    /** The evaluation mode this connection's queries are evaluated in (see {@link #setTransactionSettings}). */
    QueryEvaluationMode evaluationMode() {
        return evaluationMode;
    }

    @Override
    protected EvaluationStrategy getEvaluationStrategy(Dataset dataset, TripleSource tripleSource) {
        NativeQueries.Session session = SessionDataset.sessionOf(dataset);
        Dataset own = SessionDataset.datasetOf(dataset);
        EvaluationStrategy rdf4j = super.getEvaluationStrategy(own, tripleSource);
        return session == null ? rdf4j : session.strategy(rdf4j, own, tripleSource);
    }

    @Override
    protected void startTransactionInternal() throws SailException {
        if (past != null) {
            throw new SailReadOnlyException("this connection reads commit point " + past.view().commitCounter()
                    + " of a Basalt store as of the past and cannot change it");
        }
        if (store instanceof IsolatingSailStore isolating) {
            isolating.beginTransaction(getTransactionIsolation());
        }
        if (inferences != null) {
            inferences.reset();
        }
        super.startTransactionInternal();
    }

    @Override
    protected void commitInternal() throws SailException {
        spills.handOver();
        spills = new SpillOwner();
        StoreWriter writer = backing.writer();
        writer.beginGroup(store);
        boolean flushed = false;
        try {
            super.commitInternal();
            flushed = true;
        } finally {
            evaluationMode = basalt.getDefaultQueryEvaluationMode(); // as RDF4J's commit does
            try {
                writer.endGroup(store, flushed);
            } finally {
                endTransaction(flushed);
            }
        }
        basalt.notifySailChanged(changes);
        changes = new DefaultSailChangedEvent(basalt);
    }

    /** Ends a large transaction's hold on the store writer: commits it if {@code success}, else discards it. */
    private void endTransaction(boolean success) {
        if (inferences != null) {
            inferences.reset();
        }
        if (store instanceof IsolatingSailStore isolating) {
            isolating.endTransaction(success);
        }
    }

    @Override
    protected void rollbackInternal() throws SailException {
        try {
            super.rollbackInternal();
        } finally {
            evaluationMode = basalt.getDefaultQueryEvaluationMode(); // as RDF4J's rollback does
            try {
                endTransaction(false);
            } finally {
                releaseSpills();
            }
        }
        changes = new DefaultSailChangedEvent(basalt);
    }

    private void releaseSpills() {
        SpillOwner s = spills;
        spills = new SpillOwner();
        s.releaseAll();
    }

    /**
     * Runs a write operation so that change set models it creates belong to this connection's
     * transaction (see {@link SpillOwner}); only when the transaction is isolated, since at NONE
     * each operation's changes are written and released when the operation ends.
     */
    private <T> T owned(java.util.function.Supplier<T> operation) {
        if (!isActive() || IsolationLevels.NONE.isCompatibleWith(getTransactionIsolation())) {
            return operation.get();
        }
        return spills.call(operation);
    }

    /**
     * Adds many explicit statements in this connection's open transaction through the bulk
     * loader's pipeline ({@link BulkWrite}) instead of one by one. The connection's pending
     * operation is flushed first; an isolated transaction is then made to write through into the
     * store ({@link WriteThroughTransaction}) whatever its size, so the bulk write becomes part of
     * it and commits or rolls back with it; at isolation NONE the bulk write is one operation,
     * committed when it ends. A bulk write that fails leaves the transaction able only to roll back.
     *
     * <p>Returns false, having read nothing, when the bulk path cannot be taken now: connection
     * listeners want each statement, the store holds inferred statements that its own reasoner
     * does not keep (with {@code basalt:inference} the commit maintains the closure from the bulk
     * write's additions), or an isolated
     * transaction cannot write through (large transactions disabled, another connection holds
     * the store's writer, or another commit came after this transaction began); the caller then
     * adds the statements one by one.
     *
     * @return true if {@code write} ran
     */
    public boolean addBulk(BulkWrite write) throws SailException {
        verifyIsOpen();
        verifyIsActive();
        if (past != null) {
            throw new SailReadOnlyException("this connection reads commit point " + past.view().commitCounter()
                    + " of a Basalt store as of the past and cannot change it");
        }
        if (!(store instanceof IsolatingSailStore isolating) || hasConnectionListeners()) {
            return false; // listeners are told of each statement: only the per-statement path does that
        }
        flush();
        boolean isolated = !IsolationLevels.NONE.isCompatibleWith(getTransactionIsolation());
        if (isolated && !isolating.writeThroughNow()) {
            return false;
        }
        if (isolating.bulkWrite(write) < 0) {
            return false; // another inferencer's statements in the store: the per-statement path tells it of each
        }
        changes.setStatementsAdded(true);
        return true;
    }

    @Override
    public void addStatement(UpdateContext op, Resource subj, IRI pred, Value obj, Resource... contexts) {
        owned(() -> {
            super.addStatement(op, subj, pred, obj, contexts);
            return null;
        });
        if (previewsInferences()) {
            inferences.added(subj, pred, obj);
        }
    }

    @Override
    public void removeStatement(UpdateContext op, Resource subj, IRI pred, Value obj, Resource... contexts) {
        noteRemovals(subj, pred, obj, contexts);
        owned(() -> {
            super.removeStatement(op, subj, pred, obj, contexts);
            return null;
        });
    }

    @Override
    protected void addStatementInternal(Resource subj, IRI pred, Value obj, Resource... contexts) {
        changes.setStatementsAdded(true);
    }

    @Override
    protected void removeStatementsInternal(Resource subj, IRI pred, Value obj, Resource... contexts) {
        changes.setStatementsRemoved(true);
    }

    @Override
    public boolean addInferredStatement(Resource subj, IRI pred, Value obj, Resource... contexts) {
        boolean added = owned(() -> super.addInferredStatement(subj, pred, obj, contexts));
        changes.setStatementsAdded(true);
        return added;
    }

    @Override
    public boolean removeInferredStatement(Resource subj, IRI pred, Value obj, Resource... contexts) {
        boolean removed = owned(() -> super.removeInferredStatement(subj, pred, obj, contexts));
        changes.setStatementsRemoved(true);
        return removed;
    }

    @Override
    protected void clearInternal(Resource... contexts) {
        noteRemovals(null, null, null, contexts);
        super.clearInternal(contexts);
        changes.setStatementsRemoved(true);
    }

    @Override
    public void clearInferred(Resource... contexts) {
        super.clearInferred(contexts);
        changes.setStatementsRemoved(true);
    }

    @Override
    protected long sizeInternal(Resource... contexts) throws SailException {
        if (past != null) {
            return BasaltSailStore.size(past.view(), StatementSet.EXPLICIT, contexts);
        }
        if (!isActive()) {
            try (ReadSource.Lease lease = backing.latest().acquire()) {
                return BasaltSailStore.size(lease.view(), StatementSet.EXPLICIT, contexts);
            }
        }
        return super.sizeInternal(contexts);
    }

    @Override
    protected void closeInternal() throws SailException {
        try {
            super.closeInternal();
        } finally {
            endTransaction(false);
            releaseSpills();
            if (past != null) {
                past.close();
            }
        }
    }
}
