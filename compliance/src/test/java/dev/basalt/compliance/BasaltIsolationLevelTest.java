package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.testsuite.sail.SailIsolationLevelTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code SailIsolationLevelTest}. */
class BasaltIsolationLevelTest extends SailIsolationLevelTest {

    @TempDir
    File stores;

    @Override
    protected Sail createSail() {
        return BasaltSails.newStore(stores);
    }
}
