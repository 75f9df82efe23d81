package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.query.parser.sparql.manifest.SPARQL12QueryComplianceTest;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * RDF4J's {@code SPARQL12QueryComplianceTest}: the SPARQL 1.2 community group query tests shipped with RDF4J. In
 * 5.0.3 none of them is marked approved, so this runs no test; it is here so that it starts counting as soon as an
 * RDF4J upgrade brings approved ones.
 */
@ExtendWith(NativeCoverage.class)
class BasaltSPARQL12QueryComplianceTest extends SPARQL12QueryComplianceTest {

    @TempDir
    File stores;

    @Override
    protected Repository newRepository() {
        return BasaltSails.newDatasetRepository(stores);
    }
}
