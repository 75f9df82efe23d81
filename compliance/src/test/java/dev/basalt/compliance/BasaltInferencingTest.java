package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.testsuite.sail.InferencingTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code InferencingTest}: the RDF semantics entailment cases, with RDF4J's RDFS inferencer over Basalt. */
class BasaltInferencingTest extends InferencingTest {

    @TempDir
    File stores;

    @Override
    protected Sail createSail() {
        return BasaltSails.newRdfsInferencer(stores);
    }
}
