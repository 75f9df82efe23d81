package dev.basalt.sail.query;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.concurrent.atomic.LongAdder;

import javax.management.JMException;
import javax.management.ObjectName;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.impl.IteratingTupleQueryResult;
import org.eclipse.rdf4j.query.parser.ParsedQuery;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.basalt.optimizer.rdf4j.PreparedAlgebra;

/**
 * The one front door of SPARQL queries into a repository: one entry per query shape ({@link QueryShape}: the
 * query's tokens with its constants left out), whose stages fill lazily as queries of the shape come
 * ({@link ShapeEntry}): the parsed template with the constant-slot model ({@link QueryTemplate}), RDF4J's optimized
 * tree of it per dataset, bindings and evaluation mode ({@link OptimizedTemplates}), and the compiled plans of that
 * tree per store state ({@code ShapePlans}). A query of a known shape is instantiated from its template and
 * evaluated with a {@link PreparedAlgebra} that reuses the later stages ({@link ShapedQuery} carries it to the
 * store). For a repository over the Basalt store itself, a SELECT whose shape has a plan kept for the store's newest
 * state is answered by {@link #select} in one step: the shape, its entry, the store's kept plan.
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

    private final Cache<String, ShapeEntry> shapes;
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
     * that evaluates the query on an unwrapped Basalt store with the prepared algebra, a SELECT of a known shape
     * gets a {@link PendingTree}: its tree is made only if its evaluation reads it, which a kept plan does not.
     */
    public Prepared prepare(QueryLanguage language, String query, String baseUri, boolean pending)
            throws MalformedQueryException {
        QueryShape shape = QueryLanguage.SPARQL.equals(language) ? QueryShape.of(query, baseUri) : null;
        ShapeEntry entry = shape == null ? null : shapes.getIfPresent(shape.key());
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
            shapes.put(shape.key(), new ShapeEntry(this, QueryTemplate.make(query, baseUri, shape, parsedQuery)));
        }
        return new Prepared(parsedQuery, null);
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
        NativeQueries bound = store;
        QueryShape shape = bound == null ? null : QueryShape.of(query, null);
        ShapeEntry entry = shape == null ? null : shapes.getIfPresent(shape.key());
        QueryTemplate template = entry == null ? null : entry.template();
        if (template == null || !template.treeless(shape)) {
            return null;
        }
        CloseableIteration<? extends BindingSet> rows = bound.runKept(entry.instance(query, shape), null,
                includeInferred);
        if (rows == null) {
            return null;
        }
        instantiated.increment();
        directRuns.increment();
        return new IteratingTupleQueryResult(new ArrayList<>(template.tree().getBindingNames()), rows);
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
        ShapeEntry entry = shape == null ? null : shapes.getIfPresent(shape.key());
        return entry != null && entry.template() != null;
    }

    /** Optimized trees and not-reusable marks held over all shapes (for tests). */
    long optimizedStages() {
        return shapes.asMap().values().stream().mapToLong(ShapeEntry::optimizedStages).sum();
    }

    boolean keepsPlans() {
        return keepPlans;
    }

    void pendingTreeMade() {
        pendingTreesMade.increment();
    }

    void optimizedReused() {
        optimizedReused.increment();
    }

    void optimizedInFull() {
        optimizedInFull.increment();
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
}
