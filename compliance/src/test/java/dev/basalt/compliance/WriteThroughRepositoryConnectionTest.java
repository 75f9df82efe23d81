package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.repository.RepositoryConnectionTest;

/**
 * RDF4J's {@code RepositoryConnectionTest}, once for each isolation level, on a store whose isolated transactions
 * write through into the store from their first addition (see {@link BasaltSails#newWriteThroughRepository}).
 */
class WriteThroughRepositoryConnectionTest extends RepositoryConnectionTest {

    @Override
    protected Repository createRepository(File dataDir) {
        return BasaltSails.newWriteThroughRepository(dataDir);
    }
}
