package dev.basalt.sail.write;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.basalt.sail.inference.PreviewClosure;
import dev.basalt.sail.inference.Reasoner;
import dev.basalt.sail.inference.ReasonerTerms;
import dev.basalt.sail.inference.TripleList;
import dev.basalt.sail.read.PendingTerms;
import dev.basalt.sail.read.ReadSource;
import dev.basalt.sail.read.ReadView;
import dev.basalt.sail.read.StatementSet;

/**
 * What a connection's isolated transaction infers before it commits, so that its own reads with
 * inferred statements see the closure of its own changes (as RDF4J's inferencers show it) while
 * no other connection does.
 *
 * <p>The connection reports the triples its transaction may have made explicit or stopped making
 * explicit ({@link #added}, {@link #removed}). Before a read that includes inferred statements it
 * calls {@link #refresh}: for each triple reported since the last refresh, the net change is worked
 * out (is the triple explicit in the transaction now, is it explicit in the preview so far), the
 * store's {@link Reasoner} maintains the transaction's {@link PreviewClosure} with it, exactly as it
 * will at commit, and the difference between that closure's inferred statements and the commit
 * point's is written into the transaction's inferred change set, replacing the previous preview. The
 * preview builds on the newest commit point at the transaction's first such read and holds it
 * until the transaction ends, so each refresh costs the reasoning of the new changes only (plus a
 * pass over the preview's difference). The store's reasoner, which owns the inferred set, ignores
 * that change set at commit and computes the inferences again in the commit group, so a preview
 * can never put a wrong inferred statement into the store, and a rollback drops it with the rest
 * of the transaction.
 *
 * <p>Limits: a transaction that changed more than {@value #CHANGE_LIMIT} triples, cleared more,
 * or writes through into the store (a large transaction), and one that changes a schema
 * statement of a store with more than {@value #FULL_CLOSURE_LIMIT} explicit statements (the
 * preview would recompute the whole closure in the heap), sees no inferences of its own before
 * commit from then on.
 *
 * <p>Not thread-safe: one per connection, used by the connection's threads one at a time.
 */
public final class TransactionInferences {
    private static final Logger LOG = LoggerFactory.getLogger(TransactionInferences.class);
    /** Changed triples a preview follows; past them the transaction sees its inferences at commit. */
    public static final int CHANGE_LIMIT = 100_000;
    /** Explicit statements of the store past which a schema change is not previewed. */
    static final long FULL_CLOSURE_LIMIT = 200_000;
    private final Reasoner reasoner;
    private final ReadSource latest;
    private final ValueFactory vf;
    private final Set<Statement> changed = new LinkedHashSet<>();
    private boolean overflowed;
    /** Triples noted in the transaction so far (with repeats), against {@link #CHANGE_LIMIT}. */
    private int noted;
    private boolean dirty;
    private Set<Statement> shownAdded = new HashSet<>();
    private Set<Statement> shownRemoved = new HashSet<>();
    /** The commit point the transaction's preview builds on, held until the transaction ends; null before the first. */
    private ReadSource.Lease base;
    private PendingTerms terms;
    private PreviewClosure closure;
    /** True once the preview changed a schema statement. */
    private boolean schemaChanged;

    public TransactionInferences(Reasoner reasoner, ReadSource latest, ValueFactory vf) {
        this.reasoner = reasoner;
        this.latest = latest;
        this.vf = vf;
    }

    /** The transaction added an explicit statement of this triple. */
    public void added(Resource s, IRI p, Value o) {
        note(s, p, o);
    }

    /** The transaction removed an explicit statement of this triple (in some context). */
    public void removed(Resource s, IRI p, Value o) {
        note(s, p, o);
    }

    private void note(Resource s, IRI p, Value o) {
        dirty = true;
        if (overflowed) {
            return;
        }
        if (++noted > CHANGE_LIMIT) {
            overflow();
            return;
        }
        changed.add(vf.createStatement(s, p, o));
    }

    /** The transaction changed more than the preview follows: it sees its inferences at commit. */
    public void overflow() {
        dirty = true;
        overflowed = true;
        changed.clear();
        releaseBase();
    }

    /** Forgets the transaction (committed or rolled back); the next one starts empty. */
    public void reset() {
        changed.clear();
        noted = 0;
        overflowed = false;
        dirty = false;
        shownAdded = new HashSet<>();
        shownRemoved = new HashSet<>();
        releaseBase();
    }

