package dev.basalt.sail;

import org.eclipse.rdf4j.sail.NotifyingSail;
import org.eclipse.rdf4j.testsuite.sail.RDFNotifyingStoreTest;

/**
 * RDF4J's {@code RDFNotifyingStoreTest} on a Basalt store whose pending changes spill to disk from the first
 * statement, so every change set of the suite runs through the spill stores.
 */
class SpillingNotifyingStoreTest extends RDFNotifyingStoreTest {
    @Override
    protected NotifyingSail createSail() {
        return new BasaltStore(TestRepos.spillEverything());
    }
}
