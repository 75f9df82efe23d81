package dev.basalt.sail.query;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.LookAheadIteration;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.BindingSet;

/**
 * The statements of a CONSTRUCT or DESCRIBE whose kept plan ran outside any connection ({@link QueryFront#answer}):
 * each row of {@code subject}, {@code predicate}, {@code object} and optionally {@code context} becomes one statement,
 * and a row whose subject is not a resource, whose predicate is not an IRI, whose object is unbound or whose context
 * is not a resource is left out, as RDF4J's graph query does with the rows of any evaluation.
 *
 * <p>Not thread-safe: read by the thread that writes the query's answer; closing it closes the rows (and releases
 * the kept plan's snapshot).
 */
final class KeptStatements extends LookAheadIteration<Statement> {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private final CloseableIteration<? extends BindingSet> rows;

    KeptStatements(CloseableIteration<? extends BindingSet> rows) {
        this.rows = rows;
    }

    @Override
    protected Statement getNextElement() {
        while (rows.hasNext()) {
            BindingSet row = rows.next();
            Value s = row.getValue("subject");
            Value p = row.getValue("predicate");
            Value o = row.getValue("object");
            Value c = row.getValue("context");
            if (s instanceof Resource subject && p instanceof IRI predicate && o != null
                    && (c == null || c instanceof Resource)) {
                return c == null ? VF.createStatement(subject, predicate, o)
                        : VF.createStatement(subject, predicate, o, (Resource) c);
            }
        }
        return null;
    }

    @Override
    protected void handleClose() {
        rows.close();
    }
}
