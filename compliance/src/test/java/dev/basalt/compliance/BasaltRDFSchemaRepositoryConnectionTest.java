package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.testsuite.repository.RDFSchemaRepositoryConnectionTest;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * RDF4J's {@code RDFSchemaRepositoryConnectionTest}, with RDF4J's schema-caching RDFS inferencer over Basalt.
 *
 * <p>
 * The inferencer is set up as RDF4J sets it up for its own stores: inferred statements go to the context of their
 * premises, not to the default graph. Four tests assume the opposite, and RDF4J switches exactly these four off for its
 * stores; they are switched off here the same way, for the same reason. None of them concerns the store underneath.
 */
class BasaltRDFSchemaRepositoryConnectionTest extends RDFSchemaRepositoryConnectionTest {

    private static final String INFERRED_IN_PREMISE_CONTEXT = "inferred statements go to the premises' context, "
            + "not the default graph, as for RDF4J's own stores; RDF4J disables this test for them";

    @Override
    protected Repository createRepository(File dataDir) {
        return new SailRepository(BasaltSails.newRdfsInferencer(dataDir));
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(INFERRED_IN_PREMISE_CONTEXT)
    public void testQueryDefaultGraph(IsolationLevel level) {
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(INFERRED_IN_PREMISE_CONTEXT)
    public void testDeleteDefaultGraph(IsolationLevel level) {
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(INFERRED_IN_PREMISE_CONTEXT)
    public void testContextStatementsNotDuplicated(IsolationLevel level) {
    }

    @Override
    @ParameterizedTest
    @MethodSource("parameters")
    @Disabled(INFERRED_IN_PREMISE_CONTEXT)
    public void testContextStatementsNotDuplicated2(IsolationLevel level) {
    }
}
