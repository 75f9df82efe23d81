package dev.basalt.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;


import dev.basalt.bench.analytic.AnalyticBench;
import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.coldstart.AotTrainCommand;
import dev.basalt.bench.coldstart.ColdStartCommand;
import dev.basalt.bench.compare.CompareCommand;
import dev.basalt.bench.compare.EvaluatorCrossCheck;
import dev.basalt.bench.compare.Settings;
import dev.basalt.bench.federation.FederationBench;
import dev.basalt.bench.geo.GeoBench;
import dev.basalt.bench.driver.http.BsbmHttpCommand;
import dev.basalt.bench.load.LoadCommand;
import dev.basalt.bench.lubm.LubmGenerator;
import dev.basalt.bench.ordering.NestedGroupBench;
import dev.basalt.bench.ordering.OrderingBench;
import dev.basalt.bench.rdf.TripleCounts;
import dev.basalt.bench.store.CommitLatencyCommand;
import dev.basalt.bench.store.DictionaryTiming;
import dev.basalt.bench.store.StoreSetup;
import dev.basalt.bench.store.StoreSetups;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The {@code basalt-bench.jar} command line. Progress goes to standard output.
 *
 * <p>Not thread-safe: picocli fills and runs its command objects on the main thread; the benchmarks start
 * their own client threads and processes.
 */
@Command(name = "basalt-bench", mixinStandardHelpOptions = true, subcommands = { CompareCommand.class, LoadCommand.class,
		BenchMain.GenerateBsbm.class, BenchMain.GenerateLubm.class, BsbmHttpCommand.class, BenchMain.LubmReasoning.class, BenchMain.LubmStoreQueries.class,
		BenchMain.Ordering.class, BenchMain.NestedGroups.class, BenchMain.Dictionary.class,
		BenchMain.Federation.class, BenchMain.CrossCheckEvaluators.class, BenchMain.BsbmStores.class, AnalyticBench.class,
		ColdStartCommand.class, AotTrainCommand.class, BenchMain.Geo.class, CommitLatencyCommand.class },
		description = "BSBM and LUBM on Basalt and its peers.")
public final class BenchMain implements Runnable {

	public static void main(String[] args) {
		System.exit(new CommandLine(new BenchMain()).execute(args));
	}

	@Override
	public void run() {
		new CommandLine(this).usage(System.out);
	}

	@Command(name = "generate-bsbm", mixinStandardHelpOptions = true,
			description = "Writes a BSBM dataset as N-Triples (gzip if the file name ends in .gz; --out - writes to "
					+ "standard output, e.g. to pipe it into 'basalt load --store DIR -').")
	static final class GenerateBsbm implements Callable<Integer> {
		@Option(names = "--products", required = true, description = "2785 ≈ 1M triples, 28480 ≈ 10M, 284826 ≈ 100M")
		int products;
		@Option(names = "--seed", defaultValue = "808")
		long seed;
		@Option(names = "--out", required = true)
		Path out;

		@Override
		public Integer call() {
			TripleCounts c = new BsbmGenerator(new BsbmModel(products, seed)).write(out);
			// with --out - the triples are on standard output: the summary goes to standard error
			(out.toString().equals("-") ? System.err : System.out).printf(Locale.ROOT, "%,d triples written to %s%n",
					c.total(), out);
			return 0;
		}
	}

	@Command(name = "generate-lubm", mixinStandardHelpOptions = true,
			description = "Writes LUBM(N, seed) as N-Triples (gzip if the file name ends in .gz; --out - writes to "
					+ "standard output, e.g. to pipe it into 'basalt load --store DIR univ-bench.owl -').")
	static final class GenerateLubm implements Callable<Integer> {
		@Option(names = "--universities", required = true)
		int universities;
		@Option(names = "--seed", defaultValue = "808")
		long seed;
		@Option(names = "--out", required = true)
		Path out;

		@Override
		public Integer call() {
			TripleCounts c = new LubmGenerator(universities, seed).write(out);
			// with --out - the triples are on standard output: the summary goes to standard error
			(out.toString().equals("-") ? System.err : System.out).printf(Locale.ROOT, "%,d triples written to %s%n",
					c.total(), out);
			return 0;
		}
	}

