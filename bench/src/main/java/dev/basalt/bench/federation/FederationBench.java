package dev.basalt.bench.federation;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.rdf4j.repository.sparql.SPARQLRepository;

import dev.basalt.bench.bsbm.BsbmCrossCheck;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.MixDriver;
import dev.basalt.bench.driver.MixResult;
import dev.basalt.bench.driver.QueryStats;
import dev.basalt.bench.driver.QueryTemplate;
import dev.basalt.bench.lubm.LubmGenerator;
import dev.basalt.bench.lubm.LubmQueries;
import dev.basalt.bench.process.LauncherStartup;

/**
 * BSBM on a Basalt federation against one Basalt server holding all the data, side by side in one
 * run, both over HTTP: (1) load time of one upload into one server vs the partitioning loader into
 * N members; (2) the 12 Explore queries with several parameter sets each, whose solutions must be
 * equal as sorted solution sets; (3) reduced-mix QMpH and per-query times, measured runs alternating
 * between the two; (4) LUBM data (no inference) added to both and its 14 queries compared the same way. The servers and the federation run as child processes (their own class paths:
 * the federation is on RDF4J 5.1.2), so this process is only a client.
 *
 * <p>Not thread-safe; one run per instance.
 */
public final class FederationBench {

	/** Settings of one run. */
	public record Options(Path data, int products, long seed, int shards, Path workDir, Path federationJar,
			Path serverJar, String memberHeap, String singleHeap, int parameterSets, int warmupMixes, double seconds,
			int runs, String frontOptions, int lubmUniversities) {
	}

	/**
	 * Servers already running and loaded (no start, no load): the single server's and the front's
	 * URLs, and the process ids whose CPU is counted (the front's; the members', summed; the single
	 * server's).
	 */
	public record Attached(String singleUrl, String frontUrl, long singlePid, long frontPid, List<Long> memberPids,
			int profileInstances) {
	}

	/** What one run measured. */
	public record Outcome(double singleLoadSeconds, double federationLoadSeconds, String federationLoadLine,
			Map<String, String> crossCheck, int mismatches, List<MixResult> single, List<MixResult> federation,
			Map<String, String> lubmCheck, Cpu cpu) {

		Outcome withLubm(Map<String, String> check, int lubmMismatches) {
			return new Outcome(singleLoadSeconds, federationLoadSeconds, federationLoadLine, crossCheck,
					mismatches + lubmMismatches, single, federation, check, cpu);
		}

		Outcome withCpu(Cpu measured) {
			return new Outcome(singleLoadSeconds, federationLoadSeconds, federationLoadLine, crossCheck, mismatches, single,
					federation, lubmCheck, measured);
		}
	}

	/**
	 * CPU seconds the server processes used (their own accounting, so other work on a shared machine
	 * does not count): for the loads, and summed over the measured query runs.
	 */
	public record Cpu(double singleLoad, double[] memberLoad, double singleQueries, double frontQueries,
			double memberQueries) {
	}

	private final Options options;
	private final Consumer<String> progress;
	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	public FederationBench(Options options, Consumer<String> progress) {
		this.options = options;
		this.progress = progress;
	}

	/**
	 * Measures servers that already run and hold the data ({@link Attached}): the cross-check, the
	 * measured runs, then with {@code profileInstances > 0} a per-query profile ({@link QueryProfile}).
	 */
	public Outcome runAttached(Attached a) {
		ProcessHandle singleProcess = process(a.singlePid());
		ProcessHandle front = process(a.frontPid());
		List<ProcessHandle> members = a.memberPids().stream().map(FederationBench::process).toList();
		java.util.function.Supplier<double[]> cpu = () -> new double[] { ServerProcess.cpuSeconds(singleProcess),
				ServerProcess.cpuSeconds(front), members.stream().mapToDouble(ServerProcess::cpuSeconds).sum() };
		double[] queryCpu = new double[3];
		Outcome outcome = measure(a.singleUrl(), a.frontUrl(), 0, 0, "", cpu, queryCpu);
		outcome = outcome.withCpu(new Cpu(0, new double[0], queryCpu[0], queryCpu[1], queryCpu[2]));
		if (a.profileInstances() > 0) {
			profile = new QueryProfile(a.singleUrl(), a.frontUrl(), cpu, options, progress).run(a.profileInstances());
		}
		return outcome;
	}

