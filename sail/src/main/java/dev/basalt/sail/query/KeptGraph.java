package dev.basalt.sail.query;

import java.util.Map;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.query.impl.IteratingGraphQueryResult;

import dev.basalt.optimizer.rdf4j.StatementIds;

/**
 * The graph result of a DESCRIBE that {@link QueryFront#answer} ran by its kept plan: its statements, and the same
 * statements as term ids ({@link #ids}) of the store's committed state, for a writer that keeps encoded terms by id
 * per {@link #termSpace}. A reader takes the statements or the ids, not both. Closing it closes the plan's rows and
 * releases their snapshot either way.
 *
 * <p>Not thread-safe: read by the thread that writes the answer.
 */
public final class KeptGraph extends IteratingGraphQueryResult {
    private final NativeQueries.AttachedRows.Ids ids;

    KeptGraph(Map<String, String> namespaces, CloseableIteration<? extends Statement> statements,
            NativeQueries.AttachedRows.Ids ids) {
        super(namespaces, statements);
        this.ids = ids;
    }

    /** The statements as ids: subject, predicate and object of each, in the order of the statements. */
    public StatementIds ids() {
        return ids;
    }

    /** The identity of the id space of {@link #ids} (one per open store's lexicon). */
    public Object termSpace() {
        return ids.termSpace();
    }
}
