package dev.basalt.bench.coldstart;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.oxigraph.Oxigraph;
import dev.basalt.bench.oxigraph.OxigraphInstall;
import dev.basalt.bench.store.DiskUsage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code basalt-bench coldstart}: how much more server CPU a query costs right after the launcher
 * starts than once it is warm, per launcher configuration (java executable and JVM options), each
 * started fresh on a copy of the same loaded data directory, repetitions interleaved (A B A B) so
 * that the machine's load falls on all of them alike; with {@code --oxigraph}, {@code oxigraph serve} beside them in
 * each repetition. See docs/benchmarks-coldstart.md.
 *
 * <p>Not thread-safe: picocli fills and runs it on the main thread.
 */
@Command(name = "coldstart", mixinStandardHelpOptions = true,
		description = "Starts the launcher fresh per configuration, replays the BSBM explore mix as the BSBM driver "
				+ "sends it and prints the server's CPU per query (JIT compiler and GC threads apart) per block of "
				+ "queries, with the first queries' figure against the warm one.")
public final class ColdStartCommand implements Callable<Integer> {
	@Option(names = "--config", required = true, description = "LABEL=JAVA [JVM-OPTION ...] [-jar LAUNCHER-JAR]: a launcher "
			+ "configuration (repeatable), e.g. 'j17=/usr/lib/jvm/java-17-openjdk-amd64/bin/java -Xmx2g'")
	List<String> configs;
	@Option(names = "--repeat", defaultValue = "1", description = "starts per configuration, interleaved")
	int repeat;
	@Option(names = "--queries", defaultValue = "50000", description = "queries per start (default ${DEFAULT-VALUE})")
	int queries;
	@Option(names = "--block", defaultValue = "1000", description = "queries per reported block")
	int block;
	@Option(names = "--cold-queries", defaultValue = "10000", description = "the first queries, whose CPU is set "
			+ "against the warm figure (default ${DEFAULT-VALUE})")
	int coldQueries;
	@Option(names = "--warm-queries", defaultValue = "10000", description = "the last queries of a start, its warm "
			+ "figure (default ${DEFAULT-VALUE})")
	int warmQueries;
	@Option(names = "--products", defaultValue = "2785", description = "BSBM products (2785: 1M triples)")
	int products;
	@Option(names = "--seed", defaultValue = "808")
	long seed;
	@Option(names = "--mix", defaultValue = "reduced", description = "full or reduced (default ${DEFAULT-VALUE})")
	String mix;
	@Option(names = "--server-jar", defaultValue = "workbench-config/target/basalt-server.jar")
	Path serverJar;
	@Option(names = "--work-dir", defaultValue = "data/coldstart", description = "data copies, logs, the template")
	Path workDir;
	@Option(names = "--template", description = "a launcher data directory holding repository 'basalt' loaded with "
			+ "the dataset (default WORK/template-PRODUCTS-SEED, made with the first configuration's java if missing)")
	Path template;
	@Option(names = "--jfr", description = "record each start with JDK Flight Recorder (profile settings, every "
			+ "compilation) and print where the warm-up went: compilations, deoptimizations, execution samples "
			+ "from the first query on")
	boolean jfr;
	@Option(names = "--jfr-top", defaultValue = "25", description = "rows per list of the --jfr summary")
	int jfrTop;
	@Option(names = "--port", defaultValue = "18380", description = "the launcher's port")
	int port;
	@Option(names = "--oxigraph", description = "also start `oxigraph serve` fresh for each repetition, on a store "
			+ "loaded with the same data (WORK/oxigraph-PRODUCTS-SEED, made with `oxigraph load` if missing), and "
			+ "send it the same queries: the peer side by side in the same run")
	boolean oxigraph;
	@Option(names = "--python", defaultValue = "python3", description = "the Python that installs Oxigraph "
			+ OxigraphInstall.VERSION + " into WORK/oxigraph-venv for --oxigraph")
	String python;

	/**
	 * {@code template}, or WORK/template-PRODUCTS-SEED made if missing: the BSBM data generated and loaded
	 * into a launcher started with {@code java} on an empty data directory.
	 */
	static Path ensureTemplate(Path template, Path workDir, BsbmModel model, long seed, String java, Path serverJar,
			int port) throws java.io.IOException, InterruptedException {
		Files.createDirectories(workDir);
		Path data = template != null ? template : workDir.resolve("template-" + model.products() + "-" + seed);
		if (!Files.isDirectory(data)) {
			Path nt = workDir.resolve("bsbm-" + model.products() + "-" + seed + ".nt");
			if (!Files.exists(nt)) {
				new BsbmGenerator(model).write(nt);
			}
			System.out.println("loading " + nt + " into a new template " + data);
			LauncherProcess.createTemplate(java, serverJar, nt, data, workDir, port);
		}
		return data;
	}

