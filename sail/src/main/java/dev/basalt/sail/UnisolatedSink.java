package dev.basalt.sail;

import java.util.Set;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.Changeset;
import org.eclipse.rdf4j.sail.base.SailSink;
import org.eclipse.rdf4j.sail.base.SailSource;

/**
 * The sink of one update operation of a connection at isolation NONE (see
 * {@link IsolatingSailStore}): changes collect in a one-off RDF4J branch and {@link #flush()}
 * writes them to the store and commits them, in a commit group, before it returns. Closing without
 * a flush drops them. Within a connection's own commit group the commit waits for the group's end.
 */
final class UnisolatedSink implements SailSink {
    private final SailSource branch;
    private final SailSink changes;
    private final StoreWriter writer;

    UnisolatedSink(SailSource branch, IsolationLevel level, StoreWriter writer) {
        this.branch = branch;
        this.changes = branch.sink(level);
        this.writer = writer;
    }

    @Override
    public void prepare() throws SailException {
        changes.prepare();
    }

    @Override
    public void flush() throws SailException {
        changes.flush();
        writer.beginGroup();
        boolean written = false;
        try {
            branch.flush();
            written = true;
        } finally {
            writer.endGroup(written);
        }
    }

    @Override
    public void close() throws SailException {
        try {
            changes.close();
        } finally {
            branch.close();
        }
    }

    @Override
    public void setNamespace(String prefix, String name) throws SailException {
        changes.setNamespace(prefix, name);
    }

    @Override
    public void removeNamespace(String prefix) throws SailException {
        changes.removeNamespace(prefix);
    }

    @Override
    public void clearNamespaces() throws SailException {
        changes.clearNamespaces();
    }

    @Override
    public void clear(Resource... contexts) throws SailException {
        changes.clear(contexts);
    }

    @Override
    public void observe(Resource subj, IRI pred, Value obj, Resource... contexts) throws SailException {
        changes.observe(subj, pred, obj, contexts);
    }

    @Override
    public void observe(Resource subj, IRI pred, Value obj, Resource context) throws SailException {
        changes.observe(subj, pred, obj, context);
    }

    @Override
    public void observeAll(Set<Changeset.SimpleStatementPattern> observed) {
        changes.observeAll(observed);
    }

    @Override
    public void approve(Resource subj, IRI pred, Value obj, Resource ctx) throws SailException {
        changes.approve(subj, pred, obj, ctx);
    }

    @Override
    public void approve(Statement statement) throws SailException {
        changes.approve(statement);
    }

    @Override
    public void approveAll(Set<Statement> approved, Set<Resource> approvedContexts) {
        changes.approveAll(approved, approvedContexts);
    }

    @Override
    public void deprecate(Statement statement) throws SailException {
        changes.deprecate(statement);
    }

    @Override
    public void deprecateAll(Set<Statement> deprecated) {
        changes.deprecateAll(deprecated);
    }

    @Override
    public boolean deprecateByQuery(Resource subj, IRI pred, Value obj, Resource[] contexts) {
        return changes.deprecateByQuery(subj, pred, obj, contexts);
    }

    @Override
    public boolean supportsDeprecateByQuery() {
        return changes.supportsDeprecateByQuery();
    }
}
