package dev.basalt.optimizer.rdf4j;

import static dev.basalt.optimizer.rdf4j.GraphVariablePaths.valueOf;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Function;

import org.eclipse.rdf4j.common.iteration.FilterIteration;
import org.eclipse.rdf4j.common.iteration.SingletonIteration;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.MutableBindingSet;
import org.eclipse.rdf4j.query.algebra.ArbitraryLengthPath;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.ZeroLengthPath;
import org.eclipse.rdf4j.query.algebra.evaluation.QueryEvaluationStep;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.query.algebra.evaluation.impl.QueryEvaluationContext;

/**
 * The steps of the property paths RDF4J evaluates for a {@link BasaltEvaluationStrategy} (the paths
 * Basalt's compiler leaves to it): RDF4J 5.0.3's own steps, corrected where they answer otherwise than
 * SPARQL 1.1 section 18.4 and 18.5 say:
 * <ul>
 * <li>a zero-length path with a fixed end matches that term alone ({@link #zeroLength});
 * <li>a zero-length path whose ends and graph are not distinct variables binds each once
 * (see {@code zeroLengthWithDistinctNames});
 * <li>a path inside {@code GRAPH ?g} respects a {@code ?g} the incoming row binds (see {@code inBoundGraph}),
 * and runs once per named graph where the row leaves it unbound ({@link GraphVariablePaths}).
 * </ul>
 * Where none of these applies, the step is RDF4J's own, made through the strategy.
 *
 * <p>Thread rules: made for one {@code prepare} call of its strategy, on the thread compiling the query;
 * the steps it returns are used by one query evaluation at a time, as RDF4J's steps are.
 */
final class PathSteps {
    private final BasaltEvaluationStrategy strategy;
    private final TripleSource tripleSource;
    private final Dataset dataset;

    PathSteps(BasaltEvaluationStrategy strategy, TripleSource tripleSource, Dataset dataset) {
        this.strategy = strategy;
        this.tripleSource = tripleSource;
        this.dataset = dataset;
    }

    /**
     * A zero-length path RDF4J evaluates, as RDF4J's, except where one end is fixed (a constant or
     * bound by the incoming row) and the graph is too if it names one: then the path matches the
     * fixed term alone (SPARQL 1.1 section 18.4, ZeroLengthPath from a term): once if the other end
     * is the same term or a variable, which it binds to that term, and not at all otherwise. RDF4J's
     * iteration compares the ends by their strings, and binds a variable the row already binds
     * ({@code ?x ex:p? ?x} after a pattern that binds {@code ?x}, which RDF4J's parser makes a path to
     * a fresh variable and a sameTerm filter), failing RDF4J's own assertion. Inside {@code GRAPH ?g}
     * with {@code ?g} unbound, once per named graph ({@link GraphVariablePaths}).
     */
    QueryEvaluationStep zeroLength(ZeroLengthPath node, QueryEvaluationContext context) {
        QueryEvaluationStep rdf4j = zeroLengthWithDistinctNames(node, context);
        Var subject = node.getSubjectVar();
        Var object = node.getObjectVar();
        Var graph = node.getContextVar();
        BiConsumer<Value, MutableBindingSet> setSubject = subject.hasValue() ? null : context.setBinding(subject.getName());
        BiConsumer<Value, MutableBindingSet> setObject = object.hasValue() ? null : context.setBinding(object.getName());
        QueryEvaluationStep inBoundGraph = inBoundGraph(graph, rdf4j, fixed -> {
            ZeroLengthPath clone = node.clone();
            clone.setContextVar(fixed);
            return zeroLengthWithDistinctNames(clone, context);
        });
        QueryEvaluationStep step = bindings -> {
            Value s = valueOf(subject, bindings);
            Value o = valueOf(object, bindings);
            Value g = graph == null ? null : valueOf(graph, bindings);
            if (graph != null && g != null && !(g instanceof Resource)) {
                return QueryEvaluationStep.EMPTY_ITERATION; // GRAPH ?g with ?g bound to a literal matches nothing
            }
            if ((s == null && o == null) || (graph != null && g == null)) {
                return inBoundGraph.evaluate(bindings);
            }
            if (s != null && o != null) {
                return s.equals(o) ? new SingletonIteration<>(bindings) : QueryEvaluationStep.EMPTY_ITERATION;
            }
            MutableBindingSet row = context.createBindingSet(bindings);
            if (s == null) {
                setSubject.accept(o, row);
            } else {
                setObject.accept(s, row);
            }
            return new SingletonIteration<>(row);
        };
        return new GraphVariablePaths(tripleSource, dataset).overNamedGraphs(graph, subject, object, step, context);
    }

