package dev.basalt.bench.driver.http;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.stream.IntStream;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.sparql.SPARQLRepository;

import dev.basalt.bench.bsbm.BsbmBiQueries;
import dev.basalt.bench.bsbm.BsbmCrossCheck;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.ColdWarmRun;
import dev.basalt.bench.driver.MixDriver;
import dev.basalt.bench.driver.MixResult;
import dev.basalt.bench.driver.ProcessCpu;
import dev.basalt.bench.driver.QueryClient;
import dev.basalt.bench.driver.QueryForm;
import dev.basalt.bench.driver.QueryStats;
import dev.basalt.bench.driver.QueryTemplate;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code bsbm-http} command of {@code basalt-bench.jar}: the BSBM Explore or Business Intelligence mix over the
 * SPARQL protocol against endpoints already loaded, after the client's own warm-up ({@link ClientWarmup}), cold and
 * warm phases with server CPU per query, and result counts cross-checked between endpoints (graph answers by their
 * statements, whatever the timed phases count them in).
 *
 * <p>Not thread-safe: picocli fills and runs it on the main thread; the mixes run on client threads it starts and
 * joins per phase, each with its own connections.
 */
@Command(name = "bsbm-http", mixinStandardHelpOptions = true,
		description = "Runs the BSBM Explore mix (or the Business Intelligence mix, --mix bi) over the SPARQL "
				+ "protocol against endpoints already loaded with the dataset generate-bsbm wrote for the same "
				+ "--products and --seed (e.g. RDF4J Server repositories). With several endpoints, result counts "
				+ "are cross-checked between them; the exit status is 2 when they differ in a query not named by "
				+ "--expect-count-difference.")