    private void releaseBase() {
        closure = null;
        schemaChanged = false;
        terms = null;
        if (base != null) {
            base.close();
            base = null;
        }
    }

    /**
     * Brings the transaction's inferred change set up to date with its explicit changes, if they
     * changed since the last call.
     *
     * @return true if the change set was written (the caller then flushes it into the transaction)
     * @param explicitNow    whether a triple is explicit (in some context) in the transaction now
     * @param addInferred    adds an inferred statement to the transaction's change set
     * @param removeInferred removes one from it
     */
    public boolean refresh(Predicate<Statement> explicitNow, Consumer<Statement> addInferred,
            Consumer<Statement> removeInferred) {
        if (!dirty) {
            return false;
        }
        dirty = false;
        Set<Statement> added = new HashSet<>();
        Set<Statement> removed = new HashSet<>();
        if (!overflowed) {
            preview(explicitNow, added, removed);
        }
        if (overflowed) {
            added.clear();
            removed.clear();
        }
        each(shownAdded, added, removeInferred);
        each(shownRemoved, removed, addInferred);
        each(removed, shownRemoved, removeInferred);
        each(added, shownAdded, addInferred);
        boolean written = !shownAdded.isEmpty() || !shownRemoved.isEmpty() || !added.isEmpty() || !removed.isEmpty();
        shownAdded = added;
        shownRemoved = removed;
        return written;
    }

    /** Hands each statement of {@code from} that {@code except} does not hold to {@code action}. */
    private static void each(Set<Statement> from, Set<Statement> except, Consumer<Statement> action) {
        for (Statement st : from) {
            if (!except.contains(st)) {
                action.accept(st);
            }
        }
    }

    /**
     * Applies the triples changed since the last preview to the transaction's preview closure
     * (begun over the newest commit point at the first) and puts the closure's difference from that
     * commit point into {@code added} and {@code removed}.
     */
    private void preview(Predicate<Statement> explicitNow, Set<Statement> added, Set<Statement> removed) {
        if (base == null) {
            base = latest.acquire();
            ReadView view = base.view();
            terms = new PendingTerms(view.lexicon(), vf);
            closure = new PreviewClosure(view.quads(StatementSet.EXPLICIT), view.quads(StatementSet.INFERRED));
        }
        TripleList plus = new TripleList();
        TripleList minus = new TripleList();
        for (Statement st : changed) {
            long s = terms.lookup(st.getSubject()), p = terms.lookup(st.getPredicate()),
                    o = terms.lookup(st.getObject());
            boolean before = closure.isExplicitNow(s, p, o);
            boolean now = explicitNow.test(st);
            if (now && !before) {
                plus.add(s, p, o);
            } else if (before && !now) {
                minus.add(s, p, o);
            }
        }
        changed.clear();
        if (!plus.isEmpty() || !minus.isEmpty()) {
            boolean schemaChange = reasoner.changesSchema(reasonerTerms(), plus, minus);
            schemaChanged |= schemaChange;
            if (schemaChange && base.view().quads(StatementSet.EXPLICIT).size() > FULL_CLOSURE_LIMIT) {
                LOG.debug("a transaction changed a schema statement of a store with more than {} explicit statements: "
                        + "its inferences are computed at commit", FULL_CLOSURE_LIMIT);
                overflow();
                return;
            }
            for (int i = 0; i < plus.size(); i++) {
                closure.addExplicit(plus.s(i), plus.p(i), plus.o(i));
            }
            for (int i = 0; i < minus.size(); i++) {
                closure.removeExplicit(minus.s(i), minus.p(i), minus.o(i));
            }
            // the schema kept for the base commit point holds only while the preview left the schema alone
            reasoner.maintain(closure, reasonerTerms(), plus, minus, schemaChanged ? -1 : base.view().commitCounter());
        }
        statements(closure.inferredAdded(), added);
        statements(closure.inferredRemoved(), removed);
    }

    private ReasonerTerms reasonerTerms() {
        return ReasonerTerms.of(terms::lookup, id -> terms.resolve(new long[] { id })[0]);
    }

    private void statements(TripleList triples, Set<Statement> out) {
        for (int i = 0; i < triples.size(); i++) {
            Value[] v = terms.resolve(new long[] { triples.s(i), triples.p(i), triples.o(i) });
            out.add(vf.createStatement((Resource) v[0], (IRI) v[1], v[2]));
        }
    }
}
