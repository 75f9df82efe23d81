package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.query.parser.sparql.manifest.SPARQL11UpdateComplianceTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code SPARQL11UpdateComplianceTest}: the W3C SPARQL 1.1 update tests. */
class BasaltSPARQL11UpdateComplianceTest extends SPARQL11UpdateComplianceTest {

    @TempDir
    File stores;

    @Override
    protected Repository newRepository() {
        return BasaltSails.newDatasetRepository(stores);
    }
}
