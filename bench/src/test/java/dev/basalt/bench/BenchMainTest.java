package dev.basalt.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.basalt.bench.load.LoadCommand;
import dev.basalt.bench.load.LoadSettings;
import dev.basalt.bench.store.OxigraphSetup;
import dev.basalt.bench.store.StoreSetups;
import picocli.CommandLine;

/** The command line's parsing of the load comparison and of Oxigraph as a store name. */
class BenchMainTest {

	@Test
	void loadAtHundredMillionGeneratesBsbmWithTwoGigabyteLoaders() {
		LoadSettings s = parseLoad("--scale", "100m");

		assertEquals(284_826, s.products);
		assertEquals("2g", s.heap);
		assertEquals(List.of("basalt", "lmdb-osp", "oxigraph"), s.stores);
		assertEquals(Path.of("data/bench-load"), s.workDir);
		assertEquals(Path.of("docs/benchmarks-load.md"), s.reportFile);
		assertEquals(null, s.file);
		assertEquals("java -jar bench/target/basalt-bench.jar load --scale 100m", s.commandLine);
	}

	@Test
	void loadOptionsOverrideTheScale() {
		LoadSettings s = parseLoad("--scale", "10m", "--file", "/data/x.nt", "--stores", "basalt, oxigraph", "--heap",
				"3g", "--further", "--rounds", "3", "--python", "/opt/py/bin/python3", "--seed", "9");

		assertEquals(Path.of("/data/x.nt"), s.file);
		assertEquals(List.of("basalt", "oxigraph"), s.stores);
		assertEquals("3g", s.heap);
		assertTrue(s.further);
		assertEquals(3, s.rounds);
		assertEquals("/opt/py/bin/python3", s.python);
		assertEquals(9, s.seed);
	}

	@Test
	void loadRefusesZeroRoundsAndUnknownScales() {
		CommandLine.ParameterException e = assertThrows(CommandLine.ParameterException.class,
				() -> parseLoad("--rounds", "0"));
		assertTrue(e.getMessage().contains("--rounds"), e.getMessage());
		assertThrows(IllegalArgumentException.class, () -> parseLoad("--scale", "2m"));
	}

	@Test
	void oxigraphIsAStoreNameButNotADefaultOne() {
		assertEquals(List.of(StoreSetups.BASALT, OxigraphSetup.INSTANCE), StoreSetups.parse("basalt,Oxigraph"));
		assertTrue(StoreSetups.allNames().endsWith(",oxigraph"), StoreSetups.allNames());
		assertTrue(!StoreSetups.defaultNames().contains("oxigraph"), StoreSetups.defaultNames());
		assertTrue(!OxigraphSetup.INSTANCE.inProcess() && !OxigraphSetup.INSTANCE.describesIncomingStatements());
		UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
				() -> OxigraphSetup.INSTANCE.createSail(Path.of("x")));
		assertTrue(e.getMessage().contains("not a sail"), e.getMessage());
	}

	@Test
	void nestedGroupsRefusesOxigraph() {
		int code = new CommandLine(new BenchMain()).setOut(new PrintWriter(new StringWriter()))
				.setErr(new PrintWriter(new StringWriter()))
				.execute("nested-groups", "--stores", "basalt,oxigraph", "--subjects", "10");

		assertEquals(2, code, "a usage error, before any store is created");
	}

	private static LoadSettings parseLoad(String... args) {
		String[] all = new String[args.length + 1];
		all[0] = "load";
		System.arraycopy(args, 0, all, 1, args.length);
		CommandLine.ParseResult parsed = new CommandLine(new BenchMain()).parseArgs(all);
		return ((LoadCommand) parsed.subcommand().commandSpec().userObject()).settings();
	}
}
