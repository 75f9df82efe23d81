package dev.basalt.bench.coldstart;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.QueryTemplate;
import dev.basalt.bench.driver.http.SparqlHttpClient;
import dev.basalt.bench.oxigraph.Oxigraph;
import dev.basalt.bench.oxigraph.OxigraphServer;

/**
 * Replays the BSBM explore mix, as the BSBM test driver sends it (one client, GET, SPARQL/XML, RDF/XML
 * for graph answers), against a launcher (or {@code oxigraph serve}) started fresh for the run, and records
 * per block of queries the server process's CPU (all of it, its JIT compiler threads', its GC threads'), the
 * JIT's compile count and time from the JVM's performance counters (none for Oxigraph), and the wall time. The query sequence is a
 * function of the seed, the same for every configuration and repetition.
 *
 * <p>Not thread-safe: one run at a time.
 */
final class ColdStartRun {

	/**
	 * A launcher configuration: a label, the java executable, the JVM options to start it with and the
	 * launcher's jar (null: the run's default).
	 */
	record Config(String label, String java, List<String> jvmArgs, Path jar) {
		Config(String label, String java, List<String> jvmArgs) {
			this(label, java, jvmArgs, null);
		}

		/**
		 * Parses {@code LABEL=JAVA [JVM-OPTION ...] [-jar LAUNCHER-JAR]}, the words separated by spaces; {@code -jar}
		 * picks another launcher than the run's (e.g. an unchanged build beside a changed one).
		 */
		static Config parse(String spec) {
			int eq = spec.indexOf('=');
			if (eq <= 0) {
				throw new IllegalArgumentException("a configuration is LABEL=JAVA [JVM-OPTION ...] [-jar JAR], got '"
						+ spec + "'");
			}
			List<String> words = new ArrayList<>(Arrays.stream(spec.substring(eq + 1).trim().split("\\s+"))
					.filter(w -> !w.isEmpty()).toList());
			if (words.isEmpty()) {
				throw new IllegalArgumentException("configuration '" + spec + "' names no java executable");
			}
			Path jar = null;
			int j = words.indexOf("-jar");
			if (j >= 0) {
				if (j + 1 >= words.size()) {
					throw new IllegalArgumentException("configuration '" + spec + "': -jar needs a path");
				}
				jar = Path.of(words.get(j + 1));
				words.subList(j, j + 2).clear();
			}
			return new Config(spec.substring(0, eq), words.get(0), List.copyOf(words.subList(1, words.size())), jar);
		}
	}

	/** What the server spent on the queries up to {@code queries} (cumulative) since the previous block. */
	record Block(long queries, double wallSeconds, ThreadCpu.Sample cpu, long compiles, double compileSeconds) {
	}

	/** One start of one configuration: its start-up CPU and wall time, then its blocks in order. */
	record Run(Config config, int repetition, double startCpuSeconds, double startSeconds, List<Block> blocks,
			Instant readyAt, Path recording) {
	}

	/**
	 * JDK Flight Recorder options for a run that records: the profile settings, with every compilation
	 * recorded (profile's threshold is 100 ms), written when the JVM exits.
	 */
	static String recordingOption(Path file) {
		return "-XX:StartFlightRecording=filename=" + file + ",settings=profile,dumponexit=true,"
				+ "jdk.Compilation#threshold=0ms";
	}

	private final Path serverJar;
	private final Path template;
	private final Path work;
	private final int port;
	private final BsbmParameters parameters;
	private final List<Integer> mix;
	private final long seed;
	private final Consumer<String> out;

	ColdStartRun(Path serverJar, Path template, Path work, int port, BsbmParameters parameters, List<Integer> mix,
			long seed, Consumer<String> out) {
		this.serverJar = serverJar;
		this.template = template;
		this.work = work;
		this.port = port;
		this.parameters = parameters;
		this.mix = mix;
		this.seed = seed;
		this.out = out;
	}