public final class BsbmHttpCommand implements Callable<Integer> {
	@Option(names = "--endpoint", required = true, description = "SPARQL query endpoint URL; repeatable")
	List<String> endpoints;
	@Option(names = "--products", required = true)
	int products;
	@Option(names = "--seed", defaultValue = "808")
	long seed;
	@Option(names = "--mix", defaultValue = "full", description = "full or reduced (Explore), or bi: the 8 "
			+ "Business Intelligence queries once each per mix, parameters drawn by BsbmBiQueries")
	String mix;
	@Option(names = "--only", split = ",", paramLabel = "QUERY", description = "keep only these queries of the mix "
			+ "(name such as Q9, or number; repeatable or comma-separated), in the mix's order and as often as it "
			+ "has them: to study one query's cost without the others. Default: the whole mix")
	List<String> only = List.of();
	@Option(names = "--clients", defaultValue = "1")
	int clients;
	@Option(names = "--cold-mixes", defaultValue = "50", description = "mixes of the cold phase, the first the "
			+ "server answers (default 50, the BSBM driver's warm-up); start the server just before for a cold figure")
	int coldMixes;
	@Option(names = "--warmup-mixes", defaultValue = "1000", description = "mixes before the warm runs, the cold "
			+ "ones included (default 1000)")
	int warmupMixes;
	@Option(names = "--runs", defaultValue = "3")
	int runs;
	@Option(names = "--seconds", defaultValue = "30")
	double seconds;
	@Option(names = "--cross-check", defaultValue = "10", description = "parameter sets per query whose result "
			+ "counts are compared between the endpoints, after the measurements (so they do not warm the server); "
			+ "CONSTRUCT and DESCRIBE answers are parsed and their statements counted here, whatever --graph-count "
			+ "says. Counts that differ make the exit status 2, but see --expect-count-difference")
	int crossCheck;
	@Option(names = "--expect-count-difference", split = ",", paramLabel = "QUERY", description = "queries (name "
			+ "such as Q9, or number) whose cross-checked counts may differ between the endpoints by design, e.g. a "
			+ "DESCRIBE that one server answers with a symmetric description and another with the resource's own "
			+ "statements only; their differences are printed (DIFFERENCE EXPECTED) but do not fail the run. "
			+ "Repeatable or comma-separated")
	List<String> expectCountDifference = List.of();
	@Option(names = "--server-pid", description = "process id of the server behind each --endpoint, in the same "
			+ "order (repeatable): each run then prints the server's CPU seconds (user+sys, from /proc, with the "
			+ "processes it started: the launcher's relaunched JVM) per query")
	List<Long> serverPids;
	@Option(names = "--client", defaultValue = "light", description = "light (default): the bench's own SPARQL "
			+ "protocol client; rdf4j: RDF4J's SPARQLRepository")
	String client;
	@Option(names = "--result-format", defaultValue = "xml", description = "light client: xml (default, what the "
			+ "BSBM driver asks for), json or tsv for SELECT and ASK results")
	String resultFormat;
	@Option(names = "--graph-format", defaultValue = "rdfxml", description = "light client: rdfxml (default, what "
			+ "the BSBM driver asks for) or ntriples for CONSTRUCT and DESCRIBE results")
	String graphFormat;
	@Option(names = "--graph-count", defaultValue = "bytes", paramLabel = "bytes|statements", description = "light "
			+ "client, in the timed phases: how a CONSTRUCT or DESCRIBE answer is counted. bytes (default): its body "
			+ "is read to the end unparsed and its "
			+ "bytes are its count, as the BSBM test driver does (it parses SELECT results only), so a longer answer "
			+ "costs the client no parse; statements: its statements are parsed and counted. The per-query lines "
			+ "give each query's mean count per answer with its unit. The rdf4j client counts statements")
	String graphCount;
	@Option(names = "--method", defaultValue = "get", description = "light client: get (default, the query "
			+ "percent-encoded in the URL) or post (an application/sparql-query body)")
	String method;
	@Option(names = "--transport", defaultValue = "socket", description = "light client: socket (default, the "
			+ "bench's own HTTP/1.1 client) or jdk (java.net.http in HTTP/1.1 mode)")
	String transport;
	@Option(names = "--client-warmup-mixes", defaultValue = "500", description = "light client: mixes sent to an "
			+ "endpoint inside the bench's own process, which answers at once with fixed answers, before any server is "
			+ "measured, then waits until the bench's own process is idle (at most a minute), so that less of the client's "
			+ "own JIT warm-up falls on the first endpoint's cold figures (default 500; 0: none)")
	int clientWarmupMixes;