	@Command(name = "lubm-reasoning", mixinStandardHelpOptions = true,
			description = "LUBM load + closure and the 14 queries with RDF4J's SchemaCachingRDFSInferencer (over LmdbStore "
					+ "and Basalt) and with Basalt's native rdfs and owl-rl closure, side by side; prints markdown.")
	static final class LubmReasoning implements Callable<Integer> {
		@Option(names = "--universities", defaultValue = "1")
		int universities;
		@Option(names = "--seed", defaultValue = "808")
		long seed;
		@Option(names = "--setups", defaultValue = "lmdb-osp+schema-caching,basalt-rdfs,basalt-owl-rl,basalt-owl-rl-bulk",
				split = ",", description = "of lmdb-osp+schema-caching, basalt+schema-caching, basalt-rdfs, basalt-owl-rl, "
						+ "basalt-owl-rl-bulk (default: ${DEFAULT-VALUE})")
		List<String> setups;
		@Option(names = "--query-runs", defaultValue = "5", description = "measured runs per query (median reported); 0 skips the queries")
		int queryRuns;
		@Option(names = "--query-timeout", defaultValue = "120", description = "seconds before a query is reported as timed out")
		int queryTimeout;
		@Option(names = "--query-setups", split = ",", description = "setups whose queries run (default: all; the others "
				+ "are loaded and closed only)")
		List<String> querySetups;
		@Option(names = "--work-dir", defaultValue = "data/bench")
		Path workDir;
		@Option(names = "--lubm-ontology", defaultValue = "../shared/lubm/univ-bench.owl")
		Path ontology;

		@Override
		public Integer call() throws java.io.IOException {
			java.nio.file.Files.createDirectories(workDir);
			Path data = workDir.resolve("lubm-" + universities + "-" + seed + ".nt");
			TripleCounts c = new LubmGenerator(universities, seed).write(data);
			System.out.printf(Locale.ROOT, "LUBM(%d, %d): %,d triples%n", universities, seed, c.total());
			new dev.basalt.bench.lubm.ReasoningBench(data, ontology, workDir, queryRuns, System.out::println)
					.withQueryTimeoutSeconds(queryTimeout).withQuerySetups(querySetups).run(setups);
			return 0;
		}
	}

	@Command(name = "lubm-queries", mixinStandardHelpOptions = true,
			description = "The 14 LUBM queries on an existing Basalt store (e.g. loaded by 'basalt load --inference "
					+ "owl-rl'), opened with the same inference setting: per query one unmeasured run within the time "
					+ "limit, then the median wall and process CPU time of the measured runs, and the answer counts.")
	static final class LubmStoreQueries implements Callable<Integer> {
		@Option(names = "--store", required = true, description = "directory of a Basalt store")
		Path store;
		@Option(names = "--inference", defaultValue = "owl-rl", description = "none, rdfs or owl-rl: the store's "
				+ "setting (default: ${DEFAULT-VALUE})")
		String inference;
		@Option(names = "--runs", defaultValue = "3", description = "measured runs per query (default: ${DEFAULT-VALUE})")
		int runs;
		@Option(names = "--timeout", defaultValue = "300", description = "seconds before a query is reported as timed "
				+ "out (default: ${DEFAULT-VALUE})")
		int timeout;

		@Override
		public Integer call() {
			if (runs < 1) {
				throw new IllegalArgumentException("--runs must be at least 1");
			}
			dev.basalt.sail.config.BasaltStoreConfig config = new dev.basalt.sail.config.BasaltStoreConfig();
			config.setInference(dev.basalt.sail.config.InferenceMode.parse(inference));
			dev.basalt.sail.repository.BasaltRepository repo = new dev.basalt.sail.repository.BasaltRepository(
					new dev.basalt.sail.BasaltStore(store.toFile(), config));
			long t0 = System.nanoTime();
			repo.init();
			System.out.printf(Locale.ROOT, "store %s opened in %.1f s (load average %s)%n", store,
					(System.nanoTime() - t0) / 1e9, dev.basalt.bench.load.LoadComparison.loadAverage());
			try (org.eclipse.rdf4j.repository.RepositoryConnection c = repo.getConnection()) {
				dev.basalt.bench.lubm.LubmQueryTimes.run(c, runs, timeout, true, System.out::println);
			} finally {
				repo.shutDown();
			}
			System.out.printf(Locale.ROOT, "done (load average %s)%n", dev.basalt.bench.load.LoadComparison.loadAverage());
			return 0;
		}
	}

