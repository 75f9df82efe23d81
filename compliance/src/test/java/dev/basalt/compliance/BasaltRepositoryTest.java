package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.repository.RepositoryTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code RepositoryTest}. */
class BasaltRepositoryTest extends RepositoryTest {

    @TempDir
    File stores;

    @Override
    protected Repository createRepository() {
        return BasaltSails.newRepository(stores);
    }
}
