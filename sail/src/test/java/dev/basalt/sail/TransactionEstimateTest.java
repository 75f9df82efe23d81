package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.algebra.evaluation.TripleSource;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.repository.sail.SailRepositoryConnection;
import org.eclipse.rdf4j.sail.SailConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.store.lexicon.TermIds;
import dev.basalt.sail.read.LatestSnapshots.SnapshotQuadSource;
import dev.basalt.sail.query.TransactionQuadSource;
import dev.basalt.sail.read.ReadSource;

/**
 * Planning inside a transaction does not iterate large patterns: {@link TransactionQuadSource}'s
 * estimates read at most {@value TransactionQuadSource#EXACT_ESTIMATE} + 1 statements through the
 * branch and then take the committed store's range count, while its counts stay exact (pending
 * changes included) and small patterns' estimates are exact too.
 */
class TransactionEstimateTest {
    private static final String EX = "http://example.org/";
    private final ValueFactory vf = SimpleValueFactory.getInstance();

    @TempDir
    File dir;

    @Test
    void estimatesReadFewStatementsAndCountsStayExact() {
        SailRepository repo = TestRepos.open(dir);
        IRI p = vf.createIRI(EX, "p");
        IRI fresh = vf.createIRI(EX, "onlyInTheTransaction");
        try (SailRepositoryConnection c = repo.getConnection()) {
            List<Statement> data = new ArrayList<>();
            for (int i = 0; i < 5_000; i++) {
                data.add(vf.createStatement(vf.createIRI(EX, "s" + i), p, vf.createLiteral(i)));
            }
            c.add(data);
            c.begin();
            c.add(vf.createIRI(EX, "s0"), p, vf.createLiteral("pending"));
            c.remove(vf.createIRI(EX, "s1"), p, vf.createLiteral(1));
            for (int i = 0; i < 1_500; i++) {
                c.add(vf.createIRI(EX, "t" + i), fresh, vf.createLiteral(i));
            }
            BasaltStore store = (BasaltStore) repo.getSail();
            SailConnection sail = c.getSailConnection();
            AtomicLong delivered = new AtomicLong();
            try (ReadSource.Lease lease = store.latestSnapshot()) {
                SnapshotQuadSource committed = new SnapshotQuadSource(lease.view(), false, vf);
                TransactionQuadSource branch = new TransactionQuadSource(counting(sail, delivered), committed,
                        lease.view().lexicon(), vf);
                long[] all = new long[4];
                long[] byP = { 0, branch.lookup(p), 0, 0 };
                long[] byFresh = { 0, branch.lookup(fresh), 0, 0 };
                long[] one = { branch.lookup(vf.createIRI(EX, "s0")), branch.lookup(p), 0, 0 };
                assertTrue(TermIds.isPending(byFresh[1]));

                assertEquals(5_000, branch.estimate(byP));
                assertTrue(delivered.get() <= TransactionQuadSource.EXACT_ESTIMATE + 1, delivered + " read");
                delivered.set(0);
                assertEquals(5_000 + 1 - 1 + 1_500, branch.count(all));
                assertEquals(6_500, delivered.get());
                assertEquals(5_000, branch.count(byP));
                delivered.set(0);
                assertTrue(branch.estimate(all) >= 5_000, "committed count stands in");
                assertTrue(branch.estimate(byFresh) > TransactionQuadSource.EXACT_ESTIMATE);
                assertTrue(delivered.get() <= 2 * (TransactionQuadSource.EXACT_ESTIMATE + 1), delivered + " read");
                assertEquals(2, branch.estimate(one), "small patterns are exact, pending statements included");
            }
            c.rollback();
        } finally {
            repo.shutDown();
        }
    }

    /** The connection's statements (explicit only, as the branch reads), counting those handed out. */
    private TripleSource counting(SailConnection sail, AtomicLong delivered) {
        return new TripleSource() {
            @Override
            public CloseableIteration<? extends Statement> getStatements(Resource subj, IRI pred, Value obj,
                    Resource... contexts) throws QueryEvaluationException {
                CloseableIteration<? extends Statement> it = sail.getStatements(subj, pred, obj, false, contexts);
                return new CloseableIteration<Statement>() {
                    @Override
                    public boolean hasNext() {
                        return it.hasNext();
                    }

                    @Override
                    public Statement next() {
                        delivered.incrementAndGet();
                        return it.next();
                    }

                    @Override
                    public void remove() {
                        it.remove();
                    }

                    @Override
                    public void close() {
                        it.close();
                    }
                };
            }

            @Override
            public ValueFactory getValueFactory() {
                return vf;
            }
        };
    }
}
