package dev.basalt.sail.read;

import java.util.LinkedHashSet;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.sail.SailConflictException;

import dev.basalt.store.lexicon.LexiconReader;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadCursor;

/**
 * Optimistic conflict detection of one SERIALIZABLE transaction for one statement set. RDF4J's
 * branch reports every pattern the transaction read ({@link #observe}); {@link #check()} fails
 * with {@link SailConflictException} if the statements matching any of them differ between the
 * commit point the transaction read (its start view) and the newest commit point. Run inside the
 * store writer's commit group, no other commit can land between the check and the transaction's
 * own commit, which makes the check sufficient for serializability of the statements read.
 *
 * <p>The start view is the one the branch's snapshot dataset pinned (handed over through
 * {@link #startAt}); until then it is the newest commit point when this object was created, which
 * is no later than that dataset's, so a check against it can only report extra conflicts. Term ids
 * are never reassigned, so quads of both views can be compared id by id.
 *
 * <p>Thread-safe: every method is synchronized, since the transaction's reads record patterns in whichever
 * thread uses the connection while its commit checks them in another.
 */
public final class ObservedReads implements AutoCloseable {
    private final ReadSource latest;
    private final StatementSet set;
    private final Set<Pattern> observed = new LinkedHashSet<>();
    private ReadSource.Lease start;

    private record Pattern(Value subj, IRI pred, Value obj, Resource context, boolean allContexts) {
    }

    public ObservedReads(ReadSource latest, StatementSet set) {
        this.latest = latest;
        this.set = set;
        this.start = latest.acquire();
    }

    /** The transaction's reads come from {@code lease}'s view; takes the lease over. */
    public synchronized void startAt(ReadSource.Lease lease) {
        if (start == null) {
            lease.close();
            return;
        }
        start.close();
        start = lease;
    }

    public synchronized void observe(Resource subj, IRI pred, Value obj, Resource... contexts) {
        if (contexts == null || contexts.length == 0) {
            observed.add(new Pattern(subj, pred, obj, null, true));
        } else {
            for (Resource c : contexts) {
                observed.add(new Pattern(subj, pred, obj, c, false));
            }
        }
    }

    public synchronized void check() {
        if (start == null || observed.isEmpty()) {
            return;
        }
        try (ReadSource.Lease now = latest.acquire()) {
            ReadView before = start.view();
            ReadView after = now.view();
            if (before.commitCounter() == after.commitCounter()) {
                return;
            }
            for (Pattern p : observed) {
                if (!sameMatches(before, after, p)) {
                    throw new SailConflictException("Observed State has Changed: statements matching " + describe(p)
                            + " were changed by a transaction committed after commit point " + before.commitCounter()
                            + ", which this SERIALIZABLE transaction read; retry the transaction");
                }
            }
        }
    }

    private boolean sameMatches(ReadView before, ReadView after, Pattern p) {
        long[] a = ids(before.lexicon(), p);
        long[] b = ids(after.lexicon(), p);
        if (a == null || b == null) {
            return (a == null || before.quads(set).count(a) == 0) && (b == null || after.quads(set).count(b) == 0);
        }
        QuadCursor x = before.quads(set).scan(a);
        QuadCursor y = after.quads(set).scan(b);
        while (true) {
            boolean more = x.next();
            if (more != y.next()) {
                return false;
            }
            if (!more) {
                return true;
            }
            long[] qx = x.quad();
            long[] qy = y.quad();
            for (int i = 0; i < 4; i++) {
                if (qx[i] != qy[i]) {
                    return false;
                }
            }
        }
    }

    /** The quad pattern of {@code p} in a view's dictionary, or null if a bound term is not in it. */
    private static long[] ids(LexiconReader lexicon, Pattern p) {
        Value[] given = { p.subj(), p.pred(), p.obj() };
        long[] quad = new long[4];
        for (int i = 0; i < 3; i++) {
            if (given[i] != null) {
                quad[i] = lexicon.lookup(given[i]);
                if (quad[i] == TermIds.NULL) {
                    return null;
                }
            }
        }
        if (!p.allContexts()) {
            quad[3] = p.context() == null ? TermIds.DEFAULT_GRAPH : lexicon.lookup(p.context());
            if (quad[3] == TermIds.NULL) {
                return null;
            }
        }
        return quad;
    }

    private static String describe(Pattern p) {
        return "(" + p.subj() + ", " + p.pred() + ", " + p.obj() + ", "
                + (p.allContexts() ? "any graph" : p.context() == null ? "default graph" : p.context()) + ")";
    }

    @Override
    public synchronized void close() {
        if (start != null) {
            start.close();
            start = null;
        }
        observed.clear();
    }
}
