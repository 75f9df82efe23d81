package dev.basalt.sail;

import java.time.Instant;
import java.util.List;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.CloseableIteratorIteration;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.federation.FederatedServiceResolver;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.DefaultEvaluationStrategy;

import dev.basalt.store.journal.CommitPoint;

/**
 * The readable commit points of a store as a small RDF graph, which a query with the hint
 * {@code [] <http://basalt.dev/hint#commitPoints> true} reads instead of the store's data. Each
 * commit point is one resource {@code <http://basalt.dev/commit/N>} of type {@code commit:CommitPoint}
 * in the namespace {@value #NAMESPACE}, with {@code commit:counter} (xsd:long), {@code commit:time}
 * (xsd:dateTime, UTC, milliseconds) and {@code commit:statements} (explicit statements, xsd:long).
 * The graph is built for each query from the commit points readable when it starts; it is in the
 * default graph. Stateless: any thread may build one, each query on its own thread.
 */
final class CommitPointGraph {
    public static final String NAMESPACE = "http://basalt.dev/commit#";
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    static final IRI COMMIT_POINT = VF.createIRI(NAMESPACE, "CommitPoint");
    static final IRI COUNTER = VF.createIRI(NAMESPACE, "counter");
    static final IRI TIME = VF.createIRI(NAMESPACE, "time");
    static final IRI STATEMENTS = VF.createIRI(NAMESPACE, "statements");

    private CommitPointGraph() {
    }

    /** The graph of the commit points readable now. */
    static Model build(BasaltStore sail) {
        Model m = new LinkedHashModel();
        m.setNamespace("commit", NAMESPACE);
        List<CommitPoint> points = sail.getRetainedCommits();
        for (CommitPoint p : points) {
            long statements = sail.explicitStatementsAt(p.counter());
            if (statements < 0) {
                continue; // released since the listing
            }
            IRI node = VF.createIRI("http://basalt.dev/commit/" + p.counter());
            m.add(node, RDF.TYPE, COMMIT_POINT);
            m.add(node, COUNTER, VF.createLiteral(p.counter()));
            m.add(node, TIME, VF.createLiteral(Instant.ofEpochMilli(p.timeMillis()).toString(), XSD.DATETIME));
            m.add(node, STATEMENTS, VF.createLiteral(statements));
        }
        return m;
    }

    /** Evaluates {@code query} (its hints already replaced) over {@link #build}'s graph. */
    static CloseableIteration<? extends BindingSet> evaluate(BasaltStore sail, TupleExpr query, Dataset dataset,
            BindingSet bindings, FederatedServiceResolver services) {
        Model graph = build(sail);
        TripleSource source = new TripleSource() {
            @Override
            public CloseableIteration<? extends Statement> getStatements(Resource subj, IRI pred, Value obj,
                    Resource... contexts) {
                return new CloseableIteratorIteration<>(graph.getStatements(subj, pred, obj, contexts).iterator());
            }

            @Override
            public ValueFactory getValueFactory() {
                return VF;
            }
        };
        DefaultEvaluationStrategy strategy = new DefaultEvaluationStrategy(source, dataset, services);
        return strategy.precompile(query).evaluate(bindings);
    }
}
