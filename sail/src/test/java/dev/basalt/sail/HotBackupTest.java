package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;


import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.SailConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.cli.CliAccess;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.store.Store;
import dev.basalt.store.StoreBackup;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.journal.StoreException;

/**
 * Hot backup: taken while writers commit, a backup restores to a store that verifies and holds
 * exactly the statements of the commit point it records, compared with a read-as-of connection of
 * that commit point in the live store; through the Java API, remote JMX ({@code basalt backup --jmx})
 * and the command line.
 */
class HotBackupTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI P = VF.createIRI("http://example.org/p");
    private static final IRI G = VF.createIRI("http://example.org/g");
    @TempDir
    Path tmp;

    private static Set<Statement> statements(SailConnection c) {
        Set<Statement> out = new HashSet<>();
        try (var it = c.getStatements(null, null, null, false)) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private static Set<Statement> statements(File dir) {
        SailRepository repo = TestRepos.open(dir, TestRepos.fastConfig());
        try (SailConnection c = ((BasaltStore) repo.getSail()).getConnection()) {
            return statements(c);
        } finally {
            repo.shutDown();
        }
    }

    /** Verifies the journal of {@code dir} end to end (as {@code basalt verify} does). */
    private static void verify(Path dir) {
        try (Store s = Store.open(dir.resolve(BasaltStore.JOURNAL_FILE), StoreConfig.defaults())) {
            s.verify();
        }
    }

    @Test
    void backupDuringWritesRestoresExactlyTheRecordedCommitPoint() throws Exception {
        BasaltStoreConfig config = TestRepos.fastConfig();
        config.setHistoryRetention(Duration.ofHours(1));
        SailRepository repo = TestRepos.open(tmp.resolve("live").toFile(), config);
        BasaltStore sail = (BasaltStore) repo.getSail();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger commits = new AtomicInteger();
        List<Thread> writers = List.of(0, 1).stream().map(w -> new Thread(() -> {
            try {
                for (int i = 0; !stop.get(); i++) {
                    try (RepositoryConnection c = repo.getConnection()) {
                        c.begin();
                        for (int k = 0; k < 200; k++) {
                            c.add(VF.createIRI("http://example.org/w" + w + "/s" + i), P, VF.createLiteral(i * 1000L + k),
                                    k % 2 == 0 ? new IRI[0] : new IRI[] { G });
                        }
                        if (i >= 3) {
                            c.remove(VF.createIRI("http://example.org/w" + w + "/s" + (i - 3)), null, null);
                        }
                        c.commit();
                        commits.incrementAndGet();
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        })).toList();
        try {
            try (RepositoryConnection c = repo.getConnection()) {
                c.begin();
                for (int i = 0; i < 5_000; i++) {
                    c.add(VF.createIRI("http://example.org/base/" + (i % 2000)), P, VF.createLiteral("base " + i));
                }
                c.commit();
            }
            writers.forEach(Thread::start);
            while (commits.get() < 10) {
                Thread.sleep(5);
            }
            StoreBackup.Result api = sail.backup(tmp.resolve("api.jnl"), -1);
            long newestAfterBackup = sail.storeStats().journal().commitCounter();
            int before = commits.get();
            // as an operator does against a running server: basalt backup --jmx HOST:PORT over remote JMX
            try (RemoteJmx jmx = new RemoteJmx()) {
                assertEquals(0, CliAccess.run("backup", "--jmx", jmx.address(), "--store",
                        tmp.resolve("live").toString(), "--to", tmp.resolve("jmx.jnl").toString()));
                assertEquals(2, CliAccess.run("backup", "--jmx", jmx.address(), "--store",
                        tmp.resolve("elsewhere").toString(), "--to", tmp.resolve("none.jnl").toString()),
                        "a directory the process has not open is an error");
            }
            while (commits.get() < before + 5) {
                Thread.sleep(5);
            }
            stop.set(true);
            for (Thread t : writers) {
                t.join();
            }
            assertEquals(null, failure.get());
            assertTrue(newestAfterBackup > api.commit(), "writers committed while the backup was taken: newest "
                    + newestAfterBackup + " after backing up " + api.commit());

            StoreBackup.Result jmx = StoreBackup.describe(tmp.resolve("jmx.jnl"), StoreConfig.defaults());
            assertTrue(jmx.commit() > api.commit(), "the second backup holds a later commit point");
            for (StoreBackup.Result b : List.of(api, jmx)) {
                Path restored = tmp.resolve("restored-" + b.commit());
                assertEquals(0, CliAccess.run("restore", "--from", b.file().toString(), "--store", restored.toString()));
                verify(restored);
                Set<Statement> expected;
                try (SailConnection past = sail.getConnectionAsOf(b.commit())) {
                    expected = statements(past);
                }
                assertFalse(expected.isEmpty());
                assertEquals(expected, statements(restored.toFile()), "restored store = commit point " + b.commit());
            }
        } finally {
            stop.set(true);
            repo.shutDown();
        }
    }

    @Test
    void commandLineBacksUpAClosedStoreAndRefusesToOverwrite() throws Exception {
        File dir = tmp.resolve("closed").toFile();
        SailRepository repo = TestRepos.open(dir, TestRepos.fastConfig());
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(VF.createIRI("http://example.org/a"), P, VF.createLiteral("one"));
            c.add(VF.createIRI("http://example.org/b"), P, VF.createLiteral("two"), G);
        }
        Set<Statement> expected;
        try (SailConnection c = ((BasaltStore) repo.getSail()).getConnection()) {
            expected = statements(c);
        }
        repo.shutDown();

        Path backup = tmp.resolve("backups/closed.jnl");
        assertEquals(0, CliAccess.run("backup", "--store", dir.toString(), "--to", backup.toString()));
        assertEquals(2, CliAccess.run("backup", "--store", dir.toString(), "--to", backup.toString()),
                "an existing backup file is not overwritten");
        assertEquals(1, CliAccess.run("backup", "--store", dir.toString()), "--to is required");
        assertFalse(Files.exists(tmp.resolve("backups/closed.jnl.partial")));

        Path restored = tmp.resolve("restored");
        assertEquals(0, CliAccess.run("restore", "--from", backup.toString(), "--store", restored.toString()));
        assertEquals(2, CliAccess.run("restore", "--from", backup.toString(), "--store", restored.toString()),
                "a restore never replaces a journal");
        assertEquals(expected, statements(restored.toFile()));
        assertEquals(0, CliAccess.run("verify", "--store", restored.toString()));

        // a journal that is not a backup is refused
        var notBackup = assertThrows(StoreException.class, () -> StoreBackup.describe(
                dir.toPath().resolve(BasaltStore.JOURNAL_FILE), StoreConfig.defaults()));
        assertTrue(notBackup.getMessage().contains("not a backup"), notBackup.getMessage());
    }
}
