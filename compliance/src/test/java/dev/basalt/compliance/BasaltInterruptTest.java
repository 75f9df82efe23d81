package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.testsuite.sail.SailInterruptTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code SailInterruptTest}. */
class BasaltInterruptTest extends SailInterruptTest {

    @TempDir
    File stores;

    @Override
    protected Sail createSail() {
        return BasaltSails.newStore(stores);
    }
}
