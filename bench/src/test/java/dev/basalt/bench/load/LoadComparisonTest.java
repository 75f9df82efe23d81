package dev.basalt.bench.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load comparison at a tiny scale with LmdbStore through the Repository API in a child JVM, and
 * with Basalt's jar and Python missing, so that it runs anywhere and shows the skip reasons.
 */
class LoadComparisonTest {

	@TempDir
	Path tmp;

	@Test
	void loadsInAChildJvmMeasuresTheFurtherFileAndReportsWhatWasSkipped() throws Exception {
		LoadSettings s = LoadSettings.forScale("tiny");
		s.products = 10;
		s.stores = List.of(LoadSettings.BASALT, "lmdb", LoadSettings.OXIGRAPH);
		s.basaltJar = tmp.resolve("missing/basalt.jar");
		s.python = tmp.resolve("no-python").toString();
		s.further = true;
		s.workDir = tmp.resolve("work");
		s.reportFile = tmp.resolve("docs/benchmarks-load.md");
		s.commandLine = "java -jar bench/target/basalt-bench.jar load --scale tiny";
		List<String> progress = new ArrayList<>();

		LoadResults r = new LoadComparison(s, progress::add).run();
		new LoadReport(r).write();

		assertEquals(1, r.rows.size(), progress::toString);
		LoadResults.Row lmdb = r.rows.get(0);
		assertEquals("lmdb", lmdb.path());
		assertTrue(r.fileTriples > 3_000, "triples in the file: " + r.fileTriples);
		assertEquals(r.fileTriples, lmdb.triples(), "the child loaded every statement");
		assertTrue(lmdb.seconds() > 0 && lmdb.bytesAfterLoad() > 0, lmdb::toString);

		assertEquals(1, r.further.size());
		LoadResults.Further f = r.further.get(0);
		assertEquals(r.furtherTriples, f.triples());
		assertEquals(f.expectedStatements(), f.statementsAfter(), "the further file's statements are all new");
		assertEquals(r.fileTriples + r.furtherTriples, f.statementsAfter());
		assertTrue(f.fullInnerSeconds() > 0 && f.emptyInnerSeconds() > 0, f::toString);

		assertTrue(r.skipped.get("basalt").contains("does not exist"), r.skipped::toString);
		assertTrue(r.skipped.get("basalt").contains("--basalt-jar"), r.skipped::toString);
		assertTrue(r.skipped.get("oxigraph").contains("was not found"), r.skipped::toString);
		assertTrue(r.skipped.containsKey("pyoxigraph"), r.skipped::toString);
		assertTrue(Files.notExists(s.workDir.resolve("stores/lmdb")), "store directories are deleted");

		String report = Files.readString(s.reportFile);
		assertTrue(report.contains("| 1 | lmdb | "), report);
		assertTrue(report.contains("## A further file into the loaded store (Repository API)"), report);
		assertTrue(report.contains("- oxigraph: the Python interpreter"), report);
		assertTrue(report.contains("- basalt: "), report);
	}

	@Test
	void theFurtherFileSharesNoInstanceWithTheLoadedData() throws Exception {
		LoadSettings s = LoadSettings.forScale("tiny");
		s.products = 10;
		s.workDir = tmp;
		Path out = tmp.resolve("further.nt");

		long n = new LoadComparison(s, line -> {
		}).writeFurtherFile(out);

		String text = Files.readString(out);
		assertEquals(n, LoadComparison.countStatementLines(out));
		assertTrue(text.contains(LoadComparison.FURTHER_INSTANCES), "instances moved");
		assertTrue(!text.contains(LoadComparison.INSTANCES), "no instance IRI left in the loaded data's namespace");
	}

	@Test
	void scalesGiveTheDocumentedDefaults() {
		LoadSettings hundred = LoadSettings.forScale("100m");
		assertEquals(284_826, hundred.products);
		assertEquals("2g", hundred.heap);
		assertEquals("1g", LoadSettings.forScale("10m").heap);
		assertEquals(28_480, LoadSettings.forScale("10m").products);
		IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LoadSettings.forScale("1b"));
		assertTrue(e.getMessage().contains("tiny, 1m, 10m or 100m"), e.getMessage());
	}

	@Test
	void findsBasaltsJarBesideTheBenchJarsCheckout() throws Exception {
		Path jar = Files.createDirectories(tmp.resolve("checkout/sail/target")).resolve("basalt.jar");
		Files.writeString(jar, "jar");
		Path benchJar = tmp.resolve("checkout/bench/target/basalt-bench.jar");

		assertEquals(jar, LoadSettings.findBasaltJar(null, benchJar));
		assertEquals(jar, LoadSettings.findBasaltJar(jar, null));
		assertNull(LoadSettings.findBasaltJar(tmp.resolve("nothing.jar"), benchJar));
		assertNull(LoadSettings.findBasaltJar(null, tmp.resolve("elsewhere/x/y.jar")));
	}

	@Test
	void readsTheStatementCountAndJournalBytesFromBasaltStats() {
		Loaders.BasaltStats stats = Loaders.BasaltStats.parse(List.of(
				"store            /s/basalt.journal (RW)",
				"statements       10,072,938 (explicit 10,072,938, inferred 0)",
				"bytes on disk    1,804,233,024 (in use 1,700,000,000, deferred 0)",
				"bytes/triple     179.1"));

		assertEquals(10_072_938, stats.statements());
		assertEquals("`basalt stats`: journal file 1,804,233,024 bytes, 1,700,000,000 of them in use", stats.journal());
		assertEquals(-1, Loaders.BasaltStats.parse(List.of("nothing")).statements());
	}
}
