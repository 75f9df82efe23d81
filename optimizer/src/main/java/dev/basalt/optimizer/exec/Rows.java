package dev.basalt.optimizer.exec;

import dev.basalt.store.lexicon.TermIds;

/**
 * Helpers on solution rows (ids by slot, 0 = unbound). Stateless; any thread may call it.
 */
final class Rows {
    private Rows() {
    }

    /** True if no slot is bound in both rows to different ids (SPARQL compatibility). */
    static boolean compatible(long[] a, long[] b, int[] shared) {
        for (int s : shared) {
            if (a[s] != TermIds.NULL && b[s] != TermIds.NULL && a[s] != b[s]) {
                return false;
            }
        }
        return true;
    }

    /** The union of two compatible rows. */
    static long[] merge(long[] a, long[] b) {
        long[] m = a.clone();
        for (int i = 0; i < m.length; i++) {
            if (m[i] == TermIds.NULL) {
                m[i] = b[i];
            }
        }
        return m;
    }
}
