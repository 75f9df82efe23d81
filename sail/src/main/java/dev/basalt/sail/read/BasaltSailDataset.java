package dev.basalt.sail.read;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.common.iteration.CloseableIteratorIteration;
import org.eclipse.rdf4j.common.iteration.EmptyIteration;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Namespace;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.sail.SailException;
import org.eclipse.rdf4j.sail.base.SailDataset;

import dev.basalt.store.lexicon.LexiconReader;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.quads.QuadIndexes;

/**
 * Reads one statement set of one commit point: the dataset holds a lease on a view (for the live
 * store, the newest commit point when the dataset was created) from construction until
 * {@link #close()}, so every read through it sees the same committed state however many commits
 * happen meanwhile; this is what makes a transaction branch's cached dataset a true snapshot.
 * An iteration it returns holds its own share of the lease and may outlive the dataset.
 *
 * <p>Thread rules: used by one thread at a time, as RDF4J's branches use their datasets; the lease it
 * shares with its iterations is counted under the read source's lock, so they may be closed in any
 * order and thread.
 */
public final class BasaltSailDataset implements SailDataset {
    private final Pinned source;
    private final StatementSet set;
    private final ValueFactory vf;

    /** Takes over {@code lease}: it is closed when this dataset is. */
    public BasaltSailDataset(ReadSource.Lease lease, StatementSet set, ValueFactory vf) {
        this.source = new Pinned(lease);
        this.set = set;
        this.vf = vf;
    }

    /** The commit counter this dataset reads. */
    long commitCounter() {
        return source.lease.view().commitCounter();
    }

    /** Another lease on the view this dataset reads (see {@link ReadSource.Lease#share()}). */
    public ReadSource.Lease shareLease() {
        return source.lease.share();
    }

    @Override
    public void close() throws SailException {
        source.lease.close();
    }

    /** Hands out shares of the dataset's one lease, one per operation or open iteration. */
    private static final class Pinned {
        final ReadSource.Lease lease;

        Pinned(ReadSource.Lease lease) {
            this.lease = lease;
        }

        ReadSource.Lease acquire() {
            return lease.share();
        }
    }

    @Override
    public CloseableIteration<? extends Namespace> getNamespaces() throws SailException {
        try (ReadSource.Lease lease = source.acquire()) {
            return new CloseableIteratorIteration<>(NamespaceTable.all(lease.view().namespaces()).iterator());
        }
    }

    @Override
    public String getNamespace(String prefix) throws SailException {
        try (ReadSource.Lease lease = source.acquire()) {
            return NamespaceTable.get(lease.view().namespaces(), prefix);
        }
    }

    @Override
    public CloseableIteration<? extends Resource> getContextIDs() throws SailException {
        return new ContextIteration(source.acquire(), set, vf);
    }

    @Override
    public CloseableIteration<? extends Statement> getStatements(Resource subj, IRI pred, Value obj,
            Resource... contexts) throws SailException {
        ReadSource.Lease lease = source.acquire();
        try {
            if (lease.view().quads(set).size() == 0) {
                // RDF4J reads both statement sets; the inferred one of a store without inferencing is
                // empty, and a DESCRIBE asks it twice per described value
                lease.close();
                return new EmptyIteration<>();
            }
            LexiconReader lexicon = lease.view().lexicon();
            long[] spo = new long[3];
            Value[] given = { subj, pred, obj };
            for (int i = 0; i < 3; i++) {
                if (given[i] != null) {
                    spo[i] = lexicon.lookup(given[i]);
                    if (spo[i] == TermIds.NULL) {
                        lease.close();
                        return new EmptyIteration<>();
                    }
                }
            }
            List<long[]> patterns = new ArrayList<>();
            if (contexts == null || contexts.length == 0) {
                patterns.add(new long[] { spo[0], spo[1], spo[2], TermIds.NULL });
            } else {
                Set<Long> ids = new LinkedHashSet<>();
                for (Resource ctx : contexts) {
                    long c = ctx == null ? TermIds.DEFAULT_GRAPH : lexicon.lookup(ctx);
                    if (c != TermIds.NULL) {
                        ids.add(c);
                    }
                }
                for (long c : ids) {
                    patterns.add(new long[] { spo[0], spo[1], spo[2], c });
                }
            }
            if (patterns.isEmpty()) {
                lease.close();
                return new EmptyIteration<>();
            }
            return new StatementIteration(lease, set, patterns, given, vf);
        } catch (RuntimeException e) {
            lease.close();
            throw e;
        }
    }

    /**
     * Triple terms in the dictionary that match the pattern and occur as subject or object of a
     * statement of this set.
     */
    @Override
    public CloseableIteration<? extends Triple> getTriples(Resource subj, IRI pred, Value obj) throws SailException {
        try (ReadSource.Lease lease = source.acquire()) {
            LexiconReader lexicon = lease.view().lexicon();
            long s = subj == null ? TermIds.NULL : lexicon.lookup(subj);
            long p = pred == null ? TermIds.NULL : lexicon.lookup(pred);
            long o = obj == null ? TermIds.NULL : lexicon.lookup(obj);
            if ((subj != null && s == TermIds.NULL) || (pred != null && p == TermIds.NULL)
                    || (obj != null && o == TermIds.NULL)) {
                return new EmptyIteration<>();
            }
            QuadIndexes quads = lease.view().quads(set);
            List<Triple> out = new ArrayList<>();
            for (long[] t : lexicon.tripleTerms(s)) {
                if ((p != TermIds.NULL && t[1] != p) || (o != TermIds.NULL && t[2] != o)) {
                    continue;
                }
                long id = t[3];
                if (quads.count(new long[] { id, 0, 0, 0 }) > 0 || quads.count(new long[] { 0, 0, id, 0 }) > 0) {
                    out.add((Triple) lexicon.resolve(id, vf));
                }
            }
            return new CloseableIteratorIteration<>(out.iterator());
        }
    }
}
