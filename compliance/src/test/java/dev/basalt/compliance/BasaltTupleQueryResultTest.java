package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.repository.TupleQueryResultTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code TupleQueryResultTest}. */
class BasaltTupleQueryResultTest extends TupleQueryResultTest {

    @TempDir
    File stores;

    @Override
    protected Repository newRepository() {
        return BasaltSails.newRepository(stores);
    }
}
