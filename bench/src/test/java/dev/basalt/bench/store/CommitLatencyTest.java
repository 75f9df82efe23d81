package dev.basalt.bench.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommitLatencyTest {

	@Test
	void summaryTakesNearestRankQuantilesOfUnsortedTimes() {
		long[] nanos = new long[100];
		for (int i = 0; i < nanos.length; i++) {
			nanos[i] = (100 - i) * 1_000_000L; // 100 ms down to 1 ms
		}
		CommitLatency.Summary s = CommitLatency.summarize(nanos);

		assertEquals(100, s.commits());
		assertEquals(50.0, s.medianMs());
		assertEquals(90.0, s.p90Ms());
		assertEquals(99.0, s.p99Ms());
		assertEquals(100.0, s.maxMs());
		assertEquals(50.5, s.meanMs(), 1e-9);
		assertEquals(100_000_000L, nanos[0], "the caller's array is not reordered");
	}

	@Test
	void oneCommitIsItsOwnEveryQuantileAndNoneIsRefused() {
		CommitLatency.Summary s = CommitLatency.summarize(new long[] { 7_000_000L });
		assertEquals(7.0, s.medianMs());
		assertEquals(7.0, s.p99Ms());
		assertThrows(IllegalArgumentException.class, () -> CommitLatency.summarize(new long[0]));
	}

	@Test
	void everyCommitAddsOneNewStatementThatSurvivesReopening(@TempDir Path dir) {
		Path store = dir.resolve("store");
		Repository repository = StoreSetups.BASALT.repository(StoreSetups.BASALT.createSail(store));
		repository.init();
		long[] nanos;
		try {
			nanos = CommitLatency.commit(repository, "t", 0, 5);
			CommitLatency.commit(repository, "t", 5, 2);
		} finally {
			repository.shutDown();
		}
		assertEquals(5, nanos.length);
		for (long t : nanos) {
			assertTrue(t > 0, "each commit's time is measured");
		}
		Repository reopened = StoreSetups.BASALT.repository(StoreSetups.BASALT.createSail(store));
		reopened.init();
		try (RepositoryConnection c = reopened.getConnection()) {
			assertEquals(7, c.size());
		} finally {
			reopened.shutDown();
		}
	}

	@Test
	void theCommandCommitsToAnExistingStoreAndRefusesNoMeasuredCommits(@TempDir Path dir) {
		Path store = dir.resolve("store");
		picocli.CommandLine cli = new picocli.CommandLine(new dev.basalt.bench.BenchMain());
		assertEquals(0, cli.execute("commit-latency", "--store", store.toString(), "--commits", "3", "--warmup", "1"));
		assertEquals(2, cli.execute("commit-latency", "--store", store.toString(), "--commits", "0"));
		Repository reopened = StoreSetups.BASALT.repository(StoreSetups.BASALT.createSail(store));
		reopened.init();
		try (RepositoryConnection c = reopened.getConnection()) {
			assertEquals(4, c.size(), "the warm-up and measured commits stay in the store");
		} finally {
			reopened.shutDown();
		}
	}
}
