package dev.basalt.sail;

import java.util.Arrays;
import java.util.function.Function;

import org.eclipse.rdf4j.model.Value;

/**
 * Resolving a batch of term ids in which the same id recurs: a result column repeating a subject or
 * a label, a predicate shared by a subject's statements, the empty (NULL) positions. Each distinct
 * id is resolved once and its value shared by its occurrences, so the lexicon's caches are probed
 * once per term instead of once per occurrence. Values are immutable, so sharing is invisible.
 */
final class DistinctTerms {
    private DistinctTerms() {
    }

    /** The values of {@code ids} (index-aligned) as {@code resolveAll} gives them for an array of distinct ids. */
    static Value[] resolve(long[] ids, Function<long[], Value[]> resolveAll) {
        long[] distinct = ids.clone();
        Arrays.sort(distinct);
        int n = 0;
        for (int i = 0; i < distinct.length; i++) {
            if (n == 0 || distinct[i] != distinct[n - 1]) {
                distinct[n++] = distinct[i];
            }
        }
        if (n == ids.length) {
            return resolveAll.apply(ids);
        }
        distinct = Arrays.copyOf(distinct, n);
        Value[] values = resolveAll.apply(distinct);
        Value[] out = new Value[ids.length];
        for (int i = 0; i < ids.length; i++) {
            out[i] = values[Arrays.binarySearch(distinct, ids[i])];
        }
        return out;
    }
}
