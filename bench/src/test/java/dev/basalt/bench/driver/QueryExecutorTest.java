package dev.basalt.bench.driver;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;

/** The driver reads every value of every result, as a result writer would, and counts results. */
class QueryExecutorTest {

	@Test
	void readsEveryValueOfEveryResult() {
		SailRepository repo = new SailRepository(new MemoryStore());
		ValueFactory vf = SimpleValueFactory.getInstance();
		try (RepositoryConnection c = repo.getConnection()) {
			c.add(vf.createIRI("urn:a"), vf.createIRI("urn:p"), vf.createLiteral("xy", "en"));
			c.add(vf.createIRI("urn:b"), vf.createIRI("urn:p"), vf.createLiteral(7));

			long before = QueryExecutor.charactersRead();
			// unbound ?none reads nothing; "xy"@en reads its text, rdf:langString and "en"; 7 its text and xsd:int
			assertEquals(2, QueryExecutor.count(c, "SELECT ?s ?o ?none WHERE { ?s <urn:p> ?o OPTIONAL { ?s <urn:q> ?none } }"));
			long expected = "urn:a".length() + "xy".length() + RDF.LANGSTRING.stringValue().length() + 2
					+ "urn:b".length() + "7".length() + XSD.INT.stringValue().length();
			assertEquals(expected, QueryExecutor.charactersRead() - before);

			before = QueryExecutor.charactersRead();
			// statements of the default graph have no context, which reads nothing
			assertEquals(1, QueryExecutor.count(c, "CONSTRUCT WHERE { <urn:b> ?p ?o }"));
			assertEquals("urn:b".length() + "urn:p".length() + "7".length() + XSD.INT.stringValue().length(),
					QueryExecutor.charactersRead() - before);

			assertEquals(1, QueryExecutor.count(c, "ASK { <urn:a> ?p ?o }"));
		} finally {
			repo.shutDown();
		}
	}
}
