package dev.basalt.optimizer.exec;

import java.util.Arrays;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.TermIds;

/**
 * Scans of a quad pattern restricted to a set of graphs (a query's dataset): one index range per
 * graph, or, when the pattern has fewer matches in all graphs than there are graphs, one scan of
 * the whole pattern keeping the quads of the listed graphs. Each matching quad is yielded once.
 * Stateless; each scan it opens is used by the thread that opened it.
 */
final class ContextScans {
    /** Graph counts above which the matches of the unrestricted pattern are counted first. */
    private static final int COUNT_ABOVE = 4;

    private ContextScans() {
    }

    /**
     * @param pattern the pattern, its context position free
     * @param contexts distinct context ids
     * @param sorted the same ids sorted, for membership tests
     */
    static QuadSource.Scan open(QuadSource source, long[] pattern, long[] contexts, long[] sorted) {
        if (contexts.length == 1) {
            long[] p = pattern.clone();
            p[3] = contexts[0];
            return source.scan(p);
        }
        if (contexts.length > COUNT_ABOVE && source.estimate(pattern) <= contexts.length) {
            QuadSource.Scan all = source.scan(pattern);
            return new QuadSource.Scan() {
                @Override
                public boolean next(long[] quad) {
                    while (all.next(quad)) {
                        if (contains(sorted, quad[3])) {
                            return true;
                        }
                    }
                    return false;
                }

                @Override
                public void close() {
                    all.close();
                }
            };
        }
        return new QuadSource.Scan() {
            int i = -1;
            QuadSource.Scan current;

            @Override
            public boolean next(long[] quad) {
                while (true) {
                    if (current != null && current.next(quad)) {
                        return true;
                    }
                    if (current != null) {
                        current.close();
                        current = null;
                    }
                    if (++i >= contexts.length) {
                        return false;
                    }
                    long[] p = pattern.clone();
                    p[3] = contexts[i];
                    current = source.scan(p);
                }
            }

            @Override
            public void close() {
                if (current != null) {
                    current.close();
                    current = null;
                }
                i = contexts.length;
            }
        };
    }

    static boolean contains(long[] sorted, long id) {
        return id != TermIds.NULL && Arrays.binarySearch(sorted, id) >= 0;
    }
}
