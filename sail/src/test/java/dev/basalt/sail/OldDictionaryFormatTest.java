package dev.basalt.sail;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.store.Store;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.lexicon.Lexicon;

/** A store whose dictionary has another format version is refused when the repository opens, with the migration path. */
class OldDictionaryFormatTest {
    private static final ValueFactory VF = SimpleValueFactory.getInstance();

    @TempDir
    File dir;

    @Test
    void openingAStoreOfDictionaryFormatOneFailsAndSaysHowToMigrate() {
        IRI a = VF.createIRI("http://example.org/a");
        SailRepository repo = TestRepos.open(dir);
        try (RepositoryConnection c = repo.getConnection()) {
            c.add(a, a, VF.createLiteral("a literal long enough to be in the dictionary"));
        }
        repo.shutDown();
        try (Store store = Store.open(SailLayout.journal(dir.toPath()), new BasaltStoreConfig().toStoreConfig());
                WriteTransaction tx = store.begin()) {
            tx.setProperty(Lexicon.FORMAT_PROPERTY, new byte[] { 1 });
            tx.commit();
        }
        RepositoryException e = assertThrows(RepositoryException.class, () -> TestRepos.open(dir));
        String message = String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
        assertTrue(message.contains(SailLayout.journal(dir.toPath()).toString()), message);
        assertTrue(message.contains("format 1"), message);
        assertTrue(message.contains("basalt load"), message);
    }
}
