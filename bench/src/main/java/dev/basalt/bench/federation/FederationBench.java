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

/**
 * BSBM on a Basalt federation against one Basalt server holding all the data, side by side in one
 * run, both over HTTP: (1) load time of one upload into one server vs the partitioning loader into
 * N members; (2) the 12 Explore queries with several parameter sets each, whose solutions must be
 * equal as sorted solution sets; (3) reduced-mix QMpH and per-query times, measured runs alternating
 * between the two. The servers and the federation run as child processes (their own class paths:
 * the federation is on RDF4J 5.1.2), so this process is only a client.
 *
 * <p>Not thread-safe; one run per instance.
 */
public final class FederationBench {

	/** Settings of one run. */
	public record Options(Path data, int products, long seed, int shards, Path workDir, Path federationJar,
			Path serverJar, String memberHeap, String singleHeap, int parameterSets, int warmupMixes, double seconds,
			int runs, String frontOptions) {
	}

	/** What one run measured. */
	public record Outcome(double singleLoadSeconds, double federationLoadSeconds, String federationLoadLine,
			Map<String, String> crossCheck, int mismatches, List<MixResult> single, List<MixResult> federation) {
	}

	private final Options options;
	private final Consumer<String> progress;
	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	public FederationBench(Options options, Consumer<String> progress) {
		this.options = options;
		this.progress = progress;
	}

	public Outcome run() throws IOException, InterruptedException {
		Path work = options.workDir();
		String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
		int singlePort = freePort();
		try (ServerProcess single = ServerProcess.start(List.of(java, "-Xmx" + options.singleHeap(), "-XX:+UseParallelGC",
				"-jar", options.serverJar().toString(), "--port", String.valueOf(singlePort), "--data",
				work.resolve("single").toString()), work.resolve("single.log"), "RDF4J Workbench:", Duration.ofMinutes(3))) {
			String singleUrl = "http://127.0.0.1:" + singlePort + "/rdf4j-server/repositories/basalt";
			double singleLoad = upload(singleUrl, options.data());
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
					"federation SPARQL endpoint:", Duration.ofMinutes(5))) {
				List<String> members = new ArrayList<>();
				for (int i = 0; i < options.shards(); i++) {
					members.add(federation.valueAfter("shard-" + i + ":"));
				}
				String frontUrl = federation.valueAfter("federation SPARQL endpoint:");
				long started = System.nanoTime();
				List<String> load = List.of(java, "-Xmx1g", "-jar", options.federationJar().toString(), "load",
						"--members", String.join(",", members), "--work", work.resolve("split").toString(),
						options.data().toString());
				Process loader = new ProcessBuilder(load).redirectErrorStream(true)
						.redirectOutput(work.resolve("federation-load.log").toFile()).start();
				if (loader.waitFor() != 0) {
					throw new IOException("the partitioning loader failed; see " + work.resolve("federation-load.log"));
				}
				double federationLoad = (System.nanoTime() - started) / 1e9;
				String loadLine = String.join("\n", Files.readAllLines(work.resolve("federation-load.log")));
				progress.accept(String.format(Locale.ROOT, "federation: loaded into %d members in %.1f s (wall clock of"
						+ " the loader's JVM)", options.shards(), federationLoad));
				return measure(singleUrl, frontUrl, singleLoad, federationLoad, loadLine);
			}
		}
	}

	private Outcome measure(String singleUrl, String frontUrl, double singleLoad, double federationLoad, String loadLog) {
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
				singleRuns.add(driver.run(single, 1, Long.MAX_VALUE, options.seconds(), seed));
				federationRuns.add(driver.run(federation, 1, Long.MAX_VALUE, options.seconds(), seed));
				progress.accept(String.format(Locale.ROOT, "run %d: one server %,.0f QMpH, federation %,.0f QMpH", run,
						singleRuns.get(run - 1).qmph(), federationRuns.get(run - 1).qmph()));
			}
			return new Outcome(singleLoad, federationLoad, loadLog, check, mismatches, singleRuns, federationRuns);
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
		b.append("| query | cross-check |\n|---|---|\n");
		r.crossCheck().forEach((q, line) -> b.append("| ").append(q).append(" | ").append(line).append(" |\n"));
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

	private static int freePort() throws IOException {
		try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
			return s.getLocalPort();
		}
	}
}
