package dev.basalt.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.sail.BasaltStore;

class EvaluatorCrossCheckTest {

	@Test
	void bothEnginesAnswerEveryQueryOfASmallBsbmStoreAlike(@TempDir Path dir) throws Exception {
		BsbmModel model = new BsbmModel(60, 808L);
		Path data = dir.resolve("bsbm.nt");
		new BsbmGenerator(model).write(data);
		Path store = dir.resolve("store");
		SailRepository repo = new SailRepository(new BasaltStore(store.toFile()));
		repo.init();
		try (RepositoryConnection conn = repo.getConnection()) {
			conn.begin(IsolationLevels.NONE);
			conn.add(data.toFile(), RDFFormat.NTRIPLES);
			conn.commit();
		} finally {
			repo.shutDown();
		}
		List<String> lines = new ArrayList<>();

		EvaluatorCrossCheck.Outcome o = EvaluatorCrossCheck.run(store, new BsbmParameters(model), 808L, 3, lines::add);

		assertTrue(o.passed(), String.join("\n", lines));
		assertTrue(o.answerMismatches().isEmpty(), String.join("\n", lines));
		assertEquals(12, lines.stream().filter(l -> l.endsWith("3 of 3 answers equal as multisets of rows")).count(),
				String.join("\n", lines));
		assertEquals(12, o.nativeCounts().size());
		assertEquals(o.nativeCounts().keySet(), o.rdf4jCounts().keySet());
		long answered = o.nativeCounts().values().stream().filter(c -> Arrays.stream(c).sum() > 0).count();
		assertTrue(answered >= 8, "queries with answers: " + answered + "\n" + String.join("\n", lines));
	}

	@Test
	void firstDifferenceNamesTheRowWhereSortedAnswersPart() {
		assertEquals("row 2: native b / RDF4J's evaluator c",
				EvaluatorCrossCheck.firstDifference(List.of("a", "b"), List.of("a", "c")));
		assertEquals("row 3: native (none) / RDF4J's evaluator d",
				EvaluatorCrossCheck.firstDifference(List.of("a", "b"), List.of("a", "b", "d")));
		assertEquals("(none)", EvaluatorCrossCheck.firstDifference(List.of("a"), List.of("a")));
	}
}
