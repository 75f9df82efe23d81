package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.SailException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import dev.basalt.sail.read.StatementSet;
import dev.basalt.sail.write.StoreWriter;
import dev.basalt.sail.write.WriteSession;

/**
 * The writer's group rules: a commit that reaches the writer after it was closed fails instead of
 * reporting a commit that wrote nothing, and a write from a caller that does not hold the open group
 * is refused.
 */
class StoreWriterTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();
    private static final IRI A = VF.createIRI("http://example.org/a");
    private static final Consumer<WriteSession> ADD_ONE = s -> s.add(StatementSet.EXPLICIT, A, A, A, null);

    @TempDir
    File dir;

    private BasaltSailStore open() {
        return BasaltSailStore.open(dir.toPath().resolve(BasaltStore.JOURNAL_FILE), TestRepos.fastConfig());
    }

    private long statementsAfterReopen() {
        SailRepository repo = TestRepos.open(dir);
        try (RepositoryConnection c = repo.getConnection()) {
            return c.size();
        } finally {
            repo.shutDown();
        }
    }

    /** Opens the store, writes one statement in a group of {@code owner} and closes the store with the group open. */
    private StoreWriter closedWithGroupOpen(Object owner) {
        BasaltSailStore backing = open();
        StoreWriter writer = backing.writer();
        writer.beginGroup(owner);
        writer.write(ADD_ONE);
        backing.close();
        return writer;
    }

    @Test
    void aGroupEndingAfterCloseFailsLoudly() {
        Object owner = new Object();
        StoreWriter writer = closedWithGroupOpen(owner);
        SailException e = assertThrows(SailException.class, () -> writer.endGroup(owner, true));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertEquals(0, statementsAfterReopen());
    }

    @Test
    void aFlushAfterCloseFailsLoudly() {
        BasaltSailStore backing = open();
        StoreWriter writer = backing.writer();
        backing.close();
        assertThrows(SailException.class, writer::flush);
    }

    @Test
    void aFailedGroupEndingAfterCloseRollsBackQuietly() {
        Object owner = new Object();
        StoreWriter writer = closedWithGroupOpen(owner);
        writer.endGroup(owner, false);
        assertEquals(0, statementsAfterReopen());
    }

    @Test
    void aWriteWithoutAGroupIsRefused() {
        BasaltSailStore backing = open();
        try {
            assertThrows(SailException.class, () -> backing.writer().write(ADD_ONE));
        } finally {
            backing.close();
        }
        assertEquals(0, statementsAfterReopen());
    }

    @Test
    void aWriteFromAnotherThreadWhileAGroupIsOpenIsRefused() {
        BasaltSailStore backing = open();
        StoreWriter writer = backing.writer();
        Object owner = new Object();
        writer.beginGroup(owner);
        CompletionException e = assertThrows(CompletionException.class,
                () -> CompletableFuture.runAsync(() -> writer.write(ADD_ONE)).join());
        assertTrue(e.getCause() instanceof SailException, String.valueOf(e.getCause()));
        writer.write(ADD_ONE);
        writer.endGroup(owner, true);
        backing.close();
        assertEquals(1, statementsAfterReopen());
    }
}
