package dev.basalt.compliance;

import java.io.File;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.testsuite.query.parser.sparql.SPARQLUpdateTest;
import org.junit.jupiter.api.io.TempDir;

/** RDF4J's {@code SPARQLUpdateTest}: RDF4J's own SPARQL update cases. */
class BasaltSPARQLUpdateTest extends SPARQLUpdateTest {

    @TempDir
    File stores;

    @Override
    protected Repository newRepository() {
        return BasaltSails.newRepository(stores);
    }
}