	/** Oxigraph installed into WORK/oxigraph-venv; fails naming why it could not be. */
	private Oxigraph oxigraph() {
		OxigraphInstall.Outcome outcome = new OxigraphInstall(python, workDir.resolve("oxigraph-venv"),
				System.out::println).prepare();
		if (outcome.oxigraph() == null) {
			throw new IllegalStateException("--oxigraph: " + outcome.skipReason());
		}
		return outcome.oxigraph();
	}

	/** WORK/oxigraph-PRODUCTS-SEED, loaded from the N-Triples file the template was made from if missing. */
	private Path oxigraphStore(Oxigraph oxi, BsbmModel model) throws IOException, InterruptedException {
		Path store = workDir.resolve("oxigraph-" + model.products() + "-" + seed);
		if (!Files.isDirectory(store)) {
			Path nt = workDir.resolve("bsbm-" + model.products() + "-" + seed + ".nt");
			if (!Files.exists(nt)) {
				new BsbmGenerator(model).write(nt);
			}
			Path partial = workDir.resolve(store.getFileName() + ".loading");
			DiskUsage.delete(partial);
			System.out.println("loading " + nt + " into Oxigraph at " + store);
			Process p = new ProcessBuilder(oxi.loadCommand(partial, nt)).redirectErrorStream(true)
					.redirectOutput(workDir.resolve("oxigraph-load.log").toFile()).start();
			if (p.waitFor() != 0) {
				throw new IllegalStateException("oxigraph load failed; see " + workDir.resolve("oxigraph-load.log"));
			}
			Files.move(partial, store);
		}
		return store;
	}

	@Override
	public Integer call() throws Exception {
		List<Integer> queryMix = BsbmQueries.MIXES.get(mix);
		if (queryMix == null) {
			throw new CommandLine.ParameterException(new CommandLine(this), "--mix must be full or reduced");
		}
		List<ColdStartRun.Config> parsed = new ArrayList<>();
		for (String c : configs) {
			try {
				parsed.add(ColdStartRun.Config.parse(c));
			} catch (IllegalArgumentException e) {
				throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
			}
		}
		BsbmModel model = new BsbmModel(products, seed);
		Path data = ensureTemplate(template, workDir, model, seed, parsed.get(0).java(), serverJar, port);
		ColdStartRun runner = new ColdStartRun(serverJar, data, workDir, port, new BsbmParameters(model), queryMix,
				seed, System.out::println);
		Oxigraph oxi = oxigraph ? oxigraph() : null;
		Path oxiStore = oxi == null ? null : oxigraphStore(oxi, model);
		List<ColdStartRun.Run> runs = new ArrayList<>();
		for (int r = 1; r <= repeat; r++) {
			if (oxi != null) {
				ColdStartRun.Run run = runner.runOxigraph(oxi, oxiStore, r, queries, block);
				runs.add(run);
				ColdStartReport.summary(List.of(run), coldQueries, warmQueries).stream().skip(2)
						.forEach(System.out::println);
			}
			for (ColdStartRun.Config c : parsed) {
				ColdStartRun.Run run = runner.run(c, r, queries, block, jfr);
				runs.add(run);
				if (jfr) {
					System.out.println("JFR " + run.recording() + ", from the first query on:");
					JfrSummary.of(run.recording(), run.readyAt()).print(jfrTop, System.out::println);
				}
				ColdStartReport.summary(List.of(run), coldQueries, warmQueries).stream().skip(2)
						.forEach(System.out::println);
			}
		}
		System.out.println();
		System.out.printf(Locale.ROOT, "BSBM %d products, %s mix, 1 client, %,d queries per start; load average %s%n",
				products, mix, queries, Files.readString(Path.of("/proc/loadavg")).trim());
		System.out.println();
		ColdStartReport.summary(runs, coldQueries, warmQueries).forEach(System.out::println);
		System.out.println();
		ColdStartReport.blocks(runs).forEach(System.out::println);
		return 0;
	}
}