	private String profile = "";

	/** The per-query profile of {@link #runAttached}, as a Markdown table (empty without one). */
	public String profile() {
		return profile;
	}

	private static ProcessHandle process(long pid) {
		return ProcessHandle.of(pid).orElseThrow(() -> new IllegalArgumentException("no process " + pid));
	}

	public Outcome run() throws IOException, InterruptedException {
		Path work = options.workDir();
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		int singlePort = freePort();
		try (ServerProcess single = ServerProcess.start(List.of(java, "-Xmx" + options.singleHeap(), "-XX:+UseParallelGC",
				"-jar", options.serverJar().toString(), "--port", String.valueOf(singlePort), "--data",
				work.resolve("single").toString()), work.resolve("single.log"), "RDF4J Workbench:", LauncherStartup.TIMEOUT)) {
			String singleUrl = "http://127.0.0.1:" + singlePort + "/rdf4j-server/repositories/basalt";
			// the launcher relaunches itself: the server is its child
			double singleCpu = single.cpuSeconds(true);
			double singleLoad = upload(singleUrl, options.data());
			singleCpu = single.cpuSeconds(true) - singleCpu;
			progress.accept(String.format(Locale.ROOT, "one server: %s loaded in %.1f s", options.data(), singleLoad));

			int frontPort = freePort();
			List<String> cluster = new ArrayList<>(List.of(java, "-Xmx1g", "-XX:+UseParallelGC", "-jar",
					options.federationJar().toString(), "cluster", "--shards", String.valueOf(options.shards()), "--data",
					work.resolve("cluster").toString(), "--server-jar", options.serverJar().toString(), "--member-heap",
					options.memberHeap(), "--port", String.valueOf(frontPort)));
			if (!options.frontOptions().isBlank()) {
				cluster.addAll(List.of(options.frontOptions().trim().split("\\s+")));
			}
			try (ServerProcess federation = ServerProcess.start(cluster, work.resolve("cluster.log"),
					"federation SPARQL endpoint:", LauncherStartup.TIMEOUT)) {
				List<String> members = new ArrayList<>();
				for (int i = 0; i < options.shards(); i++) {
					members.add(federation.valueAfter("shard-" + i + ":"));
				}
				String frontUrl = federation.valueAfter("federation SPARQL endpoint:");
				List<ProcessHandle> memberProcesses = federation.children();
				double[] memberCpu = new double[memberProcesses.size()];
				for (int i = 0; i < memberCpu.length; i++) {
					memberCpu[i] = -ServerProcess.treeCpuSeconds(memberProcesses.get(i));
				}
				double federationLoad = partitionedLoad(java, members, frontUrl, options.data(), work.resolve("federation-load.log"));
				for (int i = 0; i < memberCpu.length; i++) {
					memberCpu[i] += ServerProcess.treeCpuSeconds(memberProcesses.get(i));
				}
				String loadLine = String.join("\n", Files.readAllLines(work.resolve("federation-load.log")));
				progress.accept(String.format(Locale.ROOT, "federation: loaded into %d members in %.1f s (wall clock of"
						+ " the loader's JVM)", options.shards(), federationLoad));
				double[] queryCpu = new double[3];
				Outcome outcome = measure(singleUrl, frontUrl, singleLoad, federationLoad, loadLine, () -> new double[] {
						single.cpuSeconds(true), federation.cpuSeconds(false),
						memberProcesses.stream().mapToDouble(ServerProcess::treeCpuSeconds).sum() }, queryCpu);
				outcome = outcome.withCpu(new Cpu(singleCpu, memberCpu, queryCpu[0], queryCpu[1], queryCpu[2]));
				if (options.lubmUniversities() < 1) {
					return outcome;
				}
				// LUBM's IRIs are disjoint from BSBM's, so both data sets share the repositories.
				Path lubm = work.resolve("lubm-" + options.lubmUniversities() + ".nt");
				new LubmGenerator(options.lubmUniversities(), options.seed()).write(lubm);
				upload(singleUrl, lubm);
				partitionedLoad(java, members, frontUrl, lubm, work.resolve("federation-load-lubm.log"));
				Map<String, String> check = new LinkedHashMap<>();
				int mismatches = lubmCheck(singleUrl, frontUrl, check);
				return outcome.withLubm(check, mismatches);
			}
		}
	}

