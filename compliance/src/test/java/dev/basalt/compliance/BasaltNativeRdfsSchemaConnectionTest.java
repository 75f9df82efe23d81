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
 * the two tests RDF4J switches off for its own stores' inferencer, one that needs the axiomatic
 * triples, and two that need a transaction to see its own inferences before it commits, which
 * native reasoning does not do yet (docs/sail.md, "Reasoning").
 */
class BasaltNativeRdfsSchemaConnectionTest extends RDFSchemaRepositoryConnectionTest {
    private static final String RDF4J_DISABLES = "RDF4J disables this test for its own stores' inferencer";
    private static final String AXIOMATIC = "expects the axiomatic triple rdf:type a rdf:Property, which native rdfs "
            + "does not produce";
    private static final String AT_COMMIT = "native inferences are computed at commit: a transaction does not see "
            + "its own inferences before it commits";

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
    @Disabled(AT_COMMIT)
    public void testInferencerQueryDuringTransaction(IsolationLevel level) {
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(AT_COMMIT)
    public void testInferencerTransactionIsolation(IsolationLevel level) {
    }
}
