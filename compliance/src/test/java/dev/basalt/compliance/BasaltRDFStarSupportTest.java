package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.repository.RDFStarSupportTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code RDFStarSupportTest}. */
class BasaltRDFStarSupportTest extends RDFStarSupportTest {

    @TempDir
    File stores;

    @Override
    protected Repository createRepository() {
        return BasaltSails.newRepository(stores);
    }
}
