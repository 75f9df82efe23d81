package dev.basalt.compliance;

import org.eclipse.rdf4j.testsuite.sparql.RepositorySPARQLComplianceTestSuite;

/**
 * RDF4J's {@code RepositorySPARQLComplianceTestSuite}: RDF4J's own SPARQL regression cases, grouped by feature, each
 * on a repository built from the store's configuration through the SAIL registry.
 */
class BasaltSPARQLComplianceTest extends RepositorySPARQLComplianceTestSuite {

    BasaltSPARQLComplianceTest() {
        super(BasaltSails.newRepositoryFactory());
    }
}