	/**
	 * Runs the partitioning loader in its own JVM and returns its wall-clock seconds; then tells the front to
	 * refresh what it learned from the data, which also warms a front that started before the data was there
	 * (docs/federation.md, "Warm-up"), timed apart from the load.
	 */
	private double partitionedLoad(String java, List<String> members, String frontUrl, Path data, Path log)
			throws IOException, InterruptedException {
		long started = System.nanoTime();
		List<String> load = new ArrayList<>(List.of(java, "-Xmx1g", "-jar", options.federationJar().toString(), "load",
				"--members", String.join(",", members), "--work", options.workDir().resolve("split").toString()));
		// the loader must replicate what the front was told is replicated
		String[] front = options.frontOptions().trim().split("\\s+");
		for (int i = 0; i + 1 < front.length; i++) {
			if (front[i].startsWith("--replicate-")) {
				load.add(front[i]);
				load.add(front[++i]);
			}
		}
		load.add(data.toString());
		Process loader = new ProcessBuilder(load).redirectErrorStream(true).redirectOutput(log.toFile()).start();
		if (loader.waitFor() != 0) {
			throw new IOException("the partitioning loader failed; see " + log);
		}
		double seconds = (System.nanoTime() - started) / 1e9;
		long refreshStarted = System.nanoTime();
		HttpResponse<String> refreshed = http.send(HttpRequest.newBuilder(URI.create(frontUrl.replaceAll("/sparql/?$", "")
				+ "/refresh")).timeout(Duration.ofMinutes(5)).POST(HttpRequest.BodyPublishers.noBody()).build(),
				HttpResponse.BodyHandlers.ofString());
		if (refreshed.statusCode() != 200) {
			throw new IOException("the front's refresh after the load failed (HTTP " + refreshed.statusCode() + "): "
					+ refreshed.body());
		}
		progress.accept(String.format(Locale.ROOT, "front refreshed in %.1f s: %s", (System.nanoTime() - refreshStarted) / 1e9,
				refreshed.body().trim().replace('\n', ' ')));
		return seconds;
	}

	/** The 14 LUBM queries (data without inference) on both; returns the number of differing answers. */
	private int lubmCheck(String singleUrl, String frontUrl, Map<String, String> check) {
		SPARQLRepository single = new SPARQLRepository(singleUrl);
		SPARQLRepository federation = new SPARQLRepository(frontUrl);
		single.init();
		federation.init();
		int mismatches = 0;
		try {
			for (QueryTemplate q : LubmQueries.ALL) {
				List<String> want = SolutionSets.of(single, q.text());
				List<String> got = SolutionSets.of(federation, q.text());
				boolean equal = want.equals(got);
				mismatches += equal ? 0 : 1;
				String line = (equal ? "equal, " : "DIFFERENT, ") + want.size() + " solutions on one server"
						+ (equal ? "" : ", " + got.size() + " through the federation; " + SolutionSets.firstDifference(want, got));
				check.put(q.name(), line);
				progress.accept("LUBM " + q.name() + ": " + line);
			}
		} finally {
			single.shutDown();
			federation.shutDown();
		}
		return mismatches;
	}

