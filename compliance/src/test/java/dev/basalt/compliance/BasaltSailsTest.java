package dev.basalt.compliance;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.config.RepositoryFactory;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.sail.helpers.SailWrapper;
import org.eclipse.rdf4j.sail.inferencer.fc.SchemaCachingRDFSInferencer;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;

/**
 * Guards the harness itself: every way a suite gets its store must yield the store under test, on disk in the
 * directory the suite gave it. A green compliance run means nothing if a suite quietly ran on another store.
 */
class BasaltSailsTest {

    private static final boolean REFERENCE = "memory".equals(System.getProperty(BasaltSails.STORE_PROPERTY));

    @TempDir
    File stores;

    @Test
    void storesAreTheStoreUnderTest() {
        assertUnderTest(BasaltSails.newStore(stores));
        assertUnderTest(((SailRepository) BasaltSails.newRepository(stores)).getSail());
    }

    @Test
    void inferencerWrapsTheStoreUnderTest() {
        Sail inferencer = BasaltSails.newRdfsInferencer(stores);
        assertThat(inferencer).isInstanceOf(SchemaCachingRDFSInferencer.class);
        assertUnderTest(((SailWrapper) inferencer).getBaseSail());
    }

    @Test
    void factoryBuildsTheStoreUnderTestThroughTheSailRegistry() {
        RepositoryFactory factory = BasaltSails.newRepositoryFactory();
        Repository repository = factory.getRepository(factory.getConfig());
        File dataDir = new File(stores, "from-config");
        repository.setDataDir(dataDir);
        try (RepositoryConnection connection = repository.getConnection()) {
            connection.add(connection.getValueFactory().createIRI("urn:s"),
                    connection.getValueFactory().createIRI("urn:p"),
                    connection.getValueFactory().createLiteral("o"));
        } finally {
            repository.shutDown();
        }
        assertUnderTest(((SailRepository) repository).getSail());
        if (!REFERENCE) {
            assertThat(new File(dataDir, BasaltStore.JOURNAL_FILE)).isFile();
        }
    }

    private static void assertUnderTest(Sail sail) {
        assertThat(sail).isInstanceOf(REFERENCE ? MemoryStore.class : BasaltStore.class);
    }
}
