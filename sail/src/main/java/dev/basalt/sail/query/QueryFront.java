package dev.basalt.sail.query;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import javax.management.JMException;
import javax.management.ObjectName;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.transaction.QueryEvaluationMode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.Binding;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.Dataset;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.QueryResult;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.impl.IteratingGraphQueryResult;
import org.eclipse.rdf4j.query.impl.IteratingTupleQueryResult;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.basalt.optimizer.rdf4j.PreparedAlgebra;
import dev.basalt.optimizer.rdf4j.QueryHints;
import dev.basalt.optimizer.rdf4j.ShapePlans;

/**
 * The one front door of SPARQL queries into a repository: one entry per query shape ({@link QueryShape}: the
 * query's tokens with its constants left out), whose stages fill lazily as queries of the shape come
 * ({@link Entry}): the parsed template with the constant-slot model ({@link QueryTemplate}), RDF4J's optimized
 * tree of it per dataset, bindings and evaluation mode ({@link OptimizedTemplates}), and the compiled plans of that
 * tree per store state ({@code ShapePlans}). A query of a known shape is instantiated from its template and
 * evaluated with a {@link PreparedAlgebra} that reuses the later stages ({@link ShapedQuery} carries it to the
 * store). For a repository over the Basalt store itself, a SELECT whose shape has a plan kept for the store's newest
 * state is answered by {@link #select} in one step: the shape, its entry, the store's kept plan; {@link #answer} does
 * the same for CONSTRUCT and DESCRIBE queries too.
 *
 * <p>One bound: at most {@code capacity} shapes (Caffeine, size-bounded), an entry evicted with all its stages.
 * One invalidation rule: the parsed and optimized stages read no data and never go stale; a plan holds for the
 * store state it was compiled on, and the first query on a newer state compiles the shape again. Settings are the
 * repository's ({@code basalt:queryShapes}, {@code basalt:shapePlans}); counters are {@link QueryFrontMXBean}.
 * Errors are the parser's: a malformed query is parsed, and fails, like any other. Only SPARQL queries have
 * shapes (updates do not).
 *
 * <p>Thread-safe: shared by all connections of its repository.
 */
public final class QueryFront implements QueryFrontMXBean {
    /** Query shapes kept by default. */
    public static final int DEFAULT_SHAPES = 1_000;
    private static final Logger logger = LoggerFactory.getLogger(QueryFront.class);

    private final Cache<String, Entry> shapes;
    private final long capacity;
    private final boolean keepPlans;
    private final LongAdder parsed = new LongAdder();
    private final LongAdder instantiated = new LongAdder();
    private final LongAdder pendingTrees = new LongAdder();
    private final LongAdder pendingTreesMade = new LongAdder();
    private final LongAdder optimizedReused = new LongAdder();
    private final LongAdder optimizedInFull = new LongAdder();
    private final LongAdder directRuns = new LongAdder();
    private ObjectName name;
    /**
     * The last query {@link #select} lexed and did not answer, which its caller then prepares on a connection: {@link
     * #prepare} of the same text (the same string, without base IRI) takes its shape rather than lexing it again. One
     * slot shared by all threads: a query of another thread in between only costs a second lexing.
     */
    private volatile Lexed notSelected;
    /** The store whose kept plans {@link #select} runs, or null ({@link #bind}). */
    private volatile NativeQueries store;

    /**
     * @param maxShapes query shapes to keep, positive
     * @param keepPlans whether compiled plans are kept with the shapes
     */
    public QueryFront(long maxShapes, boolean keepPlans) {
        if (maxShapes < 1) {
            throw new IllegalArgumentException("maxShapes must be positive, was " + maxShapes);
        }
        this.shapes = Caffeine.newBuilder().maximumSize(maxShapes).recordStats().executor(Runnable::run).build();
        this.capacity = maxShapes;
        this.keepPlans = keepPlans;
    }

