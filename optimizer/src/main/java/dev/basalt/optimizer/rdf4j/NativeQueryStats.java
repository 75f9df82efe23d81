package dev.basalt.optimizer.rdf4j;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counters of the native query engine, one set per store: how many subtrees ran as Basalt plans
 * and, per algebra node type (or whole-query reason), how often RDF4J's evaluator had to take
 * over. Every fallback is also logged at debug level, and its reason is counted (up to
 * {@value #MAX_REASONS} distinct reasons per store, so that reasons naming query variables cannot grow
 * without bound in a long-running server). The counts of the plans kept per query shape are the plan cache's own
 * ({@link ShapePlans.Counts}), held here so that one object reports all of a store's counts. Thread-safe: adders
 * and concurrent maps.
 */
public final class NativeQueryStats {
    private static final Logger LOG = LoggerFactory.getLogger(NativeQueryStats.class);
    private final LongAdder plans = new LongAdder();
    private final LongAdder runtimeFallbacks = new LongAdder();
    private final Map<String, LongAdder> fallbacks = new ConcurrentHashMap<>();
    /** Distinct reasons kept; further new reasons are counted under {@link #OTHER_REASONS}. */
    static final int MAX_REASONS = 1_000;
    static final String OTHER_REASONS = "(further reasons not kept)";
    private final Map<String, LongAdder> reasons = new ConcurrentHashMap<>();
    private final Map<String, LongAdder> postProcessing = new ConcurrentHashMap<>();

    /** The plan cache's counters ({@link ShapePlans.Counts}), kept with the other counters of the store. */
    private final ShapePlans.Counts shapePlans = new ShapePlans.Counts();

    /** The counters of the plans kept per query shape, which {@link ShapePlans} counts itself. */
    public ShapePlans.Counts shapePlans() {
        return shapePlans;
    }

    /**
     * A query shape whose plans cannot be kept: its queries compile a plan each; the reason is counted with the
     * fallback reasons ({@link #fallbackReasons}) as "shape plan not kept: REASON".
     */
    void shapePlanRefused(String reason) {
        countReason("shape plan not kept: " + reason);
        LOG.debug("plans of a query shape not kept: {}", reason);
    }

    /** Plans compiled for query shapes to be kept. */
    public long shapePlansKept() {
        return shapePlans.kept();
    }

    /** Evaluations that ran the plan kept for their query shape. */
    public long shapePlansReused() {
        return shapePlans.reused();
    }

    /** Evaluations that ran the plan kept for their query shape outside RDF4J's evaluation setup. */
    public long shapePlansRunDirectly() {
        return shapePlans.runDirectly();
    }

    /** Evaluations of shapes whose plans were refused, each optimized and compiled on its own. */
    public long shapePlansNotKept() {
        return shapePlans.notKept();
    }

    public void planCompiled() {
        plans.increment();
        LOG.debug("Basalt plan compiled");
    }

    /** RDF4J evaluates a node of this type (or the whole query, for a reason such as "Transaction"). */
    public void fallback(String what, String reason) {
        fallbacks.computeIfAbsent(what, k -> new LongAdder()).increment();
        countReason(what + ": " + reason);
        LOG.debug("Basalt leaves {} to RDF4J's evaluator: {}", what, reason);
    }

    /**
     * RDF4J's evaluator post-processes a native result with a node of this type (DESCRIBE's
     * expansion); not a fallback of the query's data access.
     */
    public void postProcessed(String what) {
        postProcessing.computeIfAbsent(what, k -> new LongAdder()).increment();
        LOG.debug("RDF4J post-processes a Basalt result with {}", what);
    }

    /** Post-processing counts by node type, sorted by name. */
    public Map<String, Long> postProcessing() {
        Map<String, Long> out = new TreeMap<>();
        postProcessing.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /** A plan met incoming bindings it cannot express as ids and handed its subtree to RDF4J. */
    public void runtimeFallback(String reason) {
        runtimeFallbacks.increment();
        countReason("run time: " + reason);
        LOG.debug("Basalt plan evaluated by RDF4J at run time: {}", reason);
    }

    public long plansCompiled() {
        return plans.sum();
    }

    public long runtimeFallbacks() {
        return runtimeFallbacks.sum();
    }

    /** Fallback counts by node type or reason, sorted by name. */
    public Map<String, Long> fallbacks() {
        Map<String, Long> out = new TreeMap<>();
        fallbacks.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    /**
     * Fallback counts by "node type: reason" (or "run time: reason" for runtime fallbacks), sorted;
     * the reasons say what the native engine lacks, the types in {@link #fallbacks()} where.
     */
    public Map<String, Long> fallbackReasons() {
        Map<String, Long> out = new TreeMap<>();
        reasons.forEach((k, v) -> out.put(k, v.sum()));
        return out;
    }

    private void countReason(String reason) {
        LongAdder counter = reasons.get(reason);
        if (counter == null) {
            String key = reasons.size() < MAX_REASONS ? reason : OTHER_REASONS;
            counter = reasons.computeIfAbsent(key, k -> new LongAdder());
        }
        counter.increment();
    }

    public long totalFallbacks() {
        return fallbacks.values().stream().mapToLong(LongAdder::sum).sum();
    }

    public void reset() {
        plans.reset();
        shapePlans.reset();
        runtimeFallbacks.reset();
        fallbacks.clear();
        reasons.clear();
        postProcessing.clear();
    }

    @Override
    public String toString() {
        return "plans=" + plansCompiled() + ", fallbacks=" + fallbacks() + ", runtimeFallbacks=" + runtimeFallbacks()
                + ", postProcessing=" + postProcessing();
    }
}