    /**
     * RDF4J's step for a zero-length path whose ends and graph are distinct variables, or one equal
     * to another unbound: RDF4J's iteration would bind that variable twice per node. The path is
     * evaluated with one end renamed to a name the query's binding sets do not hold (dropped when
     * set), and its solutions filtered to those where that end equals the variable it shares a name
     * with.
     */
    private QueryEvaluationStep zeroLengthWithDistinctNames(ZeroLengthPath node, QueryEvaluationContext context) {
        Var subject = node.getSubjectVar();
        Var object = node.getObjectVar();
        Var graph = node.getContextVar();
        boolean objectShared = !object.hasValue() && (object.getName().equals(subject.getName())
                || (graph != null && object.getName().equals(graph.getName())));
        boolean subjectShared = !objectShared && !subject.hasValue() && graph != null
                && subject.getName().equals(graph.getName());
        if (!objectShared && !subjectShared) {
            return strategy.prepareWithRdf4j(node, context);
        }
        Var shared = objectShared ? object : subject;
        Var other = objectShared ? subject : object;
        ZeroLengthPath renamed = node.clone();
        Var fresh = new Var(shared.getName() + "_zero_length_end_" + System.identityHashCode(node), true);
        if (objectShared) {
            renamed.setObjectVar(fresh);
        } else {
            renamed.setSubjectVar(fresh);
        }
        QueryEvaluationStep step = strategy.prepareWithRdf4j(renamed, context);
        String sharedName = shared.getName();
        return bindings -> new FilterIteration<BindingSet>(step.evaluate(bindings)) {
            @Override
            protected boolean accept(BindingSet row) {
                Value end = valueOf(other, row);
                return end != null && end.equals(row.getValue(sharedName));
            }

            @Override
            protected void handleClose() {
                // the wrapped iteration is closed by FilterIteration itself
            }
        };
    }

    /**
     * An arbitrary-length path RDF4J evaluates: RDF4J's, except inside {@code GRAPH ?g}, where it runs
     * with the graph as a constant: the one the incoming row binds ({@link #inBoundGraph}), else each
     * named graph in turn ({@link GraphVariablePaths}).
     */
    QueryEvaluationStep arbitraryLength(ArbitraryLengthPath node, QueryEvaluationContext context) {
        QueryEvaluationStep inBoundGraph = inBoundGraph(node.getContextVar(), strategy.prepareWithRdf4j(node, context), fixed -> {
            ArbitraryLengthPath clone = node.clone();
            clone.setContextVar(fixed);
            return strategy.prepareWithRdf4j(clone, context);
        });
        return new GraphVariablePaths(tripleSource, dataset).overNamedGraphs(node.getContextVar(), node.getSubjectVar(),
                node.getObjectVar(), inBoundGraph, context);
    }

    /**
     * RDF4J's step for a path inside {@code GRAPH ?g}, made to respect a {@code ?g} the incoming row
     * binds. RDF4J 5.0.3's zero-length path iteration (also the one inside its arbitrary-length path
     * iteration) sets {@code ?g} on each row it makes from the incoming row even where that row binds
     * it already, failing RDF4J's own assertion under {@code -ea}; and its statement scans cast the
     * graph's value to a resource, failing with a {@code ClassCastException} where {@code ?g} holds a
     * literal. Where the row binds {@code ?g} to a resource, the path is evaluated as compiled with
     * that graph as a constant (one step per graph, made on first use); where it
     * binds a literal, which names no graph, the path matches nothing (SPARQL 1.1 section 18.5,
     * Graph). Otherwise {@code unbound} runs.
     */
    private static QueryEvaluationStep inBoundGraph(Var graph, QueryEvaluationStep unbound,
            Function<Var, QueryEvaluationStep> withGraph) {
        if (graph == null || graph.hasValue()) {
            return unbound;
        }
        Map<Value, QueryEvaluationStep> byGraph = new ConcurrentHashMap<>();
        String name = graph.getName();
        return bindings -> {
            Value g = bindings.getValue(name);
            if (g == null) {
                return unbound.evaluate(bindings);
            }
            if (!(g instanceof Resource)) {
                return QueryEvaluationStep.EMPTY_ITERATION;
            }
            // a constant under another name: RDF4J's scans bind neither, so its iteration sets nothing on the row
            return byGraph.computeIfAbsent(g, value -> withGraph.apply(new Var(name + "_bound_graph", value, true, true)))
                    .evaluate(bindings);
        };
    }
}
