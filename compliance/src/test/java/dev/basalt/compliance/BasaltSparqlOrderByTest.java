package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.repository.SparqlOrderByTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code SparqlOrderByTest}. */
class BasaltSparqlOrderByTest extends SparqlOrderByTest {

    @TempDir
    File stores;

    @Override
    protected Repository newRepository() {
        return BasaltSails.newRepository(stores);
    }
}
