package dev.basalt.sail.read;

import java.util.ArrayDeque;
import java.util.List;

import org.eclipse.rdf4j.common.iteration.LookAheadIteration;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;

import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadCursor;
import dev.basalt.store.quads.QuadIndexes;

/**
 * Statements matching one or more quad patterns (one per requested context), read from the
 * statement indices of one set. Quads are read {@value #BATCH} at a time and their terms resolved
 * in one batch, each distinct id once ({@link DistinctTerms}); a bound subject, predicate or context is reused instead of resolved
 * (bound literals are resolved, so a result shows the stored form, e.g. a normalized language
 * tag). Holds its read lease until closed or exhausted.
 *
 * <p>On a live view (a large transaction's own writes, see {@link ReadView}) the iteration is
 * tracked by the transaction's {@code LiveReads}: before the transaction writes again, the
 * iteration reads its remaining matches into memory ({@link #detach()}), so it shows the state it
 * started on.
 *
 * <p>Thread rules: read by one thread at a time, like every RDF4J iteration; on a live view its detach
 * runs before the transaction's next write, in the thread of that write, which the connection
 * serializes with its reads.
 */
final class StatementIteration extends LookAheadIteration<Statement> {
    private static final int BATCH = 256;
    private final ReadSource.Lease lease;
    private final QuadIndexes quads;
    private final List<long[]> patterns;
    private final Value[] boundValues;
    private final ValueFactory vf;
    private final ArrayDeque<Statement> buffer = new ArrayDeque<>(BATCH);
    private int nextPattern;
    private QuadCursor cursor;
    /** The remaining matches once detached from a live view's trees, else null. */
    private ArrayDeque<long[]> rest;
    /** Unregisters from a live view's transaction, or null. */
    private final Runnable untrack;
    private boolean released;

    /**
     * @param patterns    quad patterns in S, P, O, C positions (0 = unbound), scanned in order
     * @param boundValues the values given for S, P, O (null where unbound); the context value is
     *                    taken from the pattern's context id
     */
    StatementIteration(ReadSource.Lease lease, StatementSet set, List<long[]> patterns, Value[] boundValues,
            ValueFactory vf) {
        this.lease = lease;
        this.quads = lease.view().quads(set);
        this.patterns = patterns;
        this.boundValues = boundValues;
        this.vf = vf;
        LiveTransaction live = lease.view().live();
        this.untrack = live == null ? null : live.track(this::detach);
    }

    /** Reads the remaining matches into memory: the live view's trees are about to change. */
    private void detach() {
        ArrayDeque<long[]> remaining = new ArrayDeque<>();
        while (true) {
            if (cursor == null) {
                if (nextPattern == patterns.size()) {
                    break;
                }
                cursor = quads.scan(patterns.get(nextPattern++));
            }
            if (cursor.next()) {
                remaining.add(cursor.quad().clone());
            } else {
                cursor = null;
            }
        }
        rest = remaining;
    }

    @Override
    protected Statement getNextElement() {
        if (buffer.isEmpty()) {
            fill();
        }
        Statement st = buffer.poll();
        if (st == null) {
            release();
        }
        return st;
    }

    private void fill() {
        lease.view().ensureReadable();
        long[][] batch = new long[BATCH][];
        int n = 0;
        while (n < BATCH) {
            if (rest != null) {
                long[] quad = rest.poll();
                if (quad == null) {
                    break;
                }
                batch[n++] = quad;
                continue;
            }
            if (cursor == null) {
                if (nextPattern == patterns.size()) {
                    break;
                }
                cursor = quads.scan(patterns.get(nextPattern++));
            }
            if (cursor.next()) {
                batch[n++] = cursor.quad().clone();
            } else {
                cursor = null;
            }
        }
        if (n == 0) {
            return;
        }
        long[] ids = new long[n * 4];
        for (int i = 0; i < n; i++) {
            for (int pos = 0; pos < 4; pos++) {
                ids[i * 4 + pos] = reusable(pos) ? TermIds.NULL : batch[i][pos];
            }
        }
        Value[] values = lease.view().lexicon().resolveAll(ids, vf);
        for (int i = 0; i < n; i++) {
            Resource s = (Resource) (reusable(0) ? boundValues[0] : values[i * 4]);
            IRI p = (IRI) (reusable(1) ? boundValues[1] : values[i * 4 + 1]);
            Value o = reusable(2) ? boundValues[2] : values[i * 4 + 2];
            Resource c = (Resource) values[i * 4 + 3];
            buffer.add(c == null ? vf.createStatement(s, p, o) : vf.createStatement(s, p, o, c));
        }
    }

    private boolean reusable(int pos) {
        return pos < 3 && boundValues[pos] != null && !(boundValues[pos] instanceof Literal);
    }

    private void release() {
        if (!released) {
            released = true;
            if (untrack != null) {
                untrack.run();
            }
            rest = null;
            lease.close();
        }
    }

    @Override
    protected void handleClose() {
        release();
    }
}
