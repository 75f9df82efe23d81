package dev.basalt.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.compare.Comparison;
import dev.basalt.bench.compare.Results;
import dev.basalt.bench.compare.Settings;
import dev.basalt.bench.lubm.LubmGenerator;
import dev.basalt.bench.ordering.NestedGroupBench;
import dev.basalt.bench.report.ReportWriter;
import dev.basalt.bench.store.OxigraphSetup;
import dev.basalt.bench.store.StoreSetup;
import dev.basalt.bench.store.StoreSetups;

/**
 * The tests of the benchmark module: the whole comparison at a tiny scale, in a few seconds. Real
 * measurements run from the command line, never in the test command.
 */
class BenchSmokeTest {

	@TempDir
	Path tmp;

	@Test
	void generatorsAreDeterministicForASeed() throws Exception {
		new BsbmGenerator(new BsbmModel(20, 7)).write(tmp.resolve("a.nt"));
		new BsbmGenerator(new BsbmModel(20, 7)).write(tmp.resolve("b.nt.gz"));
		new BsbmGenerator(new BsbmModel(20, 7)).write(tmp.resolve("c.nt"));
		assertArrayEquals(Files.readAllBytes(tmp.resolve("a.nt")), Files.readAllBytes(tmp.resolve("c.nt")));
		assertTrue(Files.size(tmp.resolve("b.nt.gz")) < Files.size(tmp.resolve("a.nt")));
		long first = new LubmGenerator(1, 3, 1).write(tmp.resolve("l1.nt")).total();
		long second = new LubmGenerator(1, 3, 1).write(tmp.resolve("l2.nt")).total();
		assertEquals(first, second);
		assertArrayEquals(Files.readAllBytes(tmp.resolve("l1.nt")), Files.readAllBytes(tmp.resolve("l2.nt")));
	}

	@Test
	void tinyComparisonRunsEndToEndAndStoresAgree() throws Exception {
		Settings s = tinySettings(List.of(StoreSetups.MEMORY, StoreSetups.BASALT));

		Results results = new Comparison(s, line -> {
		}).run();
		new ReportWriter(results).write();

		assertTrue(results.crossCheckPassed(), () -> String.join("\n", results.crossCheckFailures));
		assertEquals(12, results.bsbmCrossCheck.size());
		assertEquals(2, results.lubm.size());
		assertTrue(results.bsbmLoads.values().stream().allMatch(l -> l.triples() > 3_000));
		assertTrue(Files.isRegularFile(s.reportFile));
		assertTrue(Files.isRegularFile(s.chartFile("qmph")));
		assertTrue(Files.isRegularFile(s.chartFile("load")));
		assertEquals(12 + 14, results.nativeFallbacks.size(), "fallbacks are recorded for every query on Basalt");
		assertTrue(results.nativeFallbacks.values().stream().allMatch(perStore -> perStore.keySet().equals(
				java.util.Set.of(StoreSetups.BASALT))), "only Basalt has native evaluation counters");
		assertTrue(Files.readString(s.reportFile).contains("## Native evaluation"));
	}

	@Test
	void aStoreWhoseLoadPassesItsLimitLeavesTheRunWithItsFigures() throws Exception {
		Settings s = tinySettings(List.of(StoreSetups.BASALT, StoreSetups.LMDB_OSP));
		s.universities = 0;
		// an instant already past stops the load at its first read
		s.loadLimits = java.util.Map.of("lmdb-osp", "2000-01-01T00:00:00Z");

		Results results = new Comparison(s, line -> {
		}).run();
		new ReportWriter(results).write();

		assertEquals(List.of(StoreSetups.BASALT), results.stores);
		assertEquals(java.util.Set.of(StoreSetups.LMDB_OSP), results.stoppedLoads.keySet());
		String why = results.skippedStores.get("lmdb-osp");
		assertTrue(why.startsWith("BSBM load stopped at its time limit of 0 s (--load-limit): 0 of "), why);
		assertTrue(Files.readString(s.reportFile).contains("| lmdb-osp | skipped: BSBM load stopped"));
		assertTrue(results.bsbmRuns.containsKey(StoreSetups.BASALT), "the other store is still measured");
		assertTrue(Files.notExists(s.workDir.resolve("stores").resolve("lmdb-osp-bsbm")),
				"the stopped store is deleted");
	}

	/**
	 * Issue 5, acceptance 3: every BSBM Explore query and every LUBM query runs on Basalt without
	 * RDF4J's evaluator taking over any part of it (DESCRIBE's expansion of the native result counts
	 * as post-processing, see docs/optimizer.md); the failure message lists the queries that fall
	 * back and why.
	 */
	@Test
	void basaltRunsEveryBsbmAndLubmQueryNatively() {
		Settings s = tinySettings(List.of(StoreSetups.BASALT));

		Results results = new Comparison(s, line -> {
		}).run();

		assertEquals(12 + 14, results.nativeFallbacks.size());
		assertEquals(List.of(), results.nativeFallbackList(),
				"queries that fell back to RDF4J's evaluator on Basalt (node type: reason)");
	}

	/** Without Python, Oxigraph is left out with its reason in the report and the run goes on without it. */
	@Test
	void oxigraphIsSkippedWithItsReasonWhenPythonIsMissing() throws Exception {
		Settings s = tinySettings(List.of(StoreSetups.MEMORY, OxigraphSetup.INSTANCE));
		s.universities = 0;
		s.python = tmp.resolve("no-python").toString();

		Results results = new Comparison(s, line -> {
		}).run();
		new ReportWriter(results).write();

		assertEquals(List.of(StoreSetups.MEMORY), results.stores);
		String why = results.skippedStores.get("oxigraph");
		assertTrue(why != null && why.contains("was not found") && why.contains("--python"), String.valueOf(why));
		assertTrue(results.crossCheckPassed());
		assertTrue(Files.readString(s.reportFile).contains("| oxigraph | skipped: the Python interpreter `"),
				"the report names the reason");
	}

	@Test
	void nestedGroupsRunOnEveryStoreAndTheyAgree() {
		List<NestedGroupBench.Timing> t = new NestedGroupBench(1_000, 3, line -> {
		}).run(List.of(StoreSetups.BASALT, StoreSetups.MEMORY), tmp.resolve("nested"));

		assertEquals(2 * 4, t.size());
		// every query finds rows (ten linked subjects, each with a :p and a :q), the same on both stores
		assertTrue(t.stream().allMatch(x -> x.rows() > 0), t::toString);
		String table = NestedGroupBench.table(t);
		assertTrue(table.startsWith("| query | rows | basalt | memory |"), table);
	}

	private Settings tinySettings(List<StoreSetup> stores) {
		Settings s = Settings.forScale("tiny");
		s.products = 10;
		s.stores = stores;
		s.mixes = List.of("full");
		s.clients = List.of(1);
		s.runs = 1;
		s.warmupMixes = 1;
		s.measureSeconds = 0.2;
		s.crossCheckInstances = 2;
		s.workDir = tmp.resolve("work");
		s.reportFile = tmp.resolve("docs").resolve("benchmarks.md");
		s.ontology = Path.of("..", "..", "shared", "lubm", "univ-bench.owl");
		s.commandLine = "java -jar bench/target/basalt-bench.jar compare --scale tiny";
		return s;
	}
}
