package dev.basalt.sail.read;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.util.HashSet;
import java.util.Set;

import org.eclipse.rdf4j.common.iteration.CloseableIteration;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.SailConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;

/**
 * Statement reads through {@link StatementIteration}, whose batches start small and double: every count of matches
 * around the batch sizes (16, 32, 64, 128, then 256 each) comes back whole and once, by subject and by object (the two
 * reads of a DESCRIBE).
 */
class StatementIterationTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final int[] COUNTS = { 0, 1, 15, 16, 17, 48, 49, 240, 241, 496, 497, 700 };

    @TempDir
    File dir;

    @Test
    void readsEveryMatchAcrossBatchSizes() {
        SailRepository repo = new SailRepository(new BasaltStore(dir));
        repo.init();
        try {
            IRI p = VF.createIRI("http://example.org/p");
            try (RepositoryConnection c = repo.getConnection()) {
                c.begin();
                for (int n : COUNTS) {
                    IRI s = VF.createIRI("http://example.org/s" + n);
                    for (int i = 0; i < n; i++) {
                        c.add(s, p, VF.createLiteral("v" + n + "-" + i));
                        c.add(VF.createIRI("http://example.org/in" + n + "-" + i), p, VF.createIRI("http://example.org/o" + n));
                    }
                }
                c.commit();
            }
            try (SailConnection c = repo.getSail().getConnection()) {
                for (int n : COUNTS) {
                    assertEquals(expected(n, "v" + n + "-"), objects(c.getStatements(
                            VF.createIRI("http://example.org/s" + n), null, null, false)), "by subject, " + n);
                    assertEquals(expected(n, "http://example.org/in" + n + "-"), subjects(c.getStatements(
                            null, p, VF.createIRI("http://example.org/o" + n), false)), "by object, " + n);
                }
            }
            try (RepositoryConnection c = repo.getConnection()) {
                try (GraphQueryResult r = c.prepareGraphQuery("DESCRIBE <http://example.org/s241>").evaluate()) {
                    assertEquals(241, QueryResults.asModel(r).size());
                }
            }
        } finally {
            repo.shutDown();
        }
    }

    private static Set<String> expected(int n, String prefix) {
        Set<String> out = new HashSet<>();
        for (int i = 0; i < n; i++) {
            out.add(prefix + i);
        }
        return out;
    }

    private static Set<String> objects(CloseableIteration<? extends Statement> it) {
        return read(it, true);
    }

    private static Set<String> subjects(CloseableIteration<? extends Statement> it) {
        return read(it, false);
    }

    private static Set<String> read(CloseableIteration<? extends Statement> it, boolean objects) {
        Set<String> out = new HashSet<>();
        int read = 0;
        try (it) {
            while (it.hasNext()) {
                Statement st = it.next();
                out.add((objects ? st.getObject() : st.getSubject()).stringValue());
                read++;
            }
        }
        assertEquals(out.size(), read, "a statement came twice");
        return out;
    }
}
