package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryResult;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.load.ChildProcess;

/**
 * An acknowledged commit is in the journal file when {@code commit()} returns, whatever readers
 * are open: a store whose process is killed right after a commit returned, or a copy of the
 * journal taken while the store is open, holds every committed statement.
 */
class DurabilityTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI P = VF.createIRI(DurabilityChild.NS, "p");

    @TempDir
    File dir;

    @Test
    void journalCopyHoldsACommitMadeWhileReadersAreOpen() throws IOException {
        File data = new File(dir, "store");
        Path copy = dir.toPath().resolve("copy");
        SailRepository repo = TestRepos.open(data);
        try (RepositoryConnection reader = repo.getConnection();
                RepositoryConnection snapshot = repo.getConnection();
                RepositoryConnection writer = repo.getConnection()) {
            writer.add(VF.createIRI(DurabilityChild.NS, "before"), P, VF.createLiteral(0));
            try (RepositoryResult<Statement> open = reader.getStatements(null, null, null, true)) {
                assertTrue(open.hasNext());
                snapshot.begin(IsolationLevels.SNAPSHOT);
                assertEquals(1, snapshot.size());
                for (int i = 0; i < 10; i++) {
                    writer.begin();
                    writer.add(VF.createIRI(DurabilityChild.NS, "s" + i), P, VF.createLiteral(i));
                    writer.commit();
                }
                Files.createDirectories(copy);
                Files.copy(data.toPath().resolve(BasaltStore.JOURNAL_FILE), copy.resolve(BasaltStore.JOURNAL_FILE));
                assertEquals(1, snapshot.size(), "the open SNAPSHOT transaction still reads its commit point");
                snapshot.commit();
            }
        } finally {
            repo.shutDown();
        }
        SailRepository reopened = TestRepos.open(copy.toFile());
        try (RepositoryConnection c = reopened.getConnection()) {
            assertEquals(11, c.size());
            for (int i = 0; i < 10; i++) {
                assertTrue(c.hasStatement(VF.createIRI(DurabilityChild.NS, "s" + i), P, VF.createLiteral(i), false));
            }
        } finally {
            reopened.shutDown();
        }
    }

    @Test
    @Timeout(180)
    void commitsAcknowledgedBeforeAKillSurviveIt() throws Exception {
        Path store = dir.toPath().resolve("store");
        Process child = ChildProcess.start(DurabilityChild.class, store.toString());
        int acknowledged = -1;
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while (acknowledged < 40 && (line = out.readLine()) != null) {
                if (line.startsWith("committed ")) {
                    acknowledged = Integer.parseInt(line.substring("committed ".length()));
                }
            }
            child.destroyForcibly();
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the child JVM did not die");
        } finally {
            child.destroyForcibly();
        }
        assertTrue(acknowledged >= 40, "the child acknowledged only " + acknowledged + " commits");
        SailRepository repo = TestRepos.open(store.toFile());
        try (RepositoryConnection c = repo.getConnection()) {
            for (int i = 0; i <= acknowledged; i++) {
                assertTrue(c.hasStatement(VF.createIRI(DurabilityChild.NS, "s" + i), P, VF.createLiteral(i), false),
                        "acknowledged commit " + i + " of " + acknowledged + " is lost");
            }
        } finally {
            repo.shutDown();
        }
    }
}
