package dev.basalt.sail.write;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.Changeset;
import dev.basalt.sail.read.StatementSet;

/**
 * The sink of one update operation of a connection at isolation NONE (see
 * {@code IsolatingSailStore}): the operation's changes are written straight into the store's write
 * transaction in batches and committed, durably, when the sink is flushed. Closing the sink
 * without a flush (a failed or rolled-back operation) rolls the whole operation back.
 *
 * <p>Changes are kept in order in a {@link WriteBatch}. A small operation is written and committed
 * at {@link #flush()} in one commit group of its connection. The first time the batch is full
 * ({@link WriteBatch#SIZE} changes) the sink begins that group and keeps it until it is flushed or
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
public final class UnisolatedSink extends BatchingSink {
    private final Object owner;
    /** When buffers may be written, and what to do first (see the class comment). */
    private final Gate gate;

    /** The gate of a large transaction's sink (see the class comment). */
    public interface Gate {
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
    private boolean writing;
    private boolean failed;
    private boolean closed;
    /** The full buffer being written by the store writer's background thread, or null. */
    private CompletableFuture<Void> inFlight;

    public UnisolatedSink(StoreWriter writer, StatementSet set, Object owner) {
        this(writer, set, owner, OPEN);
    }

    public UnisolatedSink(StoreWriter writer, StatementSet set, Object owner, Gate gate) {
        super(writer, set);
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
        if (batch.isEmpty() && !writing) {
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
            batch.discard();
            closed = true;
            if (writing) {
                writing = false;
                writer.endGroup(owner, false);
            }
        }
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
    void changed() {
        if (batch.isFull() && gate.mayWrite()) {
            write(true);
        }
    }

    /**
     * Writes the buffered changes into the store's transaction, in order, beginning this
     * operation's group first. A full buffer is written by the store writer's background thread
     * while this thread fills the next one (Rio's parsing and RDF4J's statement handling overlap
     * term resolution and index inserts); at most one buffer is in flight, so order is kept and heap
     * stays bounded by two buffers.
     */
    private void write(boolean inBackground) {
        awaitWritten();
        var change = batch.take();
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

    @Override
    void ensureUsable() {
        if (failed) {
            throw new SailException("an earlier write of this update operation failed and the operation was rolled "
                    + "back; roll back the transaction");
        }
        if (closed) {
            throw new SailException("this update operation's sink is closed");
        }
    }
}
