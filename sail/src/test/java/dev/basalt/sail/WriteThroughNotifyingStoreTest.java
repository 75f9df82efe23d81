package dev.basalt.sail;

import org.eclipse.rdf4j.sail.NotifyingSail;
import org.eclipse.rdf4j.testsuite.sail.RDFNotifyingStoreTest;

/**
 * RDF4J's {@code RDFNotifyingStoreTest} on a Basalt store whose isolated transactions write through into the store
 * from their first addition ({@code largeTransactionThreshold} 1), so every transaction of the suite
 * that adds takes the large-transaction path.
 */
class WriteThroughNotifyingStoreTest extends RDFNotifyingStoreTest {
    @Override
    protected NotifyingSail createSail() {
        return new BasaltStore(TestRepos.writeThroughEverything());
    }
}
