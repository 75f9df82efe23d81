package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.LinkedHashModel;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.QueryInterruptedException;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.config.SailConfigException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.optimizer.exec.ExecLimits;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.BasaltStoreSchema;
import dev.basalt.store.journal.JournalMode;

/**
 * Execution limits and tuning knobs are settings of each repository: two stores in one JVM with
 * different limits behave differently, the settings survive the RDF form of the configuration,
 * and a configured journal mode that differs from the file's is refused.
 */
class RepositorySettingsTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final String EX = "http://example.org/";
    @TempDir
    File dir;

    /** A chain n0 -> n1 -> ... of {@code length} links and {@code length} values to sort. */
    private static List<Statement> data(int length) {
        List<Statement> out = new ArrayList<>();
        for (int i = 0; i < length; i++) {
            out.add(VF.createStatement(VF.createIRI(EX, "n" + i), VF.createIRI(EX, "next"), VF.createIRI(EX, "n" + (i + 1))));
            out.add(VF.createStatement(VF.createIRI(EX, "n" + i), VF.createIRI(EX, "v"), VF.createLiteral("value " + i)));
        }
        return out;
    }

    private SailRepository open(String name, BasaltStoreConfig config) {
        SailRepository repo = TestRepos.open(new File(dir, name), config);
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(data(300));
        }
        return repo;
    }

    private static long count(SailRepository repo, String query) {
        try (RepositoryConnection c = repo.getConnection()) {
            return QueryResults.asList(c.prepareTupleQuery("PREFIX ex: <" + EX + "> " + query).evaluate()).size();
        }
    }

    @Test
    void twoRepositoriesInOneJvmKeepTheirOwnLimits() throws Exception {
        Path notADirectory = Files.createFile(dir.toPath().resolve("not-a-directory"));
        BasaltStoreConfig tight = TestRepos.fastConfig();
        tight.setPathNodes(50);
        tight.setSortRows(10);
        tight.setSpillDirectory(notADirectory.toString());
        tight.setHelperThreads(0);
        tight.setQueryTimeoutSeconds(1);
        SailRepository small = open("small", tight);
        SailRepository roomy = open("roomy", TestRepos.fastConfig());
        try {
            assertEquals(0, ((BasaltStore) small.getSail()).getExecLimits().helperThreads());
            assertEquals(ExecLimits.defaults(), ((BasaltStore) roomy.getSail()).getExecLimits());

            String path = "SELECT ?o WHERE { ex:n0 ex:next+ ?o }";
            assertEquals(300, count(roomy, path));
            var tooFar = assertThrows(QueryEvaluationException.class, () -> count(small, path));
            assertTrue(tooFar.getMessage().contains("more than 50 nodes") && tooFar.getMessage().contains("pathNodes"),
                    tooFar.getMessage());

            String sort = "SELECT ?s ?v WHERE { ?s ex:v ?v } ORDER BY DESC(?v)";
            assertEquals(300, count(roomy, sort));
            var spill = assertThrows(QueryEvaluationException.class, () -> count(small, sort));
            assertTrue(spill.getMessage().contains(notADirectory.toString())
                    && spill.getMessage().contains("spillDirectory"), spill.getMessage());

            // the store's query timeout stops a result that is read slowly; the other store has none
            String slow = "SELECT * WHERE { ?s ex:v ?v }";
            for (SailRepository repo : List.of(small, roomy)) {
                try (RepositoryConnection c = repo.getConnection();
                        TupleQueryResult r = c.prepareTupleQuery("PREFIX ex: <" + EX + "> " + slow).evaluate()) {
                    r.next();
                    Thread.sleep(1_300);
                    if (repo == small) {
                        var stopped = assertThrows(QueryInterruptedException.class, () -> {
                            while (r.hasNext()) {
                                r.next();
                            }
                        });
                        assertTrue(stopped.getMessage().contains("queryTimeoutSeconds (1 s)"), stopped.getMessage());
                    } else {
                        assertEquals(299, QueryResults.asList(r).size());
                    }
                }
            }
        } finally {
            small.shutDown();
            roomy.shutDown();
        }
    }

    @Test
    void settingsRoundTripThroughRdfAndBadValuesAreRefused() {
        BasaltStoreConfig c = new BasaltStoreConfig();
        c.setSortRows(11);
        c.setDistinctRows(12);
        c.setGroupRows(13);
        c.setHashJoinRows(14);
        c.setPathNodes(15);
        c.setSpillDirectory("/var/tmp/basalt-spill");
        c.setHelperThreads(0);
        c.setQueryTimeoutSeconds(30);
        c.setReaderWarnAge(Duration.ofMinutes(3));
        c.setMaxFileBytes(1L << 40);
        Model m = new LinkedHashModel();
        Resource node = c.export(m);
        BasaltStoreConfig back = new BasaltStoreConfig();
        back.parse(m, node);
        assertEquals(new ExecLimits(11, 12, 13, 14, 15, Path.of("/var/tmp/basalt-spill"), 0), back.toExecLimits());
        assertEquals(30, back.getQueryTimeoutSeconds());
        assertEquals(Duration.ofMinutes(3), back.toStoreConfig().journal().readerWarnAge());
        assertEquals(1L << 40, back.toStoreConfig().journal().maxFileBytes());

        // the template's "use the default" values
        Model defaults = new LinkedHashModel();
        Resource d = VF.createBNode();
        defaults.add(d, BasaltStoreSchema.SORT_ROWS, VF.createLiteral("0"));
        defaults.add(d, BasaltStoreSchema.HELPER_THREADS, VF.createLiteral("-1"));
        defaults.add(d, BasaltStoreSchema.SPILL_DIRECTORY, VF.createLiteral(""));
        BasaltStoreConfig unset = new BasaltStoreConfig();
        unset.parse(defaults, d);
        assertEquals(ExecLimits.defaults(), unset.toExecLimits());
        assertNull(unset.getSpillDirectory());

        Model bad = new LinkedHashModel();
        Resource b = VF.createBNode();
        bad.add(b, BasaltStoreSchema.HASH_JOIN_ROWS, VF.createLiteral("many"));
        var e = assertThrows(SailConfigException.class, () -> new BasaltStoreConfig().parse(bad, b));
        assertTrue(e.getMessage().contains("hashJoinRows"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new BasaltStoreConfig().setQueryTimeoutSeconds(-1));
        assertThrows(IllegalArgumentException.class, () -> new BasaltStoreConfig().setSortRows(0));
    }

    @Test
    void configuredJournalModeThatDiffersFromTheFileIsRefused() {
        BasaltStoreConfig worm = TestRepos.fastConfig();
        worm.setJournalMode(JournalMode.WORM);
        File store = new File(dir, "worm");
        TestRepos.open(store, worm).shutDown();

        BasaltStoreConfig rw = TestRepos.fastConfig();
        rw.setJournalMode(JournalMode.RW);
        var refused = assertThrows(RepositoryException.class, () -> TestRepos.open(store, rw).getConnection());
        String message = refused.getCause() != null ? refused.getCause().getMessage() : refused.getMessage();
        assertTrue(message.contains("created in journal mode WORM") && message.contains("asks for RW"), message);

        SailRepository unset = TestRepos.open(store, TestRepos.fastConfig());
        try (RepositoryConnection c = unset.getConnection()) {
            assertEquals(0, c.size(), "a configuration that leaves the mode unset keeps the file's");
        } finally {
            unset.shutDown();
        }
    }
}
