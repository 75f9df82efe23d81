package dev.basalt.optimizer.plan;

import java.util.Arrays;
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
 * runtime optimizer of issue 5 is to refine it with cut-off joins.)
 */
public final class CardinalityEstimator {
    static final int SAMPLE = 16;
    private final QuadSource source;
    private final Map<String, Double> cache = new HashMap<>();

    public CardinalityEstimator(QuadSource source) {
        this.source = source;
    }

    public double estimate(PatternScan scan, Set<Integer> bound) {
        if (scan.matchesNothing()) {
            return 0;
        }
        long[] constants = scan.constants();
        int[] slots = scan.slots();
        boolean[] boundPos = new boolean[4];
        boolean any = false;
        for (int i = 0; i < 4; i++) {
            boundPos[i] = slots[i] >= 0 && bound.contains(slots[i]);
            any |= boundPos[i];
        }
        String key = Arrays.toString(constants) + Arrays.toString(boundPos);
        Double cached = cache.get(key);
        if (cached != null) {
            return cached;
        }
        double est;
        if (!any) {
            est = count(scan, constants);
        } else {
            long[][] sample = source.sample(constants, SAMPLE);
            if (sample.length == 0) {
                est = 0;
            } else {
                double sum = 0;
                for (long[] q : sample) {
                    long[] p = constants.clone();
                    for (int i = 0; i < 4; i++) {
                        if (boundPos[i]) {
                            p[i] = q[i];
                        }
                    }
                    sum += count(scan, p);
                }
                est = sum / sample.length;
            }
        }
        cache.put(key, est);
        return est;
    }

    /** Matches of {@code pattern} within the graphs the scan is restricted to (a dataset). */
    private long count(PatternScan scan, long[] pattern) {
        long[] contexts = scan.contexts();
        if (contexts == null || pattern[3] != 0) {
            return source.count(pattern);
        }
        long n = 0;
        for (long c : contexts) {
            long[] p = pattern.clone();
            p[3] = c;
            n += source.count(p);
        }
        return n;
    }
}
