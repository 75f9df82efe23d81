package dev.basalt.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
import java.util.Set;
import java.util.SplittableRandom;

import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.sail.memory.MemoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.QueryTemplate;
import dev.basalt.optimizer.rdf4j.NativeQueryStats;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * BSBM explore Q9 (DESCRIBE) and Q12 (CONSTRUCT), as the benchmark sends them, run on Basalt with
 * no fallback to RDF4J's evaluator counted (DESCRIBE's expansion is post-processing) and give the
 * same graphs as MemoryStore, for several parameter draws on a small generated dataset.
 */
class BsbmNativeTest {
	@TempDir
	Path tmp;

	@Test
	void describeAndConstructRunNatively() throws Exception {
		BsbmModel model = new BsbmModel(10, 7);
		Path data = tmp.resolve("bsbm.nt");
		new BsbmGenerator(model).write(data);
		BasaltStore store = new BasaltStore(tmp.resolve("basalt").toFile(), new BasaltStoreConfig());
		Repository basalt = new SailRepository(store);
		Repository memory = new SailRepository(new MemoryStore());
		try (RepositoryConnection b = basalt.getConnection(); RepositoryConnection m = memory.getConnection()) {
			b.add(data.toFile(), RDFFormat.NTRIPLES);
			m.add(data.toFile(), RDFFormat.NTRIPLES);
			BsbmParameters parameters = new BsbmParameters(model);
			SplittableRandom random = new SplittableRandom(3);
			for (int number : new int[] { 9, 12 }) {
				QueryTemplate template = BsbmQueries.ALL.stream().filter(t -> t.name().equals("Q" + number)).findFirst()
						.orElseThrow();
				for (int i = 0; i < 5; i++) {
					String query = template.instantiate(parameters.draw(number, random));
					store.getNativeQueryStats().reset();
					Set<Statement> actual = QueryResults.asSet(b.prepareGraphQuery(query).evaluate());
					NativeQueryStats stats = store.getNativeQueryStats();
					assertEquals(0, stats.totalFallbacks(), template.name() + ": " + stats);
					assertEquals(0, stats.runtimeFallbacks(), template.name() + ": " + stats);
					assertEquals(1, stats.plansCompiled(), template.name() + ": " + stats);
					Set<Statement> expected = QueryResults.asSet(m.prepareGraphQuery(query).evaluate());
					assertFalse(expected.isEmpty(), query);
					assertEquals(expected, actual, query);
				}
			}
		} finally {
			basalt.shutDown();
			memory.shutDown();
		}
	}
}