	@Command(name = "ordering", mixinStandardHelpOptions = true,
			description = "Times one query on Basalt with static and with runtime join ordering, on data where the "
					+ "static order is bad (see docs/benchmarks-ordering.md).")
	static final class Ordering implements Callable<Integer> {
		@Option(names = "--seeds", defaultValue = "2000")
		int seeds;
		@Option(names = "--fan-out", defaultValue = "100")
		int fanOut;
		@Option(names = "--closed", defaultValue = "5000")
		int closed;
		@Option(names = "--repeats", defaultValue = "21")
		int repeats;
		@Option(names = "--work-dir", defaultValue = "data/bench-ordering")
		Path workDir;

		@Override
		public Integer call() {
			OrderingBench.Timing[] t = new OrderingBench(seeds, fanOut, closed, repeats, System.out::println).run(workDir);
			for (OrderingBench.Timing x : t) {
				System.out.println("--- " + x.mode() + " plan:");
				System.out.println(x.plan());
			}
			System.out.printf(Locale.ROOT, "static/runtime median ratio: %.1f%n", t[0].medianMillis() / t[1].medianMillis());
			return 0;
		}
	}

	@Command(name = "nested-groups", mixinStandardHelpOptions = true,
			description = "Times UNION, BIND and filtered groups after a selective pattern on every store side by side "
					+ "(see docs/benchmarks-nested-groups.md).")
	static final class NestedGroups implements Callable<Integer> {
		@Option(names = "--subjects", defaultValue = "1000000", description = "subjects, two statements each")
		int subjects;
		@Option(names = "--repeats", defaultValue = "101", description = "measured runs per query and store "
				+ "(fewer if they take more than 10 s; a quarter of that as warm-up)")
		int repeats;
		@Option(names = "--stores", defaultValue = "basalt,native,lmdb,memory")
		String stores;
		@Option(names = "--work-dir", defaultValue = "data/bench-nested-groups")
		Path workDir;

		@Override
		public Integer call() {
			List<StoreSetup> setups = StoreSetups.parse(stores);
			setups.stream().filter(st -> !st.inProcess()).findFirst().ifPresent(st -> {
				throw new CommandLine.ParameterException(new CommandLine(this), st.id() + " is not a sail; nested-groups "
						+ "runs in-process stores only");
			});
			List<NestedGroupBench.Timing> t = new NestedGroupBench(subjects, repeats, System.out::println).run(setups,
					workDir);
			System.out.println();
			System.out.print(NestedGroupBench.table(t));
			return 0;
		}
	}

	@Command(name = "dictionary", mixinStandardHelpOptions = true,
			description = "Times the dictionary alone on the terms of an N-Triples file (docs/benchmarks-dictionary.md).")
	static final class Dictionary implements Callable<Integer> {
		@Option(names = "--file", required = true, description = "N-Triples file whose terms are resolved")
		Path file;
		@Option(names = "--rounds", defaultValue = "3", description = "rounds in this JVM; the first warms up")
		int rounds;
		@Option(names = "--work-dir", defaultValue = "data/bench-dictionary")
		Path workDir;

		@Override
		public Integer call() {
			DictionaryTiming.run(file, workDir, rounds, System.out::println);
			return 0;
		}
	}

