package dev.basalt.sail.query;

import java.util.Map;

/**
 * The native query engine's counters of one open store, as a JMX MXBean (see
 * {@link NativeQueriesMetrics}); readable with jconsole or any JMX client of the JVM running the
 * store, e.g. RDF4J Server's.
 *
 * <p>Implementations must be thread-safe: JMX calls them from its own threads.
 */
public interface NativeQueriesMXBean {
    /** Subtrees compiled and run as Basalt plans since the store opened (or the last reset). */
    long getPlansCompiled();

    /** Plans compiled for a query shape and kept, with the shape's constants as parameters. */
    long getShapePlansKept();

    /** Evaluations that ran the plan kept for their query shape, without optimization or compilation. */
    long getShapePlansReused();

    /** Of those, evaluations that ran the kept plan without any of RDF4J's evaluation set up. */
    long getShapePlansRunDirectly();

    /**
     * Evaluations of a query shape whose plans could not be kept (the reason is among the fallback reasons as
     * "shape plan not kept: ..."): each is optimized and compiled as if its shape were new.
     */
    long getShapePlansNotKept();

    /** Algebra nodes, or whole queries, that RDF4J's evaluator ran instead. */
    long getFallbacks();

    /** Evaluations of compiled plans handed to RDF4J's evaluator at run time. */
    long getRuntimeFallbacks();

    /** Fallbacks per algebra node type (or whole-query reason). */
    Map<String, Long> getFallbacksByType();

    /** Fallbacks per "node type: reason" and "run time: reason". */
    Map<String, Long> getFallbackReasons();

    /**
     * Native query evaluations under way now: started and their result not yet closed. Each holds
     * a read snapshot until then; a client that stops reading a result ends its query and this
     * number goes down.
     */
    int getRunningQueries();

    /** Sets every counter back to zero. */
    void reset();
}
