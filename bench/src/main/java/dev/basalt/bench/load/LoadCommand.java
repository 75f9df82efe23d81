package dev.basalt.bench.load;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The bench's {@code load} command: its options as {@link LoadSettings} ({@link #settings}), one
 * {@link LoadComparison} run with timed progress on standard output, and its report ({@link LoadReport}).
 *
 * <p>Not thread-safe: picocli fills and runs it on the main thread; the loaders run as processes of their own.
 */
@Command(name = "load", mixinStandardHelpOptions = true,
		description = "Loads one N-Triples file into a new durable store with every loader side by side, each as "
				+ "its own timed process (Basalt's bulk loader, sails through the Repository API, oxigraph load "
				+ "and pyoxigraph's bulk_load), and writes docs/benchmarks-load.md.")
public final class LoadCommand implements Callable<Integer> {
	@Option(names = "--scale", defaultValue = "1m", description = "tiny, 1m, 10m or 100m: the BSBM data generated "
			+ "into the work directory, and -Xmx2g for the Java loaders at 100m (default: ${DEFAULT-VALUE})")
	String scale;
	@Option(names = "--products", description = "BSBM product count (overrides the scale)")
	Integer products;
	@Option(names = "--file", description = "an existing N-Triples file to load instead of generating BSBM")
	Path file;
	@Option(names = "--stores", defaultValue = "basalt,lmdb-osp,oxigraph", description = "comma-separated: basalt "
			+ "(bulk loader), sail setups of compare (Repository API), oxigraph (oxigraph load and pyoxigraph) "
			+ "(default: ${DEFAULT-VALUE})")
	String stores;
	@Option(names = "--heap", description = "-Xmx of the Java loaders (default 1g, 2g at 100m)")
	String heap;
	@Option(names = "--basalt-jar", description = "Basalt's command-line jar (default sail/target/basalt.jar)")
	Path basaltJar;
	@Option(names = "--baseline-jar", description = "another Basalt jar (e.g. an earlier release) loaded beside "
			+ "--basalt-jar as the loader basalt-baseline, to show a change's effect in the same run")
	Path baselineJar;
	@Option(names = "--further", description = "also load a further file of about 1M new triples through the "
			+ "Repository API into each loaded Java store and into an empty one")
	boolean further;
	@Option(names = "--rounds", defaultValue = "1", description = "rounds of all loads, order rotated (default: "
			+ "${DEFAULT-VALUE})")
	int rounds;
	@Option(names = "--seed", defaultValue = "808", description = "seed of the generated data (default: "
			+ "${DEFAULT-VALUE})")
	long seed;
	@Option(names = "--work-dir", defaultValue = "data/bench-load", description = "data, store directories and logs "
			+ "(default: ${DEFAULT-VALUE})")
	Path workDir;
	@Option(names = "--report", defaultValue = "docs/benchmarks-load.md", description = "report file (default: "
			+ "${DEFAULT-VALUE})")
	Path report;
	@Option(names = "--python", defaultValue = "python3", description = "Python interpreter that creates "
			+ "Oxigraph's virtual environment (default: ${DEFAULT-VALUE})")
	String python;
	@Option(names = "--keep-data", description = "keep the store directories after the run")
	boolean keepData;
	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public Integer call() {
		LoadSettings s = settings();
		long started = System.nanoTime();
		LoadResults results = new LoadComparison(s,
				line -> System.out.printf(Locale.ROOT, "[%6.1f s] %s%n", (System.nanoTime() - started) / 1e9, line))
				.run();
		new LoadReport(results).write();
		System.out.printf(Locale.ROOT, "Report written to %s (%.1f minutes)%n", s.reportFile, results.totalSeconds / 60);
		return 0;
	}

	/** The load run's settings from the parsed options; a bad option is a picocli usage error. */
	public LoadSettings settings() {
		LoadSettings s = LoadSettings.forScale(scale);
		if (products != null) {
			s.products = products;
		}
		s.file = file;
		s.stores = LoadSettings.parseStores(stores);
		if (heap != null) {
			s.heap = heap;
		}
		s.basaltJar = basaltJar;
		s.baselineJar = baselineJar;
		s.further = further;
		if (rounds < 1) {
			throw new CommandLine.ParameterException(spec.commandLine(), "--rounds must be at least 1");
		}
		s.rounds = rounds;
		s.seed = seed;
		s.workDir = workDir;
		s.reportFile = report;
		s.python = python;
		s.keepData = keepData;
		s.commandLine = "java -jar bench/target/basalt-bench.jar " + String.join(" ", spec.commandLine()
				.getParseResult().originalArgs());
		return s;
	}
}
