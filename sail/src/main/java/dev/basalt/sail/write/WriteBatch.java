package dev.basalt.sail.write;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import dev.basalt.sail.read.StatementSet;

/**
 * The one batch of changes to one statement set that every write route hands to the
 * {@link StoreWriter}, of one size, {@link #SIZE}. Changes are kept in order: additions as their
 * terms (four per statement, so that a batch of additions is one
 * {@link WriteSession#addAll(StatementSet, Value[], int)}: terms resolved in one sorted pass and
 * each statement index written in key order), removals, clears and namespace changes as single
 * steps between them. {@link #take()} turns what is buffered into one change for the writer's
 * session and empties the batch.
 *
 * <p>The write routes of the sail, its front door for writes (each ends in {@link StoreWriter}):
 * <ol>
 * <li>a small isolated transaction: RDF4J's branch flushes into a {@link BasaltSailSink} inside the
 * connection's commit group;</li>
 * <li>a large isolated transaction: {@link GrowingBranch} promotes it ({@link WriteThroughTransaction})
 * and its changes go through an {@link UnisolatedSink} gated by its open reads;</li>
 * <li>isolation NONE: each update operation writes through an {@link UnisolatedSink};</li>
 * <li>bulk adds: {@code IsolatingSailStore#bulkWrite} runs a {@link BulkWrite} (the loader's
 * pipeline) in the connection's session;</li>
 * <li>removals by pattern ({@link WriteSession#clear}) walk the indices {@link #SIZE} quads at a time.</li>
 * </ol>
 * The offline loader ({@code basalt load}) writes a closed store's journal itself and is not a
 * route of a running sail.
 *
 * <p>Thread rules: not thread-safe; one sink fills it in one thread at a time, and a taken change
 * is run by the writer (possibly on its background thread) after the batch has let go of it.
 */
public final class WriteBatch {
    /** Changes a batch holds before it is full: the batch size of every write route. */
    public static final int SIZE = 100_000;

    private final StatementSet set;
    /** Steps buffered before {@link #terms}' additions, in order. */
    private List<Consumer<WriteSession>> steps = new ArrayList<>();
    private Value[] terms = new Value[64];
    private int added;
    /** Changes buffered: additions and other steps. */
    private int size;

    WriteBatch(StatementSet set) {
        this.set = set;
    }

    StatementSet set() {
        return set;
    }

    /** Buffers an addition; a null context is the default graph. */
    void add(Resource subj, org.eclipse.rdf4j.model.IRI pred, Value obj, Resource ctx) {
        int at = added * 4;
        if (at == terms.length) {
            // past SIZE only while the caller holds a full batch back
            terms = Arrays.copyOf(terms, terms.length < SIZE * 4 ? Math.min(terms.length * 2, SIZE * 4)
                    : terms.length * 2);
        }
        terms[at] = subj;
        terms[at + 1] = pred;
        terms[at + 2] = obj;
        terms[at + 3] = ctx;
        added++;
        size++;
    }

    /** Buffers a removal after the changes buffered so far. */
    void remove(Statement statement) {
        step(s -> s.remove(set, statement));
    }

    /** Buffers a clear of the given contexts (none: all) of the set. */
    void clear(Resource... contexts) {
        Resource[] copy = contexts.clone();
        step(s -> s.clear(set, copy));
    }

    /** Buffers any other change (namespaces) after the changes buffered so far. */
    void step(Consumer<WriteSession> change) {
        sealAdditions();
        steps.add(change);
        size++;
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

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    boolean isFull() {
        return size >= SIZE;
    }

    /** The buffered changes as one change of the writer's session, in order; the batch is empty after. */
    Consumer<WriteSession> take() {
        List<Consumer<WriteSession>> before = steps;
        Value[] batchTerms = terms;
        int count = added;
        steps = new ArrayList<>();
        terms = new Value[Math.min(terms.length, SIZE * 4)];
        added = 0;
        size = 0;
        return s -> {
            before.forEach(step -> step.accept(s));
            if (count > 0) {
                s.addAll(set, batchTerms, count);
            }
        };
    }

    /** Drops what is buffered. */
    void discard() {
        steps = new ArrayList<>();
        terms = new Value[64];
        added = 0;
        size = 0;
    }
}
