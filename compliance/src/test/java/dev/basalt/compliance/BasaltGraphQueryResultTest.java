package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.repository.GraphQueryResultTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code GraphQueryResultTest}. */
class BasaltGraphQueryResultTest extends GraphQueryResultTest {

    @TempDir
    File stores;

    @Override
    protected Repository newRepository() {
        return BasaltSails.newRepository(stores);
    }
}