	/**
	 * @param cpu      CPU seconds so far of: the single server, the front, all members
	 * @param queryCpu receives the CPU seconds of the same three over the measured runs
	 */
	private Outcome measure(String singleUrl, String frontUrl, double singleLoad, double federationLoad, String loadLog,
			java.util.function.Supplier<double[]> cpu, double[] queryCpu) {
		SPARQLRepository single = new SPARQLRepository(singleUrl);
		SPARQLRepository federation = new SPARQLRepository(frontUrl);
		single.init();
		federation.init();
		try {
			BsbmParameters parameters = new BsbmParameters(new BsbmModel(options.products(), options.seed()));
			Map<String, String> check = new LinkedHashMap<>();
			int mismatches = 0;
			for (QueryTemplate template : BsbmQueries.ALL) {
				String[] queries = BsbmCrossCheck.instances(template, parameters, options.seed(), options.parameterSets());
				int equal = 0;
				long solutions = 0;
				List<String> differing = new ArrayList<>();
				for (int i = 0; i < queries.length; i++) {
					List<String> want = SolutionSets.of(single, queries[i]);
					List<String> got = SolutionSets.of(federation, queries[i]);
					solutions += want.size();
					if (want.equals(got)) {
						equal++;
					} else {
						differing.add("set " + i + ": " + want.size() + " vs " + got.size() + " solutions, first difference "
								+ SolutionSets.firstDifference(want, got));
					}
				}
				mismatches += queries.length - equal;
				String line = equal + "/" + queries.length + " parameter sets equal, " + solutions + " solutions on one server"
						+ (differing.isEmpty() ? "" : "; " + String.join("; ", differing));
				check.put(template.name(), line);
				progress.accept(template.name() + ": " + line);
			}

			MixDriver driver = new MixDriver(BsbmQueries.ALL, BsbmQueries.MIXES.get("reduced"), parameters::draw);
			for (SPARQLRepository r : List.of(single, federation)) {
				MixResult w = driver.run(r, 1, options.warmupMixes(), Double.MAX_VALUE, options.seed() + 7);
				progress.accept(String.format(Locale.ROOT, "%s warm-up: %d mixes, %,.0f QMpH",
						r == single ? "one server" : "federation", w.mixes(), w.qmph()));
			}
			List<MixResult> singleRuns = new ArrayList<>();
			List<MixResult> federationRuns = new ArrayList<>();
			for (int run = 1; run <= options.runs(); run++) {
				long seed = options.seed() + 1000L * run;
				double[] before = cpu.get();
				singleRuns.add(driver.run(single, 1, Long.MAX_VALUE, options.seconds(), seed));
				double[] middle = cpu.get();
				federationRuns.add(driver.run(federation, 1, Long.MAX_VALUE, options.seconds(), seed));
				double[] after = cpu.get();
				queryCpu[0] += middle[0] - before[0];
				queryCpu[1] += after[1] - middle[1];
				queryCpu[2] += after[2] - middle[2];
				progress.accept(String.format(Locale.ROOT, "run %d: one server %,.0f QMpH, federation %,.0f QMpH", run,
						singleRuns.get(run - 1).qmph(), federationRuns.get(run - 1).qmph()));
			}
			return new Outcome(singleLoad, federationLoad, loadLog, check, mismatches, singleRuns, federationRuns, Map.of(),
					null);
		} finally {
			single.shutDown();
			federation.shutDown();
		}
	}