	@Override
	public Integer call() {
		BsbmModel model = new BsbmModel(products, seed);
		BsbmParameters parameters = new BsbmParameters(model);
		boolean bi = mix.equals("bi");
		List<QueryTemplate> templates = bi ? BsbmBiQueries.ALL : BsbmQueries.ALL;
		BiFunction<Integer, SplittableRandom, Map<String, String>> draw = bi
				? (n, r) -> BsbmBiQueries.draw(model, n, r)
				: parameters::draw;
		List<Integer> queries = bi ? IntStream.rangeClosed(1, templates.size()).boxed().toList()
				: BsbmQueries.MIXES.get(mix);
		if (queries == null) {
			throw new CommandLine.ParameterException(new CommandLine(this), "--mix must be full, reduced or bi");
		}
		if (!only.isEmpty()) {
			Set<String> kept;
			try {
				kept = CountDifferences.queryNames(only, templates);
			} catch (IllegalArgumentException e) {
				throw new CommandLine.ParameterException(new CommandLine(this), "--only: " + e.getMessage());
			}
			queries = queries.stream().filter(n -> kept.contains(templates.get(n - 1).name())).toList();
			if (queries.isEmpty()) {
				throw new CommandLine.ParameterException(new CommandLine(this), "--only: none of " + only
						+ " is in the " + mix + " mix");
			}
		}
		Set<String> expectedDifferences;
		try {
			expectedDifferences = CountDifferences.queryNames(expectCountDifference, templates);
		} catch (IllegalArgumentException e) {
			throw new CommandLine.ParameterException(new CommandLine(this), "--expect-count-difference: " + e.getMessage());
		}
		Map<String, QueryForm> forms = new LinkedHashMap<>();
		templates.forEach(t -> forms.put(t.name(), t.form()));
		// the timed phases' clients, and the cross-check's, which count a graph answer's statements
		Map<String, Supplier<QueryClient>> clientsOf = new LinkedHashMap<>();
		Map<String, Supplier<QueryClient>> checkersOf = new LinkedHashMap<>();
		GraphCount timedCount = GraphCount.STATEMENTS;
		List<Repository> repositories = new ArrayList<>();
		if (client.equals("rdf4j")) {
			endpoints.forEach(e -> {
				Repository r = new SPARQLRepository(e);
				r.init();
				repositories.add(r);
				clientsOf.put(e, () -> QueryClient.of(r));
				checkersOf.put(e, () -> QueryClient.of(r));
			});
			System.out.println("client: rdf4j (SPARQLRepository), CONSTRUCT/DESCRIBE counted in statements");
		} else if (client.equals("light")) {
			if (!method.equals("get") && !method.equals("post")) {
				throw new CommandLine.ParameterException(new CommandLine(this), "--method must be get or post");
			}
			SparqlHttpClient.Options options;
			try {
				options = new SparqlHttpClient.Options(method.equals("post"), ResultFormat.named(resultFormat),
						SparqlHttpClient.Transport.named(transport), GraphFormat.named(graphFormat),
						GraphCount.named(graphCount));
			} catch (IllegalArgumentException e) {
				throw new CommandLine.ParameterException(new CommandLine(this), e.getMessage());
			}
			SparqlHttpClient.Options checking = options.with(GraphCount.STATEMENTS);
			endpoints.forEach(e -> {
				clientsOf.put(e, () -> new SparqlHttpClient(URI.create(e), options));
				checkersOf.put(e, () -> new SparqlHttpClient(URI.create(e), checking));
			});
			timedCount = options.graphCount();
			System.out.println("client: light, " + method.toUpperCase(Locale.ROOT) + ", " + resultFormat
					+ " results, " + graphFormat + " for CONSTRUCT/DESCRIBE counted in " + options.graphCount().unit
					+ " (cross-check: statements), " + transport + " transport");
			if (clientWarmupMixes > 0) {
				warmClient(new MixDriver(templates, queries, draw), options);
			}
		} else {
			throw new CommandLine.ParameterException(new CommandLine(this), "--client must be light or rdf4j");
		}
		int status = 0;
		try {
			MixDriver driver = new MixDriver(templates, queries, draw);
			GraphCount timed = timedCount;
			ColdWarmRun phases = new ColdWarmRun(driver, System.out::println, q -> timed.unitOf(forms.get(q)));
			List<ColdWarmRun.Outcome> outcomes = new ArrayList<>();
			for (Map.Entry<String, Supplier<QueryClient>> e : clientsOf.entrySet()) {
				int i = endpoints.indexOf(e.getKey());
				Long pid = serverPids == null || serverPids.size() <= i ? null : serverPids.get(i);
				outcomes.add(phases.run(e.getKey(), e.getValue(), pid, clients, coldMixes, warmupMixes, runs, seconds,
						seed));
			}
			Map<String, Map<String, Long>> counts = new LinkedHashMap<>();
			for (Map.Entry<String, Supplier<QueryClient>> e : checkersOf.entrySet()) {
				try (QueryClient c = e.getValue().get()) {
					BsbmCrossCheck.counts(c, templates, draw, seed, crossCheck).forEach((q, perSet) -> counts
							.computeIfAbsent(q, k -> new LinkedHashMap<>()).put(e.getKey(), Arrays.stream(perSet).sum()));
				}
			}
			CountDifferences.Verdict verdict = CountDifferences.judge(counts,
					q -> GraphCount.STATEMENTS.unitOf(forms.get(q)), expectedDifferences);
			verdict.lines().forEach(System.out::println);
			if (verdict.failed()) {
				status = 2;
			}
			System.out.println();
			System.out.printf(Locale.ROOT, "%d client(s), %s mix; cold: the first %d mixes, warm: after %d mixes%n",
					clients, mix, coldMixes, Math.max(coldMixes, warmupMixes));
			ColdWarmRun.table(outcomes).forEach(System.out::println);
		} finally {
			repositories.forEach(Repository::shutDown);
		}
		return status;
	}

