package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.query.parser.sparql.manifest.SPARQL11QueryComplianceTest;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * RDF4J's {@code SPARQL11QueryComplianceTest}: the W3C SPARQL 1.1 query tests; which of them ran natively is
 * checked by {@link NativeCoverage}.
 */
@ExtendWith(NativeCoverage.class)
class BasaltSPARQL11QueryComplianceTest extends SPARQL11QueryComplianceTest {

    @TempDir
    File stores;

    @Override
    protected Repository newRepository() {
        return BasaltSails.newDatasetRepository(stores);
    }
}