	/** The report as Markdown tables: load, cross-check, QMpH per run, per-query mean times of the last run. */
	public static String report(Options o, Outcome r) {
		StringBuilder b = new StringBuilder();
		b.append(String.format(Locale.ROOT, "| load | seconds | triples/s |%n|---|---:|---:|%n"));
		long triples = 0;
		for (String line : r.federationLoadLine().split("\n")) {
			if (line.matches("\\d+ statements in .*")) {
				triples = Long.parseLong(line.substring(0, line.indexOf(' ')));
			}
		}
		b.append(String.format(Locale.ROOT, "| one server, one upload | %.1f | %,.0f |%n", r.singleLoadSeconds(),
				triples / r.singleLoadSeconds()));
		b.append(String.format(Locale.ROOT, "| %d members, partitioning loader (split + parallel uploads) | %.1f | %,.0f |%n%n",
				o.shards(), r.federationLoadSeconds(), triples / r.federationLoadSeconds()));
		if (r.cpu() != null) {
			b.append(String.format(Locale.ROOT, "Server CPU seconds for the load: one server %.1f; members %s (sum %.1f)%n%n",
					r.cpu().singleLoad(), java.util.Arrays.toString(java.util.Arrays.stream(r.cpu().memberLoad())
							.map(x -> Math.round(x * 10) / 10.0).toArray()),
					java.util.Arrays.stream(r.cpu().memberLoad()).sum()));
			long singleMixes = r.single().stream().mapToLong(MixResult::mixes).sum();
			long federationMixes = r.federation().stream().mapToLong(MixResult::mixes).sum();
			b.append(String.format(Locale.ROOT, "Server CPU milliseconds per reduced mix over the measured runs: one server %.1f;"
					+ " federation front %.1f + members %.1f%n%n", 1000 * r.cpu().singleQueries() / singleMixes,
					1000 * r.cpu().frontQueries() / federationMixes, 1000 * r.cpu().memberQueries() / federationMixes));
		}
		b.append("| query | cross-check |\n|---|---|\n");
		r.crossCheck().forEach((q, line) -> b.append("| ").append(q).append(" | ").append(line).append(" |\n"));
		if (!r.lubmCheck().isEmpty()) {
			b.append(String.format(Locale.ROOT, "%n| LUBM(%d) query, no inference | cross-check |%n|---|---|%n",
					o.lubmUniversities()));
			r.lubmCheck().forEach((q, line) -> b.append("| ").append(q).append(" | ").append(line).append(" |\n"));
		}
		b.append("\n| run | one server QMpH | federation QMpH |\n|---|---:|---:|\n");
		for (int i = 0; i < r.single().size(); i++) {
			b.append(String.format(Locale.ROOT, "| %d | %,.0f | %,.0f |%n", i + 1, r.single().get(i).qmph(),
					r.federation().get(i).qmph()));
		}
		b.append("\n| query | one server mean ms | federation mean ms | ratio |\n|---|---:|---:|---:|\n");
		Map<String, QueryStats> s = merged(r.single());
		Map<String, QueryStats> f = merged(r.federation());
		for (String q : s.keySet()) {
			double a = s.get(q).meanMillis();
			double c = f.containsKey(q) ? f.get(q).meanMillis() : Double.NaN;
			b.append(String.format(Locale.ROOT, "| %s | %.2f | %.2f | %.1f |%n", q, a, c, c / a));
		}
		return b.toString();
	}

	private static Map<String, QueryStats> merged(List<MixResult> runs) {
		Map<String, QueryStats> out = new java.util.TreeMap<>(java.util.Comparator.comparingInt(q -> Integer.parseInt(q.substring(1))));
		for (MixResult m : runs) {
			m.perQuery().forEach((q, st) -> out.computeIfAbsent(q, k -> new QueryStats()).merge(st));
		}
		return out;
	}

	private double upload(String repositoryUrl, Path file) throws IOException, InterruptedException {
		long started = System.nanoTime();
		HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(repositoryUrl + "/statements"))
				.header("Content-Type", "application/n-triples; charset=UTF-8")
				.POST(HttpRequest.BodyPublishers.ofFile(file)).build(), HttpResponse.BodyHandlers.ofString());
		if (response.statusCode() / 100 != 2) {
			throw new IOException("upload of " + file + " to " + repositoryUrl + " failed (HTTP " + response.statusCode()
					+ "): " + response.body());
		}
		return (System.nanoTime() - started) / 1e9;
	}

	private static final java.util.concurrent.atomic.AtomicInteger NEXT_PORT = new java.util.concurrent.atomic.AtomicInteger(
			Integer.getInteger("basalt.bench.firstPort", 0));

	/**
	 * A free loopback port; with {@code -Dbasalt.bench.firstPort=N} the next free one from N on (for a
	 * shared machine where each user keeps to a port range).
	 */
	private static int freePort() throws IOException {
		int from = NEXT_PORT.get();
		for (int port = from; from > 0 && port < from + 1000; port++) {
			try (java.net.ServerSocket s = new java.net.ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
				NEXT_PORT.set(port + 1);
				return port;
			} catch (IOException taken) {
				// try the next one
			}
		}
		try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return s.getLocalPort();
		}
	}
}
