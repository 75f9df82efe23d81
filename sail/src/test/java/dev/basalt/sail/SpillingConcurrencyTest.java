package dev.basalt.sail;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.testsuite.sail.SailConcurrencyTest;

/**
 * RDF4J's {@code SailConcurrencyTest} on a Basalt store whose pending changes spill to disk from the first
 * statement, so every change set of the suite runs through the spill stores.
 */
class SpillingConcurrencyTest extends SailConcurrencyTest {
    @Override
    protected Sail createSail() {
        return new BasaltStore(TestRepos.spillEverything());
    }
}
