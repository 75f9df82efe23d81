package dev.basalt.sail;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.testsuite.sail.SailConcurrencyTest;

/**
 * RDF4J's {@code SailConcurrencyTest} on a Basalt store whose isolated transactions write through into the store
 * from their first addition ({@code largeTransactionThreshold} 1), so every transaction of the suite
 * that adds takes the large-transaction path.
 */
class WriteThroughConcurrencyTest extends SailConcurrencyTest {
    @Override
    protected Sail createSail() {
        return new BasaltStore(TestRepos.writeThroughEverything());
    }
}