    /**
     * A parsed query, as {@link QueryParserUtil#parseQuery} would return it, and, where its shape has a template,
     * what lets its evaluation reuse the shape's later stages (else null).
     */
    public record Prepared(ParsedQuery query, PreparedAlgebra algebra) {
    }

    /** The parsed query with what its evaluation may reuse ({@link Prepared}); its tree made in full. */
    public Prepared prepare(QueryLanguage language, String query, String baseUri) throws MalformedQueryException {
        return prepare(language, query, baseUri, false);
    }

    /**
     * The parsed query with what its evaluation may reuse ({@link Prepared}). With {@code pending}, for a caller
     * that evaluates the query on an unwrapped Basalt store with the prepared algebra, a SELECT, CONSTRUCT or DESCRIBE
     * of a known shape gets a {@link PendingTree}: its tree is made only if its evaluation reads it, which a kept plan
     * does not.
     */
    public Prepared prepare(QueryLanguage language, String query, String baseUri, boolean pending)
            throws MalformedQueryException {
        QueryShape shape = QueryLanguage.SPARQL.equals(language) ? shapeOf(query, baseUri) : null;
        Entry entry = shape == null ? null : shapes.getIfPresent(shape.key());
        if (entry != null && entry.template() != null) {
            instantiated.increment();
            PreparedAlgebra algebra = entry.instance(query, shape);
            ParsedQuery parsedQuery = pending ? entry.template().pending(query, shape, this, algebra) : null;
            if (parsedQuery != null) {
                pendingTrees.increment();
            }
            return new Prepared(parsedQuery != null ? parsedQuery : entry.template().instantiate(query, shape),
                    algebra);
        }
        ParsedQuery parsedQuery = QueryParserUtil.parseQuery(language, query, baseUri);
        parsed.increment();
        if (shape != null && entry == null) {
            shapes.put(shape.key(), new Entry(QueryTemplate.make(query, baseUri, shape, parsedQuery)));
        }
        return new Prepared(parsedQuery, null);
    }

    /** A query's text and its shape, read without base IRI. */
    private record Lexed(String query, QueryShape shape) {
    }

    /** The shape of {@code query}, from {@link #notSelected} when {@link #select} just read it. */
    private QueryShape shapeOf(String query, String baseUri) {
        Lexed last = notSelected;
        if (last != null && last.query == query && baseUri == null) {
            return last.shape;
        }
        return QueryShape.of(query, baseUri);
    }

    /**
     * Lets {@link #select} run kept plans on {@code store}'s native engine, or (null) stops it: bound by a repository
     * whose sail is that Basalt store itself while the repository is initialized.
     */
    public void bind(NativeQueries store) {
        this.store = store;
    }

    /**
     * The result of a SELECT query of a known shape, without dataset and bindings, answered by its shape's plan kept
     * for the bound store's newest state, outside any connection: the query is neither parsed nor instantiated, no
     * tree is made and nothing of RDF4J's evaluation is set up ({@link NativeQueries#runKept}). Null when the query is
     * to be prepared as usual ({@link #prepare}, on a connection): no store bound, a shape not seen before or not a
     * SELECT whose tree a kept plan may skip ({@link QueryTemplate#treeless}: no dataset, no hint), no plan kept for
     * the store's state. The binding names are the shape's, as RDF4J's {@code SailTupleQuery} gives them.
     */
    public TupleQueryResult select(String query, boolean includeInferred) {
        return (TupleQueryResult) direct(query, includeInferred, false);
    }

    /**
     * As {@link #select}, and for a CONSTRUCT or DESCRIBE of a known shape whose plan is kept for the store's newest
     * state, its statements: the plan's rows ({@code ShapePlans#run}: a CONSTRUCT template's statements, a DESCRIBE's
     * descriptions) made into statements as RDF4J's {@code SailGraphQuery} makes them ({@link KeptStatements}), with
     * the prologue's namespaces; a DESCRIBE's also as term ids ({@link KeptGraph}). A {@link TupleQueryResult}, a
     * {@link GraphQueryResult}, or null when the query is to be prepared as usual.
     */
    public QueryResult<?> answer(String query, boolean includeInferred) {
        return direct(query, includeInferred, true);
    }

