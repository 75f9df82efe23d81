package dev.basalt.sail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.Changeset;
import org.eclipse.rdf4j.sail.base.SailSink;

/**
 * The sink of one update operation of a connection at isolation NONE (see
 * {@link IsolatingSailStore}): the operation's changes are written straight into the store's write
 * transaction in batches and committed, durably, when the sink is flushed. Closing the sink
 * without a flush (a failed or rolled-back operation) rolls the whole operation back.
 *
 * <p>Changes are kept in order in a bounded buffer: additions as their terms (four per statement,
 * so that a full buffer is one {@link WriteSession#addAll(StatementSet, Value[], int)}, terms
 * resolved in one sorted pass and each statement index written in key order), removals, clears and
 * namespace changes as single steps between them. A small operation is written and committed at
 * {@link #flush()} in one commit group of its connection, as before. The first time the buffer
 * holds {@link #BATCH} changes the sink begins that group and keeps it until it is flushed or
 * closed: from then on every full buffer is written into the open transaction at once, so a large
 * load costs one pass through the store and bounded heap, and no other connection can commit
 * meanwhile (it waits, as for any commit group). Readers keep reading their pinned commit points
 * and never see part of the operation.
 *
 * <p>A large isolated transaction ({@link WriteThroughTransaction}) writes through the same kind of
 * sink, with a {@link Gate}: while the transaction's own reads have a live view open, a full buffer
 * is kept (and grows) instead of written, so an iteration of the operation's WHERE clause is not
 * made to copy its remaining matches by each batch; {@link #flush()} writes regardless, after the
 * gate has had open iterations detach (see {@link LiveReads}).
 *
 * <p>Inside a group of its own connection (the connection's explicit and inferred sinks, or a
 * namespace change made while its update is writing through) the commit waits for the outermost
 * group's end, so such changes commit together with the update.
 *
 * <p>Thread rules: one update operation's sink, used by one thread at a time (RDF4J may pass it between
 * threads between calls); its batches are written on the writer's background thread, each awaited
 * before the next is handed over.
 */
final class UnisolatedSink implements SailSink {
    /** Changes buffered before they are written; a full buffer of additions is one batch insert. */
    static final int BATCH = 100_000;

    private final StoreWriter writer;
    private final StatementSet set;
    private final Object owner;
    /** When buffers may be written, and what to do first (see the class comment). */
    private final Gate gate;

    /** The gate of a large transaction's sink (see the class comment). */
    interface Gate {
        /** False while full buffers must wait in memory. */
        boolean mayWrite();

        /** Runs before each write into the store's transaction. */
        void beforeWrite();
    }

    private static final Gate OPEN = new Gate() {
        @Override
        public boolean mayWrite() {
            return true;
        }

        @Override
        public void beforeWrite() {
            // nothing reads the transaction's trees
        }
    };
    /** Steps buffered before {@link #terms}' additions, in order: earlier additions, removals, clears, namespaces. */
    private List<Consumer<WriteSession>> steps = new ArrayList<>();
    private Value[] terms = new Value[64];
    private int added;
    /** Changes buffered: additions (sealed or not) and other steps. */
    private int buffered;
    private boolean writing;
    private boolean failed;
    /** The full buffer being written by the store writer's background thread, or null. */
    private CompletableFuture<Void> inFlight;

    UnisolatedSink(StoreWriter writer, StatementSet set, Object owner) {
        this(writer, set, owner, OPEN);
    }

    UnisolatedSink(StoreWriter writer, StatementSet set, Object owner, Gate gate) {
        this.writer = writer;
        this.set = set;
        this.owner = owner;
        this.gate = gate;
    }

    @Override
    public void prepare() {
        // nothing to check: NONE records no reads
    }

    @Override
    public void flush() throws SailException {
        ensureUsable();
        if (buffered == 0 && !writing) {
            return;
        }
        write(false);
        writing = false;
        writer.endGroup(owner, true);
    }

    @Override
    public void close() throws SailException {
        try {
            awaitWritten();
        } catch (RuntimeException e) {
            // the operation is rolled back below anyway
        } finally {
            steps.clear();
            terms = null;
            added = 0;
            buffered = 0;
            if (writing) {
                writing = false;
                writer.endGroup(owner, false);
            }
        }
    }

    @Override
    public void setNamespace(String prefix, String name) throws SailException {
        step(s -> s.setNamespace(prefix, name));
    }

    @Override
    public void removeNamespace(String prefix) throws SailException {
        step(s -> s.removeNamespace(prefix));
    }

