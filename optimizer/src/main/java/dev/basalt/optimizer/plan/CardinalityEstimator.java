package dev.basalt.optimizer.plan;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.PatternScan;

/**
 * Estimates how many rows a pattern yields per input row, given which of its variables the input
 * binds. With no bound variable that is the exact range count of the pattern with its constants.
 * With bound variables it samples matches of the constant pattern and averages the exact counts
 * of the pattern with the sampled values in the bound positions: the expected fan-out for a
 * binding drawn like the data. (Weighted by occurrence, so it leans high on skewed data; the
 * {@link RuntimeJoinOrderer} measures joins on samples instead.) A pattern whose constants match at
 * most one quad is not sampled: its fan-out is at most that count.
 *
 * A pattern with object ranges (a FILTER's bounds on its object, {@link PatternScan#rangeShare}) keeps
 * their share of its matches where the input leaves its subject and object free.
 *
 * <p>Estimates are cached under the pattern's constants and bound positions, in a map that may be
 * shared by all queries reading the same state ({@link EstimateCache}).
 * Used by the thread compiling one query (its source is that query's); a cache shared with other
 * queries' estimators is an {@link EstimateCache} map, which is thread-safe.
 */
public final class CardinalityEstimator {
    static final int SAMPLE = 16;
    private final QuadSource source;
    private final Map<Key, Double> cache;

    /** Cache key: the pattern's constants and a bit per position bound by the input (bit 4 set for a count). */
    public record Key(long s, long p, long o, long c, int bound) {
    }

    public CardinalityEstimator(QuadSource source) {
        this(source, new HashMap<>());
    }

    /** An estimator using (and filling) {@code cache}, which must hold estimates of this source's state only. */
    public CardinalityEstimator(QuadSource source, Map<Key, Double> cache) {
        this.source = source;
        this.cache = cache;
    }

    public double estimate(PatternScan scan, Set<Integer> bound) {
        double est = matches(scan, bound);
        // object ranges read only their share of the matches where the input binds neither subject nor object
        int s = scan.slots()[0];
        int o = scan.slots()[2];
        return o >= 0 && !bound.contains(o) && !(s >= 0 && bound.contains(s)) ? est * scan.rangeShare() : est;
    }

    private double matches(PatternScan scan, Set<Integer> bound) {
        if (scan.matchesNothing()) {
            return 0;
        }
        long[] constants = scan.constants();
        int[] slots = scan.slots();
        int boundMask = 0;
        for (int i = 0; i < 4; i++) {
            if (slots[i] >= 0 && bound.contains(slots[i]) || scan.equalSlot(i) >= 0 && bound.contains(scan.equalSlot(i))) {
                boundMask |= 1 << i;
            }
        }
        if (scan.contexts() != null) {
            // restricted to a dataset's graphs: not shared, the cache is keyed by constants only
            return boundMask != 0 ? fanOut(scan, constants, boundMask) : count(scan, constants);
        }
        if (boundMask == 0) {
            // the estimate is the count: cached once, under the count's key
            return count(constants);
        }
        Key key = new Key(constants[0], constants[1], constants[2], constants[3], boundMask);
        Double cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        double est = count(constants);
        if (est > 1) {
            est = fanOut(scan, constants, boundMask);
        }
        cache.put(key, est);
        return est;
    }

    private double count(long[] constants) {
        Key key = new Key(constants[0], constants[1], constants[2], constants[3], 1 << 4);
        Double cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        double n = source.estimate(constants);
        cache.put(key, n);
        return n;
    }

    private double fanOut(PatternScan scan, long[] constants, int boundMask) {
        long[][] sample = source.sample(constants, SAMPLE);
        if (sample.length == 0) {
            return 0;
        }
        double sum = 0;
        for (long[] q : sample) {
            long[] p = constants.clone();
            for (int i = 0; i < 4; i++) {
                if ((boundMask & 1 << i) != 0) {
                    p[i] = q[i];
                }
            }
            sum += count(scan, p);
        }
        return sum / sample.length;
    }

    /** Matches of {@code pattern} within the graphs the scan is restricted to (a dataset), if any. */
    private long count(PatternScan scan, long[] pattern) {
        long[] contexts = scan.contexts();
        if (contexts == null || pattern[3] != 0) {
            return source.estimate(pattern);
        }
        long n = 0;
        for (long c : contexts) {
            long[] p = pattern.clone();
            p[3] = c;
            n += source.estimate(p);
        }
        return n;
    }
}