    private QueryResult<?> direct(String query, boolean includeInferred, boolean graphs) {
        NativeQueries bound = store;
        QueryShape shape = bound == null ? null : QueryShape.of(query, null);
        Entry entry = shape == null ? null : shapes.getIfPresent(shape.key());
        boolean graph = graphs && entry != null && entry.treelessGraph(shape);
        CloseableIteration<? extends BindingSet> rows = entry == null || !(graph || entry.treeless(shape)) ? null
                : bound.runKept(entry.instance(query, shape), null, includeInferred);
        if (rows == null) {
            if (shape != null) {
                notSelected = new Lexed(query, shape);
            }
            return null;
        }
        instantiated.increment();
        directRuns.increment();
        if (graph) {
            return rows instanceof NativeQueries.AttachedRows.Ids ids
                    ? new KeptGraph(entry.namespaces, new KeptStatements(rows), ids)
                    : new IteratingGraphQueryResult(entry.namespaces, new KeptStatements(rows));
        }
        return new IteratingTupleQueryResult(new ArrayList<>(entry.bindingNames), rows);
    }

    /**
     * The parsed query, as {@link QueryParserUtil#parseQuery} would return it: for a caller that evaluates queries
     * elsewhere and only reuses the parse of each shape (the federation's front). A query of a shape with a
     * template is that template with the query's constants put in; the first of a shape is parsed. The counters
     * ({@link #getParsed()}, {@link #getInstantiated()}) count these calls as any other.
     */
    public ParsedQuery parse(QueryLanguage language, String query, String baseUri) throws MalformedQueryException {
        return prepare(language, query, baseUri).query();
    }

    /** Whether queries of the shape of {@code query} are instantiated from a template (for tests). */
    boolean holdsTemplate(String query, String baseUri) {
        QueryShape shape = QueryShape.of(query, baseUri);
        Entry entry = shape == null ? null : shapes.getIfPresent(shape.key());
        return entry != null && entry.template() != null;
    }

    /** Whether {@link #prepare} of this very query text would take the shape {@link #select} read (for tests). */
    boolean remembersShapeOf(String query) {
        Lexed last = notSelected;
        return last != null && last.query == query;
    }

    /** Optimized trees and not-reusable marks held over all shapes (for tests). */
    long optimizedStages() {
        return shapes.asMap().values().stream().mapToLong(Entry::optimizedStages).sum();
    }

    void pendingTreeMade() {
        pendingTreesMade.increment();
    }

    @Override
    public long getCapacity() {
        return capacity;
    }

    @Override
    public long getShapes() {
        shapes.cleanUp();
        return shapes.estimatedSize();
    }

    @Override
    public long getEvictions() {
        return shapes.stats().evictionCount();
    }

    @Override
    public long getParsed() {
        return parsed.sum();
    }

    @Override
    public long getInstantiated() {
        return instantiated.sum();
    }

    @Override
    public long getPendingTrees() {
        return pendingTrees.sum();
    }

    @Override
    public long getPendingTreesMade() {
        return pendingTreesMade.sum();
    }

    @Override
    public long getOptimizedReused() {
        return optimizedReused.sum();
    }

    @Override
    public long getOptimizedInFull() {
        return optimizedInFull.sum();
    }

    @Override
    public long getDirectRuns() {
        return directRuns.sum();
    }

    @Override
    public boolean isKeepingPlans() {
        return keepPlans;
    }

    /** Registers the counters as {@code dev.basalt:type=QueryFront,repository=NAME} (a clash is logged, not fatal). */
    public synchronized void register(String repository) {
        try {
            ObjectName n = new ObjectName("dev.basalt:type=QueryFront,repository=" + ObjectName.quote(repository));
            ManagementFactory.getPlatformMBeanServer().registerMBean(this, n);
            name = n;
        } catch (JMException e) {
            logger.debug("query front door's MBean not registered: {}", e.toString());
        }
    }