	/** Starts {@code config}'s launcher fresh and sends it {@code queries} queries, sampled every {@code block}. */
	Run run(Config config, int repetition, int queries, int block, boolean record)
			throws IOException, InterruptedException {
		long started = System.nanoTime();
		Path recording = record ? work.toAbsolutePath().resolve(config.label() + "-" + repetition + ".jfr") : null;
		List<String> jvmArgs = new ArrayList<>(config.jvmArgs());
		if (record) {
			jvmArgs.add(recordingOption(recording));
		}
		try (LauncherProcess server = LauncherProcess.start(config.java(), jvmArgs,
				config.jar() == null ? serverJar : config.jar(), template, work, port)) {
			return replay(config, repetition, started, server.pid(), server.serverPid(), server.endpoint(), queries,
					block, recording);
		}
	}

	/**
	 * Starts {@code oxigraph serve} fresh on {@code location} (a store loaded with the same data) and sends it
	 * the same query sequence: the peer compiled ahead of time, measured the same way in the same run.
	 */
	Run runOxigraph(Oxigraph oxigraph, Path location, int repetition, int queries, int block)
			throws IOException, InterruptedException {
		long started = System.nanoTime();
		Config config = new Config("oxigraph", oxigraph.cli().toString(), List.of());
		try (OxigraphServer server = OxigraphServer.start(oxigraph, location, work.resolve("oxigraph.log"))) {
			return replay(config, repetition, started, server.pid(), server.pid(), server.endpoint(), queries, block,
					null);
		}
	}

	/**
	 * Sends {@code queries} queries of the seeded sequence to {@code endpoint} and samples, every {@code block},
	 * the CPU of process {@code pid} (with its descendants) and the JIT counters of JVM {@code jvmPid} (none for
	 * a process that is no JVM).
	 */
	private Run replay(Config config, int repetition, long started, long pid, long jvmPid, String endpoint,
			int queries, int block, Path recording) throws IOException, InterruptedException {
		List<Block> blocks = new ArrayList<>();
		Instant readyAt = Instant.now();
		double startSeconds = (System.nanoTime() - started) / 1e9;
		ThreadCpu cpu = new ThreadCpu(pid);
		Path perf = HsPerfData.fileOf(jvmPid);
		ThreadCpu.Sample before = cpu.sample();
		double startCpu = before.total();
		Map<String, Long> perfBefore = HsPerfData.read(perf);
		out.accept(String.format(java.util.Locale.ROOT, "%s #%d: server up in %.1f s, %.2f s CPU (pid %d)%s",
				config.label(), repetition, startSeconds, startCpu, pid, LauncherProcess.warmupLine(work)));
		SplittableRandom random = new SplittableRandom(seed);
		try (SparqlHttpClient client = new SparqlHttpClient(URI.create(endpoint), SparqlHttpClient.Options.DEFAULT)) {
			long blockStart = System.nanoTime();
			for (int i = 1; i <= queries; i++) {
				int number = mix.get((i - 1) % mix.size());
				QueryTemplate t = BsbmQueries.ALL.get(number - 1);
				client.count(t.form(), t.instantiate(parameters.draw(number, random)));
				if (i % block == 0 || i == queries) {
					long now = System.nanoTime();
					ThreadCpu.Sample s = cpu.sample();
					Map<String, Long> p = HsPerfData.read(perf);
					blocks.add(new Block(i, (now - blockStart) / 1e9, s.minus(before),
							counter(p, "sun.ci.totalCompiles") - counter(perfBefore, "sun.ci.totalCompiles"),
							compileSeconds(p) - compileSeconds(perfBefore)));
					before = s;
					perfBefore = p;
					blockStart = System.nanoTime();
				}
			}
		}
		return new Run(config, repetition, startCpu, startSeconds, blocks, readyAt, recording);
	}

	private static long counter(Map<String, Long> perf, String name) {
		return perf.getOrDefault(name, 0L);
	}

	/** The JIT's elapsed compile time so far (all compiler threads), in seconds; 0 without perf data. */
	private static double compileSeconds(Map<String, Long> perf) {
		long frequency = counter(perf, "sun.os.hrt.frequency");
		return frequency == 0 ? 0 : (double) counter(perf, "java.ci.totalTime") / frequency;
	}
}
