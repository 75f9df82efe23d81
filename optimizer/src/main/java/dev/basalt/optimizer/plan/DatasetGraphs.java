package dev.basalt.optimizer.plan;

import java.util.LinkedHashSet;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.RDF4J;
import org.eclipse.rdf4j.model.vocabulary.SESAME;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.Var;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.TermIds;

/**
 * The graphs a statement pattern may match under a query's dataset (FROM / FROM NAMED), with the
 * semantics of RDF4J 5.0.3's statement pattern evaluation, so native and RDF4J results agree:
 * <ul>
 * <li>no dataset, or a dataset naming no graph at all: no restriction (a default-graph pattern
 * reads every graph, {@code GRAPH} reads the named graphs);</li>
 * <li>a default-graph pattern with an empty FROM list while FROM NAMED lists graphs (and a
 * {@code GRAPH} pattern with an empty FROM NAMED list while FROM lists graphs) matches nothing;</li>
 * <li>otherwise the pattern reads exactly the listed graphs, each once; {@code rdf4j:nil} and
 * {@code sesame:nil} (or null, as the API allows) in the FROM list stand for the store's default graph; a graph the store does
 * not know contributes nothing. A triple in several listed graphs is matched once per graph, as
 * RDF4J does (no RDF merge);</li>
 * <li>a {@code GRAPH} constant outside the FROM NAMED list matches nothing; a {@code GRAPH}
 * variable bound by the input row must be one of the listed graphs.</li>
 * </ul>
 * {@code rdf4j:nil} in a FROM NAMED list (RDF4J would read the default graph and leave the graph
 * variable unbound) and a default-graph pattern with a graph variable are not compiled.
 * Not thread-safe: made and used by one query's plan compiler, in the compiling thread.
 */
public final class DatasetGraphs {
    /** The restriction of one pattern: {@code contexts} null = none, {@code nothing} = matches nothing. */
    record Restriction(long[] contexts, boolean nothing) {
        static final Restriction NONE = new Restriction(null, false);
        static final Restriction NOTHING = new Restriction(null, true);
    }

    private final Dataset dataset;
    private final QuadSource source;

    DatasetGraphs(Dataset dataset, QuadSource source) {
        this.dataset = dataset;
        this.source = source;
    }

    /**
     * The graphs a default-graph pattern without a graph variable reads under {@code dataset}, by the rules above: null
     * for every graph, an empty array for none, else the ids of the listed graphs the store knows
     * ({@link TermIds#DEFAULT_GRAPH} for the default graph).
     */
    public static long[] defaultGraphs(Dataset dataset, QuadSource source) {
        Var any = new Var("any");
        Restriction r;
        try {
            r = new DatasetGraphs(dataset, source).restrict(new StatementPattern(any, any.clone(), any.clone()));
        } catch (PlanCompiler.Unsupported e) {
            throw new IllegalStateException("a default-graph pattern without a graph variable is always compiled", e);
        }
        return r.nothing() ? new long[0] : r.contexts();
    }

    Dataset dataset() {
        return dataset;
    }

    Restriction restrict(StatementPattern sp) throws PlanCompiler.Unsupported {
        if (dataset == null) {
            return Restriction.NONE;
        }
        boolean defaultScope = sp.getScope() == StatementPattern.Scope.DEFAULT_CONTEXTS;
        Set<IRI> graphs = defaultScope ? dataset.getDefaultGraphs() : dataset.getNamedGraphs();
        Set<IRI> others = defaultScope ? dataset.getNamedGraphs() : dataset.getDefaultGraphs();
        if (graphs.isEmpty()) {
            return others.isEmpty() ? Restriction.NONE : Restriction.NOTHING;
        }
        Var context = sp.getContextVar();
        if (defaultScope && context != null) {
            throw new PlanCompiler.Unsupported(sp, "default-graph pattern with a graph variable under a dataset");
        }
        if (!defaultScope) {
            for (IRI g : graphs) {
                if (g == null || isNil(g)) {
                    throw new PlanCompiler.Unsupported(sp, "the default graph (null or rdf4j:nil) in FROM NAMED");
                }
            }
            if (context.hasValue()) {
                Value v = context.getValue();
                // RDF4J reads the constant graph as it is when the dataset names it, else nothing
                return v.isIRI() && graphs.contains((IRI) v) ? Restriction.NONE : Restriction.NOTHING;
            }
        }
        Set<Long> ids = new LinkedHashSet<>();
        for (IRI g : graphs) {
            long id = g == null || isNil(g) ? TermIds.DEFAULT_GRAPH : source.lookup(g);
            if (id != TermIds.NULL) {
                ids.add(id);
            }
        }
        if (ids.isEmpty()) {
            return Restriction.NOTHING;
        }
        return new Restriction(ids.stream().mapToLong(Long::longValue).toArray(), false);
    }

    private static boolean isNil(Value v) {
        return RDF4J.NIL.equals(v) || SESAME.NIL.equals(v);
    }
}
