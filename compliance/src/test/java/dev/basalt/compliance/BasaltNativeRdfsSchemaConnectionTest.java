package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.testsuite.repository.RDFSchemaRepositoryConnectionTest;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;

/**
 * RDF4J's {@code RDFSchemaRepositoryConnectionTest} with Basalt's native {@code rdfs} closure, every
 * test at every isolation level, including the two RDF4J switches off for its own stores'
 * inferencer ({@code testContextStatementsNotDuplicated} and {@code ...2}).
 */
class BasaltNativeRdfsSchemaConnectionTest extends RDFSchemaRepositoryConnectionTest {
    @Override
    protected Repository createRepository(File dataDir) {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        config.setInference(InferenceMode.RDFS);
        return new SailRepository(new BasaltStore(dataDir, config));
    }
}
