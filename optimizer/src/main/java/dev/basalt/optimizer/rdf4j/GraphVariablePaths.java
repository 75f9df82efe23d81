package dev.basalt.optimizer.rdf4j;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.LookAheadIteration;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.MutableBindingSet;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryEvaluationStep;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.QueryEvaluationContext;

/**
 * A property path RDF4J evaluates inside {@code GRAPH ?g} where the incoming row leaves {@code ?g}
 * unbound, evaluated as SPARQL 1.1 section 18.5 (Graph) defines it: the union over the dataset's
 * named graphs of the path evaluated within that graph alone, each solution with {@code ?g} bound to
 * it. RDF4J 5.0.3's path iterations do not do that: a zero-length path (also the zero-length part of
 * {@code *}) whose end the row binds comes back with {@code ?g} unbound, the zero-length nodes of a
 * path with free ends are reported once with the first graph that holds them (a node of two graphs
 * is missing from the second), and a {@code *} path reports each pair once with the graph of its first
 * match. Here each graph is put into the row in turn and the path runs with that graph bound (the
 * step for a bound {@code ?g}, which evaluates it with the graph as a constant).
 *
 * <p>Which graphs: those of the dataset's FROM NAMED list (none when it lists none but FROM lists
 * some; every graph of the store without a dataset, as RDF4J's statement patterns read them). Where
 * the row or the query fixes an end of the path, only the graphs holding that term as a subject or
 * object are tried; and a graph is skipped where a fixed end is no node of it: every solution of a
 * path within a graph has its ends among the graph's nodes (18.4: a zero-length path relates a node
 * of the active graph to itself; a longer one follows the graph's triples), so such a graph has no
 * solution. With both ends free every statement is read once per evaluation to find the graphs.
 *
 * <p>Thread rules: immutable; a step it makes is used by one query evaluation at a time, as RDF4J's
 * steps are.
 */
final class GraphVariablePaths {
    private final TripleSource triples;
    private final Dataset dataset;

    GraphVariablePaths(TripleSource triples, Dataset dataset) {
        this.triples = triples;
        this.dataset = dataset;
    }

    /**
     * The step for a path with ends {@code start} and {@code end} inside {@code GRAPH graph}: {@code bound}
     * (which must handle a row that binds the graph variable) where the row binds it or the graph is
     * a constant or absent, else {@code bound} once per graph as described above.
     */
    QueryEvaluationStep overNamedGraphs(Var graph, Var start, Var end, QueryEvaluationStep bound,
            QueryEvaluationContext context) {
        if (graph == null || graph.hasValue()) {
            return bound;
        }
        String name = graph.getName();
        BiConsumer<Value, MutableBindingSet> setGraph = context.setBinding(name);
        List<Set<Resource>> everyGraph = new ArrayList<>(1);
        return bindings -> {
            if (bindings.getValue(name) != null) {
                return bound.evaluate(bindings);
            }
            Value s = valueOf(start, bindings);
            Value e = valueOf(end, bindings);
            if (s == null && e == null && everyGraph.isEmpty()) {
                everyGraph.add(graphs(null, null));
            }
            List<BindingSet> rows = new ArrayList<>();
            for (Resource g : s == null && e == null ? everyGraph.get(0) : graphs(s, e)) {
                MutableBindingSet row = context.createBindingSet(bindings);
                setGraph.accept(g, row);
                if (isNodeOrFree(valueOf(start, row), g) && isNodeOrFree(valueOf(end, row), g)) {
                    rows.add(row);
                }
            }
            return new Concatenation(bound, rows.iterator());
        };
    }

    /** The named graphs of the dataset that may hold a path from or to {@code anchor} (either may be null). */
    private Set<Resource> graphs(Value start, Value end) {
        Set<Resource> found = new LinkedHashSet<>();
        Value anchor = start != null ? start : end;
        if (anchor == null) {
            contexts(null, null, found);
        } else {
            if (anchor instanceof Resource r) {
                contexts(r, null, found);
            }
            contexts(null, anchor, found);
        }
        if (dataset == null) {
            return found;
        }
        Set<IRI> named = dataset.getNamedGraphs();
        if (named.isEmpty()) {
            return dataset.getDefaultGraphs().isEmpty() ? found : Set.of();
        }
        found.retainAll(named);
        return found;
    }

    private void contexts(Resource subject, Value object, Set<Resource> into) {
        try (CloseableIteration<? extends Statement> it = triples.getStatements(subject, null, object)) {
            while (it.hasNext()) {
                Resource c = it.next().getContext();
                if (c != null) {
                    into.add(c);
                }
            }
        }
    }

    /** Whether {@code v} is unbound or a subject or object of some statement of graph {@code g}. */
    private boolean isNodeOrFree(Value v, Resource g) {
        if (v == null) {
            return true;
        }
        if (v instanceof Resource r && any(r, null, g)) {
            return true;
        }
        return any(null, v, g);
    }

    private boolean any(Resource subject, Value object, Resource g) {
        try (CloseableIteration<? extends Statement> it = triples.getStatements(subject, null, object, g)) {
            return it.hasNext();
        }
    }

    /** The value of {@code var} in a row: its constant, or the row's binding (null where unbound). */
    static Value valueOf(Var var, BindingSet bindings) {
        return var.hasValue() ? var.getValue() : bindings.getValue(var.getName());
    }

    /** The solutions of {@code step} for each row in turn, each row's opened when the previous one's are done. */
    private static final class Concatenation extends LookAheadIteration<BindingSet> {
        private final QueryEvaluationStep step;
        private final Iterator<BindingSet> rows;
        private CloseableIteration<BindingSet> current;

        Concatenation(QueryEvaluationStep step, Iterator<BindingSet> rows) {
            this.step = step;
            this.rows = rows;
        }

        @Override
        protected BindingSet getNextElement() {
            while (true) {
                if (current != null && current.hasNext()) {
                    return current.next();
                }
                if (current != null) {
                    current.close();
                    current = null;
                }
                if (!rows.hasNext()) {
                    return null;
                }
                current = step.evaluate(rows.next());
            }
        }

        @Override
        protected void handleClose() {
            if (current != null) {
                current.close();
            }
        }
    }
}