    @Override
    public void clearNamespaces() throws SailException {
        step(WriteSession::clearNamespaces);
    }

    @Override
    public void clear(Resource... contexts) throws SailException {
        Resource[] copy = contexts.clone();
        step(s -> s.clear(set, copy));
    }

    @Override
    public void observe(Resource subj, IRI pred, Value obj, Resource... contexts) {
        // reads are not observed below SERIALIZABLE
    }

    @Override
    public void observe(Resource subj, IRI pred, Value obj, Resource context) {
        // reads are not observed below SERIALIZABLE
    }

    @Override
    public void observeAll(Set<Changeset.SimpleStatementPattern> observed) {
        // reads are not observed below SERIALIZABLE
    }

    @Override
    public void approve(Resource subj, IRI pred, Value obj, Resource ctx) throws SailException {
        ensureUsable();
        int at = added * 4;
        if (at == terms.length) {
            // past BATCH only while the gate holds full buffers back
            terms = Arrays.copyOf(terms, terms.length < BATCH * 4 ? Math.min(terms.length * 2, BATCH * 4) : terms.length * 2);
        }
        terms[at] = subj;
        terms[at + 1] = pred;
        terms[at + 2] = obj;
        terms[at + 3] = ctx;
        added++;
        if (++buffered >= BATCH && gate.mayWrite()) {
            write(true);
        }
    }

    @Override
    public void approve(Statement statement) throws SailException {
        approve(statement.getSubject(), statement.getPredicate(), statement.getObject(), statement.getContext());
    }

    @Override
    public void approveAll(Set<Statement> approved, Set<Resource> approvedContexts) {
        for (Statement st : approved) {
            approve(st);
        }
    }

    @Override
    public void deprecate(Statement statement) throws SailException {
        step(s -> s.remove(set, statement));
    }

    @Override
    public void deprecateAll(Set<Statement> deprecated) {
        for (Statement st : deprecated) {
            deprecate(st);
        }
    }

    /** Appends a step after the additions buffered so far. */
    private void step(Consumer<WriteSession> change) {
        ensureUsable();
        sealAdditions();
        steps.add(change);
        if (++buffered >= BATCH && gate.mayWrite()) {
            write(true);
        }
    }

    /** Turns the buffered additions into one step, so later steps apply after them. */
    private void sealAdditions() {
        if (added > 0) {
            Value[] batchTerms = terms;
            int count = added;
            steps.add(s -> s.addAll(set, batchTerms, count));
            terms = new Value[64];
            added = 0;
        }
    }

    /**
     * Writes the buffered changes into the store's transaction, in order (the steps, then the
     * additions since the last step), beginning this operation's group first. A full buffer is
     * written by the store writer's background thread while this thread fills the next one (Rio's
     * parsing and RDF4J's statement handling overlap term resolution and index inserts); at most
     * one buffer is in flight, so order is kept and heap stays bounded by two buffers.
     */
    private void write(boolean inBackground) {
        awaitWritten();
        List<Consumer<WriteSession>> before = steps;
        Value[] batchTerms = terms;
        int count = added;
        steps = new ArrayList<>();
        terms = new Value[Math.min(terms.length, BATCH * 4)];
        added = 0;
        buffered = 0;
        Consumer<WriteSession> change = s -> {
            before.forEach(step -> step.accept(s));
            if (count > 0) {
                s.addAll(set, batchTerms, count);
            }
        };
        try {
            if (!writing) {
                writer.beginGroup(owner);
                writing = true;
            }
            gate.beforeWrite();
            if (inBackground) {
                inFlight = writer.writeInBackground(owner, change);
            } else {
                writer.writeAs(owner, change);
            }
        } catch (RuntimeException e) {
            failed = true;
            throw e;
        }
    }

    /** Waits (uninterruptibly) until the buffer in flight is written; rethrows its failure. */
    private void awaitWritten() {
        CompletableFuture<Void> f = inFlight;
        if (f == null) {
            return;
        }
        inFlight = null;
        try {
            f.join();
        } catch (CompletionException e) {
            failed = true;
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new SailException("writing a batch of an update operation failed: " + e.getCause(), e.getCause());
        }
    }

    private void ensureUsable() {
        if (failed) {
            throw new SailException("an earlier write of this update operation failed and the operation was rolled "
                    + "back; roll back the transaction");
        }
        if (terms == null) {
            throw new SailException("this update operation's sink is closed");
        }
    }
}