	/**
	 * Runs {@link #clientWarmupMixes} mixes against an in-process endpoint ({@link ClientWarmup}), in batches of
	 * {@link #CLIENT_WARMUP_BATCH_MIXES} per client, each with new client threads and connections as every measured
	 * phase has, then waits until the bench's process is idle (its JIT's queue done; at most a minute).
	 */
	private void warmClient(MixDriver driver, SparqlHttpClient.Options options) {
		long self = ProcessHandle.current().pid();
		double cpuBefore = ProcessCpu.seconds(self);
		try (ClientWarmup endpoint = ClientWarmup.start()) {
			URI uri = endpoint.endpoint();
			// in batches, each on new threads and connections, as the measured phases run theirs
			long perClient = (clientWarmupMixes + clients - 1) / clients;
			long mixes = 0;
			long answered = 0;
			double seconds = 0;
			for (long done = 0, batch = 0; done < perClient; done += CLIENT_WARMUP_BATCH_MIXES, batch++) {
				MixResult m = driver.run(() -> new SparqlHttpClient(uri, options), clients,
						Math.min(CLIENT_WARMUP_BATCH_MIXES, perClient - done), Double.MAX_VALUE, seed + 99 + batch);
				mixes += m.mixes();
				answered += m.perQuery().values().stream().mapToLong(QueryStats::count).sum();
				seconds += m.elapsedSeconds();
			}
			System.out.printf(Locale.ROOT, "client warm-up: %d mixes against an in-process endpoint in %.1f s, "
					+ "client CPU %.3f ms/query%n", mixes, seconds,
					(ProcessCpu.seconds(self) - cpuBefore) * 1000 / Math.max(1, answered));
		}
		// the JIT compiles what the warm-up queued on its own threads, which a busy machine runs late: wait for them
		long start = System.nanoTime();
		double before = ProcessCpu.seconds(self);
		double idle = 0;
		while (System.nanoTime() - start < CLIENT_SETTLE_MAX_NANOS) {
			try {
				Thread.sleep(CLIENT_SETTLE_SAMPLE_MILLIS);
			} catch (InterruptedException e) {
				Thread.currentThread().interrupt();
				break;
			}
			double now = ProcessCpu.seconds(self);
			idle = now - before;
			before = now;
			if (idle < CLIENT_SETTLE_SAMPLE_MILLIS / 1000.0 * CLIENT_SETTLE_BUSY_SHARE) {
				break;
			}
		}
		System.out.printf(Locale.ROOT, "client settled after %.1f s (last %d ms: %.0f ms CPU)%n",
				(System.nanoTime() - start) / 1e9, CLIENT_SETTLE_SAMPLE_MILLIS, idle * 1000);
	}

	/** Mixes per client in each batch of the client's warm-up (each batch on new threads and connections). */
	private static final long CLIENT_WARMUP_BATCH_MIXES = 50;
	/** The client's settling after its warm-up: at most this long, in samples of this length, ... */
	private static final long CLIENT_SETTLE_MAX_NANOS = 60_000_000_000L;
	private static final int CLIENT_SETTLE_SAMPLE_MILLIS = 1000;
	/** ... until a sample's CPU is less than this share of one core. */
	private static final double CLIENT_SETTLE_BUSY_SHARE = 0.05;
}
