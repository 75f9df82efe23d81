package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.testsuite.repository.RDFSchemaRepositoryConnectionTest;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.config.InferenceMode;

/**
 * RDF4J's {@code RDFSchemaRepositoryConnectionTest} with Basalt's native {@code rdfs} closure. Off:
 * the two tests RDF4J switches off for its own stores' inferencer, and three that need the axiomatic
 * triples or rdfs4a.
 */
class BasaltNativeRdfsSchemaConnectionTest extends RDFSchemaRepositoryConnectionTest {
    private static final String RDF4J_DISABLES = "RDF4J disables this test for its own stores' inferencer";
    private static final String RESOURCE_TYPING = "expects bob a rdfs:Resource (rdfs4a), which native rdfs does not "
            + "produce";
    private static final String AXIOMATIC = "expects the axiomatic triple rdf:type a rdf:Property, which native rdfs "
            + "does not produce";

    @Override
    protected Repository createRepository(File dataDir) {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setDurable(false);
        config.setInference(InferenceMode.RDFS);
        return new SailRepository(new BasaltStore(dataDir, config));
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(RDF4J_DISABLES)
    public void testContextStatementsNotDuplicated(IsolationLevel level) {
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(RDF4J_DISABLES)
    public void testContextStatementsNotDuplicated2(IsolationLevel level) {
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(AXIOMATIC)
    public void testExplicitFlag(IsolationLevel level) {
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(RESOURCE_TYPING)
    public void testInferencerQueryDuringTransaction(IsolationLevel level) {
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(RESOURCE_TYPING)
    public void testInferencerTransactionIsolation(IsolationLevel level) {
    }
}