	@Command(name = "bsbm-stores", mixinStandardHelpOptions = true,
			description = "The BSBM reduced mix in-process on several Basalt stores holding the same data (e.g. written "
					+ "by two versions), with this build's code, in alternating rounds of the same queries; checks "
					+ "that every query's result counts agree and prints QMpH ratios to the first store.")
	static final class BsbmStores implements Callable<Integer> {
		@Option(names = "--store", required = true, description = "directory of a Basalt store (repeat)")
		List<Path> stores;
		@Option(names = "--products", required = true, description = "product count the data was generated with")
		int products;
		@Option(names = "--seed", defaultValue = "808", description = "seed the data was generated with")
		long seed;
		@Option(names = "--warmup-mixes", defaultValue = "200")
		int warmupMixes;
		@Option(names = "--mixes", defaultValue = "200", description = "mixes per store and round")
		int mixes;
		@Option(names = "--rounds", defaultValue = "5")
		int rounds;
		@Option(names = "--clients", defaultValue = "1")
		int clients;
		@Option(names = "--inserts", defaultValue = "0", description = "then this many single-statement inserts, each "
				+ "committed, per store (they change the stores)")
		int inserts;

		@Override
		public Integer call() {
			dev.basalt.bench.compare.StoreLayouts.Outcome o = dev.basalt.bench.compare.StoreLayouts.run(stores, products,
					seed, warmupMixes, mixes, rounds, clients, inserts, System.out::println);
			System.out.println(o.countsAgree() ? "Result counts agree between the stores."
					: "RESULT COUNTS DIFFER between the stores");
			return o.countsAgree() ? 0 : 2;
		}
	}

	@Command(name = "geo", mixinStandardHelpOptions = true,
			description = "GeoSPARQL: random points in Basalt and LmdbStore; window and k-nearest queries on both, "
					+ "and the bytes of Basalt's spatial index per point.")
	static final class Geo implements Callable<Integer> {
		@Option(names = "--points", defaultValue = "1000000")
		int points;
		@Option(names = "--windows", defaultValue = "20", description = "window queries on Basalt")
		int windows;
		@Option(names = "--lmdb-windows", defaultValue = "3", description = "of those, run on LmdbStore too")
		int lmdbWindows;
		@Option(names = "--knn", defaultValue = "200", description = "k-nearest queries on Basalt")
		int knn;
		@Option(names = "--lmdb-knn", defaultValue = "2", description = "of those, run on LmdbStore too")
		int lmdbKnn;
		@Option(names = "--seed", defaultValue = "35")
		long seed;
		@Option(names = "--work-dir", defaultValue = "data/bench-geo")
		Path workDir;
		@Option(names = "--reuse", description = "keep the stores a run with the same --points and --seed loaded in --work-dir")
		boolean reuse;

		@Override
		public Integer call() throws Exception {
			GeoBench.run(new GeoBench.Settings(points, windows, lmdbWindows, knn, lmdbKnn, seed, workDir, reuse),
					System.out::println);
			return 0;
		}
	}

	@Command(name = "cross-check-evaluators", mixinStandardHelpOptions = true,
			description = "Runs the compare command's BSBM result cross-check on one loaded Basalt store twice, with "
					+ "Basalt's native engine and with RDF4J's evaluator (native evaluation off), and compares the "
					+ "answers (counts, and rows as multisets): a check of the engine where no second store holds the data.")
	static final class CrossCheckEvaluators implements Callable<Integer> {
		@Option(names = "--store", required = true, description = "directory of a Basalt store holding the BSBM data")
		Path store;
		@Option(names = "--products", required = true, description = "product count the data was generated with")
		int products;
		@Option(names = "--seed", defaultValue = "808", description = "seed the data was generated with")
		long seed;
		@Option(names = "--cross-check", defaultValue = "10", description = "parameter sets per query")
		int crossCheck;

		@Override
		public Integer call() {
			EvaluatorCrossCheck.Outcome o = EvaluatorCrossCheck.run(store, new BsbmParameters(new BsbmModel(products,
					seed)), seed, crossCheck, System.out::println);
			System.out.println(o.passed() ? "Result cross-check passed: both engines returned the same answers."
					: "RESULT CROSS-CHECK FAILED: counts differ for " + o.mismatches().size()
					+ " queries, answers for " + o.answerMismatches().size() + " parameter sets");
			return o.passed() ? 0 : 2;
		}
	}

