package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.sail.NotifyingSail;
import org.eclipse.rdf4j.testsuite.sail.RDFNotifyingStoreTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code RDFNotifyingStoreTest}, and through it every test of {@code RDFStoreTest}. */
class BasaltStoreTest extends RDFNotifyingStoreTest {

    @TempDir
    File stores;

    @Override
    protected NotifyingSail createSail() {
        return BasaltSails.newStore(stores);
    }
}
