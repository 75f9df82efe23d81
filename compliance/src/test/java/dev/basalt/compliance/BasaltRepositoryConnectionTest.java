package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.repository.RepositoryConnectionTest;

/** RDF4J's {@code RepositoryConnectionTest}, once for each isolation level. */
class BasaltRepositoryConnectionTest extends RepositoryConnectionTest {

    @Override
    protected Repository createRepository(File dataDir) {
        return BasaltSails.newRepository(dataDir);
    }
}
