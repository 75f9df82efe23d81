package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.testsuite.sail.SailConcurrencyTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code SailConcurrencyTest}. */
class BasaltConcurrencyTest extends SailConcurrencyTest {

    @TempDir
    File stores;

    @Override
    protected Sail createSail() {
        return BasaltSails.newStore(stores);
    }
}
