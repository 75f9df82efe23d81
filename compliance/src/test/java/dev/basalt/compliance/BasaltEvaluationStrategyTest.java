package dev.basalt.compliance;

import org.eclipse.rdf4j.sail.base.config.BaseSailConfig;
import org.eclipse.rdf4j.testsuite.sail.EvaluationStrategyTest;

/**
 * RDF4J's {@code EvaluationStrategyTest}: the store is built by a repository manager from its configuration, so this
 * also checks that the configuration's query evaluation mode reaches the store.
 */
class BasaltEvaluationStrategyTest extends EvaluationStrategyTest {

    @Override
    protected BaseSailConfig getBaseSailConfig() {
        return BasaltSails.newConfig();
    }
}
