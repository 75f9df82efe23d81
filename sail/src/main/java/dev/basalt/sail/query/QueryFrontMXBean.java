package dev.basalt.sail.query;

/**
 * The counters of a {@link QueryFront}, registered as {@code dev.basalt:type=QueryFront,repository=NAME} while its
 * repository is initialized. Implementations are thread-safe.
 */
public interface QueryFrontMXBean {
    /** Query shapes kept at most (the repository's {@code basalt:queryShapes}). */
    long getCapacity();

    /** Query shapes held now, cacheable or not. */
    long getShapes();

    /** Shapes evicted to stay within the capacity (each with all its stages). */
    long getEvictions();

    /** SPARQL queries parsed by RDF4J's parser (first of a shape, not cacheable, or no shape). */
    long getParsed();

    /** SPARQL queries instantiated from their shape's template. */
    long getInstantiated();

    /**
     * Instantiated SELECT queries handed out with a pending tree ({@link PendingTree}), made only if the evaluation
     * reads it.
     */
    long getPendingTrees();

    /** Pending trees that were then made (the rest ran a kept plan without a tree). */
    long getPendingTreesMade();

    /** Evaluations that took their shape's optimized tree, or ran its kept plan. */
    long getOptimizedReused();

    /** Evaluations of instantiated queries that ran every RDF4J optimizer. */
    long getOptimizedInFull();

    /**
     * SELECT, CONSTRUCT and DESCRIBE queries answered by their shape's kept plan outside any connection
     * ({@link QueryFront#select}, {@link QueryFront#answer}), without a tree (counted among the instantiated).
     */
    long getDirectRuns();

    /** Whether compiled plans are kept with the shapes (the repository's {@code basalt:shapePlans}). */
    boolean isKeepingPlans();
}
