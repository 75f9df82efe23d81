package dev.basalt.sail.query;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.Binding;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.algebra.QueryRoot;

import dev.basalt.optimizer.rdf4j.PreparedAlgebra;
import dev.basalt.optimizer.rdf4j.ShapePlans;

/**
 * One query shape's entry in the {@link QueryFront}, holding the shape's three stages, each filled by the first
 * query that needs it:
 * <ol>
 * <li>the parsed template ({@link QueryTemplate}), made when the entry is made, or none when the shape is not
 * cacheable (its queries are always parsed);</li>
 * <li>per dataset, bindings and evaluation mode, RDF4J's optimized tree of the template
 * ({@link OptimizedTemplates}), or the mark that it cannot be reused; at most {@value #MAX_VARIANTS} of them,
 * further combinations are optimized in full every time;</li>
 * <li>with each optimized tree, the plans compiled from it per store state, join ordering and statement-set
 * choice ({@link ShapePlans}), when plans are kept.</li>
 * </ol>
 * Stages 1 and 2 read no data and never go stale; a plan holds for the store state it was compiled on and the
 * first query on a newer state compiles the shape again. The entry goes as a whole when the front door evicts it.
 *
 * <p>Thread-safe: the template is immutable and the optimized stages are in a concurrent map; the
 * {@link PreparedAlgebra} it makes for one query is used by that query's evaluating thread.
 */
final class ShapeEntry {
    /** Optimized trees kept per shape (combinations of dataset, bindings and evaluation mode). */
    static final int MAX_VARIANTS = 32;
    private static final Object NOT_REUSABLE = new Object();

    private final QueryFront front;
    /** The shape's parsed template, or null when the shape is not cacheable. */
    private final QueryTemplate template;
    private final Map<Key, Object> optimized = new ConcurrentHashMap<>();

    /** What the optimized form of a query depends on besides its shape. */
    record Key(Set<IRI> defaultGraphs, Set<IRI> namedGraphs, Map<String, Value> bindings, QueryEvaluationMode mode) {
        /** The key of a query without dataset and bindings, per evaluation mode: most queries' (no allocation). */
        private static final Map<QueryEvaluationMode, Key> PLAIN = new java.util.EnumMap<>(QueryEvaluationMode.class);

        static {
            for (QueryEvaluationMode mode : QueryEvaluationMode.values()) {
                PLAIN.put(mode, new Key(null, null, Map.of(), mode));
            }
        }

        static Key of(Dataset dataset, BindingSet bindings, QueryEvaluationMode mode) {
            if (dataset == null && (bindings == null || bindings.isEmpty()) && mode != null) {
                return PLAIN.get(mode);
            }
            Map<String, Value> values = new HashMap<>();
            if (bindings != null) {
                for (Binding b : bindings) {
                    values.put(b.getName(), b.getValue());
                }
            }
            return new Key(dataset == null ? null : new HashSet<>(dataset.getDefaultGraphs()),
                    dataset == null ? null : new HashSet<>(dataset.getNamedGraphs()), values, mode);
        }
    }

    /** An optimized template and the plans compiled from it (null when plans are not kept). */
    private record Optimized(QueryTemplate template, ShapePlans plans) {
    }

    ShapeEntry(QueryFront front, QueryTemplate template) {
        this.front = front;
        this.template = template;
    }

    /** The parsed template, or null when the shape's queries are always parsed. */
    QueryTemplate template() {
        return template;
    }

    /** Optimized trees and not-reusable marks held. */
    int optimizedStages() {
        return optimized.size();
    }

    /** What lets the evaluation of {@code query}, of this entry's shape, reuse the shape's later stages. */
    PreparedAlgebra instance(String query, QueryShape shape) {
        return new PreparedAlgebra() {
            @Override
            public QueryRoot optimized(QueryRoot root, Dataset dataset, BindingSet bindings, QueryEvaluationMode mode,
                    Consumer<QueryRoot> rdf4jSteps) {
                return ShapeEntry.this.optimized(query, shape, root, dataset, bindings, mode, rdf4jSteps);
            }

            @Override
            public Shape shape(Dataset dataset, BindingSet bindings, QueryEvaluationMode mode) {
                if (!(optimized.get(Key.of(dataset, bindings, mode)) instanceof Optimized o)) {
                    return null;
                }
                QueryTemplate.Constants constants = o.template.constants(shape);
                return new Shape() {
                    @Override
                    public QueryRoot template() {
                        return (QueryRoot) o.template.tree();
                    }

                    @Override
                    public Value valueOf(Value sentinel) {
                        return constants.valueOf(sentinel);
                    }

                    @Override
                    public void taken() {
                        front.optimizedReused();
                    }

                    @Override
                    public ShapePlans plans() {
                        return o.plans;
                    }
                };
            }
        };
    }

    private QueryRoot optimized(String query, QueryShape shape, QueryRoot root, Dataset dataset, BindingSet bindings,
            QueryEvaluationMode mode, Consumer<QueryRoot> rdf4jSteps) {
        Key key = Key.of(dataset, bindings, mode);
        Object held = optimized.get(key);
        if (held instanceof Optimized o) {
            front.optimizedReused();
            return o.template.instantiate(query, shape, OptimizedTemplates::fresh);
        }
        front.optimizedInFull();
        PendingTree.make(root); // the optimizers change the tree in place
        rdf4jSteps.accept(root);
        if (held == null && optimized.size() < MAX_VARIANTS) {
            QueryTemplate made = OptimizedTemplates.make(template, query, shape, root, bindings, rdf4jSteps);
            optimized.putIfAbsent(key,
                    made == null ? NOT_REUSABLE : new Optimized(made, front.keepsPlans() ? new ShapePlans() : null));
        }
        return root;
    }
}
