package dev.basalt.sail.read;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

import org.eclipse.rdf4j.common.iteration.LookAheadIteration;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.ValueFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadCursor;
import dev.basalt.store.quads.QuadOrder;

/**
 * The distinct named graphs of one statement set. With an index whose order starts with the
 * context (such as {@code cspo}) each graph costs one descent: after reading context c the
 * cursor re-seeks to the first key of context c + 1, skipping c's statements. Without such an
 * index the primary index is scanned once and contexts collected in a sorted set.
 *
 * <p>Not thread-safe: read by one thread at a time, like every RDF4J iteration; it holds its own read
 * lease until closed.
 */
final class ContextIteration extends LookAheadIteration<Resource> {
    private final ReadSource.Lease lease;
    private final StatementSet set;
    private final ValueFactory vf;
    private final QuadOrder contextFirst;
    private long nextContext = TermIds.DEFAULT_GRAPH + 1;
    private boolean done;
    private Iterator<Long> collected;

    ContextIteration(ReadSource.Lease lease, StatementSet set, ValueFactory vf) {
        this.lease = lease;
        this.set = set;
        this.vf = vf;
        this.contextFirst = lease.view().quads(set).orders().stream()
                .filter(o -> o.name().charAt(0) == 'c').findFirst().orElse(null);
    }

    @Override
    protected Resource getNextElement() {
        long context = contextFirst != null ? seekNext() : scanNext();
        if (context == TermIds.NULL) {
            lease.close();
            return null;
        }
        return (Resource) lease.view().lexicon().resolve(context, vf);
    }

    private long seekNext() {
        if (lease.view().live() != null) {
            // a large transaction's live view may change between calls: read every graph now
            if (collected == null) {
                List<Long> all = new ArrayList<>();
                for (long c = seekContext(); c != TermIds.NULL; c = seekContext()) {
                    all.add(c);
                }
                collected = all.iterator();
            }
            lease.view().ensureReadable();
            return collected.hasNext() ? collected.next() : TermIds.NULL;
        }
        return seekContext();
    }

    private long seekContext() {
        BTree tree = lease.view().tree(set.treeName(contextFirst));
        if (done || tree == null) {
            return TermIds.NULL;
        }
        BTreeCursor c = tree.cursor(contextFirst.lowerBound(new long[] { 0, 0, 0, nextContext }), null);
        if (!c.next()) {
            done = true;
            return TermIds.NULL;
        }
        long[] quad = new long[4];
        contextFirst.decode(c.key(), quad);
        long context = quad[QuadOrder.C];
        done = context == -1L;
        nextContext = context + 1;
        return context;
    }

    private long scanNext() {
        if (collected == null) {
            TreeSet<Long> contexts = new TreeSet<>(Long::compareUnsigned);
            QuadCursor c = lease.view().quads(set).scan(new long[4]);
            while (c.next()) {
                if (c.quad()[QuadOrder.C] != TermIds.DEFAULT_GRAPH) {
                    contexts.add(c.quad()[QuadOrder.C]);
                }
            }
            collected = contexts.iterator();
        }
        return collected.hasNext() ? collected.next() : TermIds.NULL;
    }

    @Override
    protected void handleClose() {
        lease.close();
    }
}
