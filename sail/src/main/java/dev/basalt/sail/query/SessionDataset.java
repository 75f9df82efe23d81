package dev.basalt.sail.query;

import java.util.Collections;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.query.Dataset;

/**
 * A query's dataset (possibly none) with the query's native session attached: how
 * {@code BasaltStoreConnection#evaluateInternal} hands the session to its own {@code getEvaluationStrategy}
 * through RDF4J's {@code SailSourceConnection.evaluateInternal}, which passes its dataset argument to
 * {@code getEvaluationStrategy} and uses it for nothing else ({@code Rdf4jInternals}, dependency 3). The
 * connection takes it apart again there ({@link #sessionOf}, {@link #datasetOf}); nothing else sees it. Its
 * {@code Dataset} methods answer as the query's dataset (an empty one when the query has none).
 *
 * <p>Thread-safe: immutable; the session is used by the evaluating thread only.
 */
public final class SessionDataset implements Dataset {
    private final Dataset dataset;
    private final NativeQueries.Session session;

    public SessionDataset(Dataset dataset, NativeQueries.Session session) {
        this.dataset = dataset;
        this.session = session;
    }

    /** The session {@code dataset} carries, or null. */
    public static NativeQueries.Session sessionOf(Dataset dataset) {
        return dataset instanceof SessionDataset s ? s.session : null;
    }

    /** The query's own dataset (null for none). */
    public static Dataset datasetOf(Dataset dataset) {
        return dataset instanceof SessionDataset s ? s.dataset : dataset;
    }

    @Override
    public Set<IRI> getDefaultRemoveGraphs() {
        return dataset == null ? Collections.emptySet() : dataset.getDefaultRemoveGraphs();
    }

    @Override
    public IRI getDefaultInsertGraph() {
        return dataset == null ? null : dataset.getDefaultInsertGraph();
    }

    @Override
    public Set<IRI> getDefaultGraphs() {
        return dataset == null ? Collections.emptySet() : dataset.getDefaultGraphs();
    }

    @Override
    public Set<IRI> getNamedGraphs() {
        return dataset == null ? Collections.emptySet() : dataset.getNamedGraphs();
    }
}
