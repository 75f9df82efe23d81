package dev.basalt.compliance;

import org.eclipse.rdf4j.query.MalformedQueryException;
import org.eclipse.rdf4j.query.QueryLanguage;
import org.eclipse.rdf4j.query.parser.ParsedOperation;
import org.eclipse.rdf4j.query.parser.QueryParserUtil;
import org.eclipse.rdf4j.testsuite.query.parser.sparql.manifest.SPARQL11SyntaxComplianceTest;

/**
 * RDF4J's {@code SPARQL11SyntaxComplianceTest}: the W3C SPARQL 1.1 syntax tests. Basalt parses SPARQL with RDF4J's
 * parser, so this checks the parser Basalt ships with, not the store.
 */
class BasaltSPARQL11SyntaxComplianceTest extends SPARQL11SyntaxComplianceTest {

    @Override
    protected ParsedOperation parseOperation(String operation, String fileURL) throws MalformedQueryException {
        return QueryParserUtil.parseOperation(QueryLanguage.SPARQL, operation, fileURL);
    }
}
