package dev.basalt.compliance;

import org.eclipse.rdf4j.testsuite.repository.OptimisticIsolationTest;
import org.junit.AfterClass;
import org.junit.BeforeClass;

/**
 * RDF4J's {@code OptimisticIsolationTest}: a JUnit 4 suite (run by the vintage engine) of isolation anomaly tests,
 * each building its repository from the store's configuration through the SAIL registry.
 */
public class BasaltOptimisticIsolationTest extends OptimisticIsolationTest {

    // Named unlike the parent's setUpClass/afterClass, which JUnit 4 would otherwise treat as shadowed and skip.
    @BeforeClass
    public static void useBasalt() throws Exception {
        setRepositoryFactory(BasaltSails.newRepositoryFactory());
    }

    @AfterClass
    public static void forgetBasalt() throws Exception {
        setRepositoryFactory(null);
    }
}
