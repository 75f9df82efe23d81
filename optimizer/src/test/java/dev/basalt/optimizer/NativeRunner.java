package dev.basalt.optimizer;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.CloseableIteratorIteration;
import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.EvaluationStatistics;
import org.eclipse.rdf4j.query.impl.EmptyBindingSet;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;

import dev.basalt.optimizer.rdf4j.BasaltEvaluationStrategy;
import dev.basalt.optimizer.plan.CardinalityEstimator;
import dev.basalt.optimizer.plan.OrderingPolicy;
import dev.basalt.optimizer.rdf4j.NativeQueryStats;
import dev.basalt.optimizer.rdf4j.QueryHints;

/**
 * Runs SPARQL queries through Basalt's engine over the in-memory twin, the way the sail does
 * (RDF4J's optimizer pipeline plus Basalt's plan optimizer), and through RDF4J's MemoryStore on
 * the same statements, in the same evaluation mode, for comparison.
 */
public final class NativeRunner implements AutoCloseable {
    private dev.basalt.optimizer.exec.ExecLimits limits = dev.basalt.optimizer.exec.ExecLimits.defaults();
    private final MemoryQuadSource twin = new MemoryQuadSource();
    private final List<Statement> statements = new ArrayList<>();
    private final SailRepository memory = new SailRepository(new MemoryStore());
    private final NativeQueryStats stats = new NativeQueryStats();
    private TupleExpr lastPlan;

    public NativeRunner(List<Statement> data) {
        for (Statement st : data) {
            twin.add(st.getSubject(), st.getPredicate(), st.getObject(), st.getContext());
            statements.add(st);
        }
        try (RepositoryConnection c = memory.getConnection()) {
            c.add(data);
        }
    }

    public MemoryQuadSource twin() {
        return twin;
    }

    public NativeQueryStats stats() {
        return stats;
    }

    /** The optimized algebra of the last native query (a Basalt plan node where it compiled). */
    public TupleExpr lastPlan() {
        return lastPlan;
    }

    /** The query's solutions from MemoryStore. */
    public List<BindingSet> memory(String query) {
        try (RepositoryConnection c = memory.getConnection(); TupleQueryResult r = c.prepareTupleQuery(query).evaluate()) {
            List<BindingSet> out = new ArrayList<>();
            r.forEach(out::add);
            return out;
        }
    }

    /** The query's solutions from Basalt's engine on the twin. */
    public List<BindingSet> basalt(String query) {
        List<BindingSet> out = new ArrayList<>();
        try (CloseableIteration<BindingSet> it = start(query)) {
            while (it.hasNext()) {
                out.add(it.next());
            }
        }
        return out;
    }

    /** The bounds of the following evaluations, as a store's configuration would give them. */
    public void setLimits(dev.basalt.optimizer.exec.ExecLimits limits) {
        this.limits = limits;
    }

    /** Starts the query on Basalt's engine; the caller iterates and closes. */
    public CloseableIteration<BindingSet> start(String query) {
        TupleExpr expr = QueryParserUtil.parseTupleQuery(QueryLanguage.SPARQL, query, null).getTupleExpr();
        // as a sail connection does: a private copy (the parser shares aggregate nodes), under a query root
        expr = expr instanceof QueryRoot ? expr.clone() : new QueryRoot(expr.clone());
        // the ordering and join hints, as a sail connection applies them (QueryHints)
        OrderingPolicy ordering = QueryHints.strip(expr).policy();
        BasaltEvaluationStrategy strategy = new BasaltEvaluationStrategy(new TwinTriples(), null, null, 0,
                new EvaluationStatistics(), false, twin, stats, new CardinalityEstimator(twin), ordering);
        QueryEvaluationMode mode = ((MemoryStore) memory.getSail()).getDefaultQueryEvaluationMode();
        strategy.setQueryEvaluationMode(mode);
        strategy.setExecLimits(limits);
        lastPlan = strategy.optimize(expr, new EvaluationStatistics(), EmptyBindingSet.getInstance());
        return strategy.precompile(lastPlan).evaluate(EmptyBindingSet.getInstance());
    }

    @Override
    public void close() {
        memory.shutDown();
    }

    /** RDF4J's view of the twin, for the parts of a query RDF4J evaluates itself. */
    private final class TwinTriples implements TripleSource {
        @Override
        public CloseableIteration<? extends Statement> getStatements(Resource subj, IRI pred, Value obj,
                Resource... contexts) {
            List<Statement> out = new ArrayList<>();
            for (Statement st : statements) {
                boolean ctx = contexts.length == 0;
                for (Resource c : contexts) {
                    ctx |= c == null ? st.getContext() == null : c.equals(st.getContext());
                }
                if (ctx && (subj == null || subj.equals(st.getSubject())) && (pred == null || pred.equals(st.getPredicate()))
                        && (obj == null || obj.equals(st.getObject()))) {
                    out.add(st);
                }
            }
            return new CloseableIteratorIteration<>(out.iterator());
        }

        @Override
        public ValueFactory getValueFactory() {
            return twin.valueFactory();
        }
    }
}