	@Command(name = "federation", mixinStandardHelpOptions = true,
			description = "BSBM on N Basalt members behind the FedX front vs one Basalt server: load time, the 12 Explore "
					+ "queries compared as solution sets, reduced-mix QMpH (see docs/benchmarks-federation.md).")
	static final class Federation implements Callable<Integer> {
		@Option(names = "--data", required = true, description = "BSBM N-Triples file (e.g. from generate-bsbm --products 2785)")
		Path data;
		@Option(names = "--products", defaultValue = "2785", description = "product count the file was generated with")
		int products;
		@Option(names = "--seed", defaultValue = "808", description = "seed the file was generated with")
		long seed;
		@Option(names = "--shards", defaultValue = "3")
		int shards;
		@Option(names = "--work-dir", defaultValue = "data/bench-federation", description = "server data and logs")
		Path workDir;
		@Option(names = "--federation-jar", defaultValue = "federation/target/basalt-federation.jar")
		Path federationJar;
		@Option(names = "--server-jar", defaultValue = "workbench-config/target/basalt-server.jar")
		Path serverJar;
		@Option(names = "--member-heap", defaultValue = "1g")
		String memberHeap;
		@Option(names = "--single-heap", defaultValue = "2g")
		String singleHeap;
		@Option(names = "--parameter-sets", defaultValue = "10", description = "parameter sets per query in the cross-check")
		int parameterSets;
		@Option(names = "--warmup-mixes", defaultValue = "50")
		int warmupMixes;
		@Option(names = "--seconds", defaultValue = "30", description = "length of one measured run")
		double seconds;
		@Option(names = "--runs", defaultValue = "3", description = "measured runs, alternating one server and federation")
		int runs;
		@Option(names = "--front-options", defaultValue = "", description = "extra options of the front, e.g. "
				+ "'--bound-join-block-size 50'")
		String frontOptions;
		@Option(names = "--lubm-universities", defaultValue = "1", description = "LUBM universities added after the "
				+ "BSBM runs and compared on the 14 queries (0: skip)")
		int lubmUniversities;
		@Option(names = "--single-url", description = "attach: a running single server's repository URL (already "
				+ "loaded); with --front-url nothing is started or loaded")
		String singleUrl;
		@Option(names = "--front-url", description = "attach: a running front's SPARQL endpoint over loaded members")
		String frontUrl;
		@Option(names = "--single-pid", defaultValue = "0", description = "attach: the single server's process id (CPU)")
		long singlePid;
		@Option(names = "--front-pid", defaultValue = "0", description = "attach: the front's process id (CPU)")
		long frontPid;
		@Option(names = "--member-pids", split = ",", description = "attach: the members' process ids (CPU)")
		List<Long> memberPids = new java.util.ArrayList<>();
		@Option(names = "--profile", defaultValue = "0", description = "attach: parameter sets per query of a per-query"
				+ " profile (time, CPU of each process, member requests) after the runs; 0: none")
		int profile;

		@Override
		public Integer call() throws Exception {
			FederationBench.Options o = new FederationBench.Options(data, products, seed, shards, workDir.toAbsolutePath(),
					federationJar, serverJar, memberHeap, singleHeap, parameterSets, warmupMixes, seconds, runs, frontOptions,
					lubmUniversities);
			FederationBench bench = new FederationBench(o, System.out::println);
			FederationBench.Outcome outcome = frontUrl == null ? bench.run()
					: bench.runAttached(new FederationBench.Attached(singleUrl, frontUrl, singlePid, frontPid, memberPids,
							profile));
			String report = FederationBench.report(o, outcome) + (bench.profile().isEmpty() ? ""
					: "\n" + bench.profile());
			System.out.println(report);
			java.nio.file.Files.writeString(workDir.resolve("federation-report.md"), report);
			return outcome.mismatches() == 0 ? 0 : 2;
		}
	}
}
