package dev.basalt.sail.read;

import java.util.ArrayDeque;
import java.util.Arrays;
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
    private static final int FIRST_BATCH = 16;
    private final ReadSource.Lease lease;
    private final QuadIndexes quads;
    private final List<long[]> patterns;
    /** Per S, P, O: the bound value a statement reuses instead of resolving its id, or null. */
    private final Value[] reused = new Value[3];
    /** Per S, P, O, C: all ones where the id is resolved, zero ({@link TermIds#NULL}) where the value is reused. */
    private final long[] resolvedMask = { -1L, -1L, -1L, -1L };
    private final ValueFactory vf;
    /** Quads the next {@link #fill} reads at most. */
    private int batch = FIRST_BATCH;
    private final ArrayDeque<Statement> buffer = new ArrayDeque<>(FIRST_BATCH);
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
        for (int pos = 0; pos < 3; pos++) {
            // bound literals are resolved: a result shows the stored form
            if (boundValues[pos] != null && !(boundValues[pos] instanceof Literal)) {
                reused[pos] = boundValues[pos];
                resolvedMask[pos] = TermIds.NULL;
            }
        }
        this.vf = vf;
        LiveTransaction live = lease.view().live();
        this.untrack = live == null ? null : live.track(this::detach);
    }

    /** Reads the remaining matches into memory: the live view's trees are about to change. */
    private void detach() {
        ArrayDeque<long[]> remaining = new ArrayDeque<>();
        long[] quad;
        while ((quad = nextQuad()) != null) {
            remaining.add(quad.clone());
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

    /**
     * Reads up to {@link #batch} quads and resolves their terms in one batch: {@value #FIRST_BATCH} first, twice as
     * many each time after up to {@value #BATCH}, and nothing allocated when no quad is left, so a read of a few
     * statements (each value a DESCRIBE reads, twice) costs a few (a batch of {@value #BATCH} is an 8 KB array). The
     * loops hold no branch that depends on the query (which positions are bound is a mask), so the JIT's profile of
     * the first queries holds for later ones.
     */
    private void fill() {
        lease.view().ensureReadable();
        long[] quad = nextQuad();
        if (quad == null) {
            return;
        }
        int size = batch;
        batch = Math.min(BATCH, 2 * size);
        long[] ids = new long[size * 4];
        long[] mask = resolvedMask;
        int n = 0;
        do {
            int at = 4 * n++;
            ids[at] = quad[0] & mask[0];
            ids[at + 1] = quad[1] & mask[1];
            ids[at + 2] = quad[2] & mask[2];
            ids[at + 3] = quad[3] & mask[3];
        } while (n < size && (quad = nextQuad()) != null);
        Value[] values = lease.view().lexicon().resolveAll(n == size ? ids : Arrays.copyOf(ids, 4 * n), vf);
        for (int i = 0; i < n; i++) {
            buffer.add(statement(values, 4 * i));
        }
    }

    private Statement statement(Value[] values, int at) {
        Resource s = (Resource) (reused[0] != null ? reused[0] : values[at]);
        IRI p = (IRI) (reused[1] != null ? reused[1] : values[at + 1]);
        Value o = reused[2] != null ? reused[2] : values[at + 2];
        Resource c = (Resource) values[at + 3];
        return c == null ? vf.createStatement(s, p, o) : vf.createStatement(s, p, o, c);
    }

    /** The next matching quad (an array the next call may overwrite), or null when there is none. */
    private long[] nextQuad() {
        if (rest != null) {
            return rest.poll();
        }
        while (true) {
            if (cursor == null) {
                if (nextPattern == patterns.size()) {
                    return null;
                }
                cursor = quads.scan(patterns.get(nextPattern++));
            }
            if (cursor.next()) {
                return cursor.quad();
            }
            cursor = null;
        }
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
