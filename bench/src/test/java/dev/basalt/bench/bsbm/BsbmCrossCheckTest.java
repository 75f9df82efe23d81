package dev.basalt.bench.bsbm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;

import dev.basalt.bench.driver.QueryExecutor;
import dev.basalt.bench.driver.QueryTemplate;

/** The DESCRIBE rewrite the cross-check uses for a store whose DESCRIBE returns outgoing statements only. */
class BsbmCrossCheckTest {

	@Test
	void biInstancesAreDrawnPerTemplateNumberAndFillEveryPlaceholder() {
		BsbmModel model = new BsbmModel(100, 808);
		for (QueryTemplate t : BsbmBiQueries.ALL) {
			String[] a = BsbmCrossCheck.instances(t, (n, r) -> BsbmBiQueries.draw(model, n, r), 808, 3);
			String[] b = BsbmCrossCheck.instances(t, (n, r) -> BsbmBiQueries.draw(model, n, r), 808, 3);
			assertEquals(3, a.length, t.name());
			for (int i = 0; i < a.length; i++) {
				assertEquals(a[i], b[i], t.name() + ": the same seed gives the same sets");
				assertFalse(a[i].contains("%"), t.name() + " left a placeholder: " + a[i]);
			}
		}
	}

	@Test
	void onlyQ9IsADescribe() {
		for (QueryTemplate t : BsbmQueries.ALL) {
			assertEquals(t.name().equals("Q9"), BsbmCrossCheck.isDescribe(t), t.name());
		}
	}

	@Test
	void theRewriteCountsTheDescribedResourcesOutgoingStatements() throws Exception {
		SailRepository repo = new SailRepository(new MemoryStore());
		repo.init();
		try (RepositoryConnection conn = repo.getConnection()) {
			conn.add(new StringReader("""
					<http://x/review1> <http://purl.org/stuff/rev#reviewer> <http://x/person> .
					<http://x/review2> <http://purl.org/stuff/rev#reviewer> <http://x/person> .
					<http://x/person> <http://xmlns.com/foaf/0.1/name> "P" .
					<http://x/person> <http://xmlns.com/foaf/0.1/mbox_sha1sum> "abc" .
					<http://x/person> <http://x/country> <http://x/DE> .
					"""), "", RDFFormat.NTRIPLES);
			String describe = "PREFIX rev: <http://purl.org/stuff/rev#>\nDESCRIBE ?x\nWHERE { <http://x/review1> "
					+ "rev:reviewer ?x }\n";
			String outgoing = BsbmCrossCheck.outgoingStatements(describe);

			assertTrue(outgoing.startsWith("PREFIX rev: <http://purl.org/stuff/rev#>\nCONSTRUCT { ?x "), outgoing);
			assertFalse(outgoing.contains("DESCRIBE"), outgoing);
			assertEquals(3, QueryExecutor.count(conn, outgoing), "name, mbox and country; not the two reviews");
			assertEquals(5, QueryExecutor.count(conn, describe), "RDF4J's DESCRIBE adds the incoming statements");
		} finally {
			repo.shutDown();
		}
		assertThrows(IllegalArgumentException.class, () -> BsbmCrossCheck.outgoingStatements("SELECT * WHERE {}"));
	}
}
