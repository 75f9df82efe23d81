package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.testsuite.sail.InferencingTest;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;

/**
 * RDF4J's {@code InferencingTest} (RDF semantics entailment cases) with Basalt's native {@code rdfs}
 * closure: every case runs (domain, range, subclass, subproperty and vocabulary typing entailment,
 * the container membership properties {@code rdf:_n} typed by their use, and the error cases that
 * must conclude nothing from a literal class).
 */
class BasaltNativeRdfsInferencingTest extends InferencingTest {
    @TempDir
    File stores;

    @Override
    protected Sail createSail() {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        config.setInference(InferenceMode.RDFS);
        return new BasaltStore(new File(stores, "s" + System.nanoTime()), config);
    }
}