    /** Removes the MBean {@link #register} added, if any. */
    public synchronized void unregister() {
        if (name != null) {
            try {
                ManagementFactory.getPlatformMBeanServer().unregisterMBean(name);
            } catch (JMException e) {
                logger.debug("query front door's MBean already gone", e);
            }
            name = null;
        }
    }

    /**
     * One query shape's entry, holding the shape's three stages, each filled by the first
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
    final class Entry {
        /** Optimized trees kept per shape (combinations of dataset, bindings and evaluation mode). */
        static final int MAX_VARIANTS = 32;
        private static final Object NOT_REUSABLE = new Object();

        /** The shape's parsed template, or null when the shape is not cacheable. */
        private final QueryTemplate template;
        /**
         * Whether the shape's queries may skip their tree unless a constant is a hint ({@link QueryTemplate#treeless}),
         * and the template's binding names: read here per query, so that the direct route does not enter the template.
         */
        private final boolean treelessShape;
        /** Whether the shape is a CONSTRUCT or DESCRIBE that may skip its tree ({@link #answer}), and its prefixes. */
        private final boolean treelessGraphShape;
        private final Map<String, String> namespaces;
        private final List<String> bindingNames;
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

        /**
         * An optimized template and the plans compiled from it (null when plans are not kept), with its tree and the
         * slots of its sentinels ({@link QueryTemplate#sites}) that a kept plan's run reads.
         */
        private record Optimized(QueryTemplate template, ShapePlans plans, QueryRoot tree, Map<Value, Integer> sites) {
            Optimized(QueryTemplate template, ShapePlans plans) {
                this(template, plans, (QueryRoot) template.tree(), template.sites());
            }
        }

        Entry(QueryTemplate template) {
            this.template = template;
            this.treelessShape = template != null && template.treelessShape();
            this.treelessGraphShape = template != null && template.treelessGraphShape();
            this.namespaces = template == null ? Map.of() : template.namespaces();
            this.bindingNames = template == null ? List.of() : List.copyOf(template.tree().getBindingNames());
        }

        /** Whether {@code shape}'s query, of this entry's shape, may run a kept plan without a tree ({@link #select}). */
        boolean treeless(QueryShape shape) {
            return treelessShape && !shape.mayNameIriIn(QueryHints.NAMESPACE);
        }

        /** Whether {@code shape}'s CONSTRUCT or DESCRIBE query may run a kept plan without a tree ({@link #answer}). */
        boolean treelessGraph(QueryShape shape) {
            return treelessGraphShape && !shape.mayNameIriIn(QueryHints.NAMESPACE);
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
                    return Entry.this.optimized(query, shape, root, dataset, bindings, mode, rdf4jSteps);
                }

                @Override
                public Shape shape(Dataset dataset, BindingSet bindings, QueryEvaluationMode mode) {
                    if (!(optimized.get(Key.of(dataset, bindings, mode)) instanceof Optimized o)) {
                        return null;
                    }
                    QueryShape.Constants constants = shape.constants(o.sites);
                    return new Shape() {
                        @Override
                        public QueryRoot template() {
                            return o.tree;
                        }

                        @Override
                        public Value valueOf(Value sentinel) {
                            return constants.valueOf(sentinel);
                        }

                        @Override
                        public void taken() {
                            optimizedReused.increment();
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
                optimizedReused.increment();
                return o.template.instantiate(query, shape, OptimizedTemplates::fresh);
            }
            optimizedInFull.increment();
            PendingTree.make(root); // the optimizers change the tree in place
            rdf4jSteps.accept(root);
            if (held == null && optimized.size() < MAX_VARIANTS) {
                QueryTemplate made = OptimizedTemplates.make(template, query, shape, root, bindings, rdf4jSteps);
                optimized.putIfAbsent(key,
                        made == null ? NOT_REUSABLE : new Optimized(made, keepPlans ? new ShapePlans() : null));
            }
            return root;
        }
    }
}
