package dev.basalt.sail.query;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.LexiconReader;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.sail.read.PendingTerms;

/**
 * The query engine's {@link QuadSource} inside an open transaction: it reads the very
 * {@link TripleSource} RDF4J's evaluator would read for the query, i.e. the connection's branch
 * dataset (its isolation snapshot, pending adds and removes, clears, explicit and, when asked,
 * inferred statements, spilled change sets included). So native evaluation sees exactly RDF4J's
 * state, and a SERIALIZABLE transaction's reads are observed by RDF4J's branch as usual (every
 * scan, count and sample here is such a read).
 *
 * <p>Ids: terms the store's dictionary holds keep their ids (the lexicon of the newest commit
 * point, which contains every term of older ones); any other term (added by the transaction, or
 * asked for by the query) gets a transaction-pending id of its own kind
 * ({@link PendingTerms}), so {@link #lookup} never answers 0 here. Counts are exact
 * by iterating the matches and samples are the first matches: the cost of correctness until the
 * engine reads RDF4J's change sets directly.
 *
 * <p>Estimates for planning do not iterate a large pattern: the branch's matches are counted up to
 * {@value #EXACT_ESTIMATE} (exact below that, so empty and selective patterns keep their true
 * counts), and past it the committed store's range count stands for the rest. Before, planning an
 * update's WHERE clause such as {@code ex:a ex:p ?x . ?x ?q ?o} iterated every statement of the store
 * through RDF4J's branch to count {@code ?x ?q ?o}, a pattern the plan only ever probes.
 *
 * <p>Not thread-safe: one per query of one transaction, used by the thread evaluating it (the ids of
 * uncommitted terms are kept in a plain map, {@link PendingTerms}).
 */
public final class TransactionQuadSource implements QuadSource {
    private static final Resource[] ALL_GRAPHS = new Resource[0];
    private static final Resource[] DEFAULT_GRAPH = { null };
    /** Matches counted through the branch before an estimate turns to the committed store's count. */
    public static final int EXACT_ESTIMATE = 256;
    private final TripleSource triples;
    private final QuadSource committed;
    private final ValueFactory vf;
    private final PendingTerms terms;

    /**
     * @param committed the newest commit point (same lexicon), whose exact range counts stand in
     *        for large patterns' estimates
     */
    public TransactionQuadSource(TripleSource triples, QuadSource committed, LexiconReader lexicon, ValueFactory vf) {
        this.triples = triples;
        this.committed = committed;
        this.vf = vf;
        this.terms = new PendingTerms(lexicon, vf);
    }

    @Override
    public Scan scan(long[] pattern) {
        Value[] v = resolve(pattern);
        if (pattern[0] != TermIds.NULL && !(v[0] instanceof Resource)
                || pattern[1] != TermIds.NULL && !(v[1] instanceof IRI)
                || pattern[3] != TermIds.NULL && pattern[3] != TermIds.DEFAULT_GRAPH
                        && !(v[3] instanceof Resource)) {
            return new Scan() {
                @Override
                public boolean next(long[] quad) {
                    return false;
                }

                @Override
                public void close() {
                }
            };
        }
        Resource[] contexts = pattern[3] == TermIds.NULL ? ALL_GRAPHS
                : pattern[3] == TermIds.DEFAULT_GRAPH ? DEFAULT_GRAPH : new Resource[] { (Resource) v[3] };
        CloseableIteration<? extends Statement> it = triples.getStatements((Resource) v[0], (IRI) v[1], v[2], contexts);
        return new Scan() {
            @Override
            public boolean next(long[] quad) {
                if (!it.hasNext()) {
                    return false;
                }
                Statement st = it.next();
                quad[0] = lookup(st.getSubject());
                quad[1] = lookup(st.getPredicate());
                quad[2] = lookup(st.getObject());
                quad[3] = st.getContext() == null ? TermIds.DEFAULT_GRAPH : lookup(st.getContext());
                return true;
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    @Override
    public long count(long[] pattern) {
        long n = 0;
        try (Scan s = scan(pattern)) {
            long[] q = new long[4];
            while (s.next(q)) {
                n++;
            }
        }
        return n;
    }

    @Override
    public long estimate(long[] pattern) {
        long n = 0;
        try (Scan s = scan(pattern)) {
            long[] q = new long[4];
            while (s.next(q)) {
                if (++n > EXACT_ESTIMATE) {
                    // a term only the transaction holds matches nothing committed: the count so far is the floor
                    return hasPending(pattern) ? n : Math.max(n, committed.count(pattern));
                }
            }
        }
        return n;
    }

    private static boolean hasPending(long[] pattern) {
        for (long id : pattern) {
            if (TermIds.isPending(id)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public long[][] sample(long[] pattern, int k) {
        // a transaction's state has no ranks over its pending changes
        return firstMatches(pattern, k);
    }

    @Override
    public long lookup(Value value) {
        return terms.lookup(value);
    }

    @Override
    public Value[] resolve(long[] idArray) {
        return terms.resolve(idArray);
    }

    @Override
    public ValueFactory valueFactory() {
        return vf;
    }
}
