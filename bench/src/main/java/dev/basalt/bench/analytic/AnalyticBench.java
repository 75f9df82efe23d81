package dev.basalt.bench.analytic;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;

import dev.basalt.bench.bsbm.BsbmBiQueries;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.driver.QueryTemplate;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Large analytic queries over BSBM data in-process: a COUNT over a four-pattern join of all offers,
 * a GROUP BY vendor country over all offers (average price), a COUNT of the offer and review pairs
 * of every product and a GROUP BY producer country over all reviews (average rating), each timed on one Basalt store as the cost model plans it
 * and with the join hint forcing merge, hash and group joins ({@code hash-merge}) or index nested loops, in the
 * same run, the three taking turns run by run; joined rows per CPU second are the join's row count (counted once)
 * over the median CPU time of the query's thread (with no helper threads by default, so that it is the query's
 * CPU time). The answers of every plan are compared with
 * RDF4J's evaluator over the same store (native evaluation off). Runs from the calling thread; the
 * store is opened by one phase at a time.
 *
 * <p>Other modes, on the same store: {@code --bi N} runs the 8 BSBM Business Intelligence queries
 * ({@link BsbmBiQueries}) with N parameter sets each and compares their result counts (which decide
 * the exit status) and rows with RDF4J's evaluator; {@code --explore-plans N} prints and {@code --explore-times N} times the 12 Explore
 * queries, to compare the plans and times of two builds ({@link ExploreRuns}).
 *
 * <p>It has a {@code main} of its own so that it can run over an older engine's classes (put that
 * build's jar first on the class path): the hint variants then fail and are reported as such.
 */
@Command(name = "analytic", mixinStandardHelpOptions = true,
		description = "Times large COUNT and GROUP BY joins over BSBM data on one Basalt store, as planned and with "
				+ "nested loops forced, and checks the answers against RDF4J's evaluator; or the BSBM Business "
				+ "Intelligence queries (--bi), or the Explore queries' plans and times (docs/benchmarks-analytic.md).")
public final class AnalyticBench implements Callable<Integer> {
	static final String PREFIXES = "PREFIX bsbm: <http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/> "
			+ "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#> ";
	/** The threads whose CPU time the runs measure (the calling one). */
	static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
	static final String NESTED_LOOPS = "[] <http://basalt.dev/hint#joins> \"nested-loop\" . ";
	static final String HASH_MERGE = "[] <http://basalt.dev/hint#joins> \"hash-merge\" . ";

	/** A query, and the COUNT query of its join (the rows the join makes). */
	record Query(String name, String text, String joinCount) {
		String hinted(String hint) {
			int brace = text.indexOf('{');
			return text.substring(0, brace + 1) + " " + hint + text.substring(brace + 1);
		}
	}

	static final List<Query> QUERIES = List.of(
			new Query("count4", PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?offer bsbm:product ?product . "
					+ "?product bsbm:producer ?producer . ?offer bsbm:vendor ?vendor . ?vendor bsbm:country ?country }",
					null),
			new Query("avgByCountry", PREFIXES + "SELECT ?country (AVG(xsd:decimal(str(?price))) AS ?avg) WHERE { "
					+ "?offer bsbm:vendor ?v . ?v bsbm:country ?country . ?offer bsbm:price ?price } GROUP BY ?country",
					PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?offer bsbm:vendor ?v . ?v bsbm:country ?country . "
							+ "?offer bsbm:price ?price }"),
			new Query("offersXreviews", PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?offer bsbm:product ?product . "
					+ "?review bsbm:reviewFor ?product }", null),
			new Query("reviewsPerProduct", PREFIXES + "SELECT ?product (COUNT(*) AS ?n) WHERE { ?offer bsbm:product "
					+ "?product . ?review bsbm:reviewFor ?product } GROUP BY ?product",
					PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?offer bsbm:product ?product . "
							+ "?review bsbm:reviewFor ?product }"),
			new Query("avgRating", PREFIXES + "SELECT ?country (AVG(?rating) AS ?avg) WHERE { ?review bsbm:reviewFor "
					+ "?product . ?product bsbm:producer ?producer . ?producer bsbm:country ?country . ?review "
					+ "bsbm:rating1 ?rating } GROUP BY ?country",
					PREFIXES + "SELECT (COUNT(*) AS ?n) WHERE { ?review bsbm:reviewFor ?product . ?product bsbm:producer "
							+ "?producer . ?producer bsbm:country ?country . ?review bsbm:rating1 ?rating }"));

	@Option(names = "--data", description = "BSBM N-Triples file, loaded when the store directory is empty")
	Path data;
	@Option(names = "--store", required = true, description = "Basalt store directory")
	Path store;
	@Option(names = "--runs", defaultValue = "9", description = "measured runs per query and plan")
	int runs;
	@Option(names = "--warmup", defaultValue = "3", description = "warm-up runs per query and plan")
	int warmup;
	@Option(names = "--helper-threads", defaultValue = "0", description = "helper threads a query may use (default 0: "
			+ "the query's own thread does all the work, so its CPU time is the query's)")
	int helperThreads;
	@Option(names = "--explain", description = "print each plan's EXPLAIN (executed)")
	boolean explain;
	@Option(names = "--no-check", description = "skip the comparison with RDF4J's evaluator")
	boolean noCheck;
	@Option(names = "--explore-plans", description = "instead of timing, print the plans (estimates, not run) of "
			+ "the 12 Explore queries for this many parameter sets each (BSBM cross-check sets), to compare builds")
	int explorePlans;
	@Option(names = "--explore-times", description = "instead of the analytic queries, time the 12 Explore queries "
			+ "with this many parameter sets each (BSBM cross-check sets; --runs rounds after --warmup rounds)")
	int exploreTimes;
	@Option(names = "--explore-queries", split = ",", description = "with --explore-times, only these Explore "
			+ "queries (Q1 ... Q12), e.g. all but Q5 and Q6 so that short queries take most of a long warm-up")
	Set<String> onlyExplore;
	@Option(names = "--bi", description = "instead of the analytic queries, run the 8 BSBM Business Intelligence "
			+ "queries with this many parameter sets each: times (--runs rounds after --warmup rounds) and result "
			+ "counts, compared set by set with RDF4J's evaluator (the rows too, reported beside the counts)")
	int bi;
	@Option(names = "--products", defaultValue = "2785", description = "product count the data was generated with")
	int products;
	@Option(names = "--seed", defaultValue = "808", description = "seed the data was generated with")
	long seed;
	@Option(names = "--bi-queries", split = ",", description = "with --bi, only these templates (BI1 ... BI8)")
	List<String> onlyBi;
	@Option(names = "--query", split = ",", description = "run only the analytic queries of these names (count4, avgByCountry, "
			+ "offersXreviews, reviewsPerProduct, avgRating; comma-separated), e.g. to profile one")
	List<String> only;
	@Option(names = "--plans", split = ",", description = "run only these plans (planned, hash-merge, "
			+ "nested-loop: the joins hint forcing merge and hash joins and group joins, or index nested loops; "
			+ "comma-separated); with --bi, one of hash-merge or nested-loop runs the BI queries with that hint")
	List<String> onlyPlans;
	@Option(names = "--lmdb", description = "also time the queries on RDF4J's LmdbStore in this directory (loaded from "
			+ "--data when empty, default indexes), after Basalt's runs, and compare its answers with Basalt's")
	Path lmdb;

	public static void main(String[] args) {
		System.exit(new CommandLine(new AnalyticBench()).execute(args));
	}

	@Override
	public Integer call() {
		if (bi > 0) {
			return runBi();
		}
		if (explorePlans > 0 || exploreTimes > 0) {
			Repository repo = open(true);
			try {
				ExploreRuns explore = new ExploreRuns(repo, new BsbmParameters(new BsbmModel(products, seed)), seed);
				if (explorePlans > 0) {
					explore.printPlans(explorePlans);
				} else {
					explore.time(exploreTimes, onlyExplore, warmup, runs);
				}
			} finally {
				repo.shutDown();
			}
			return 0;
		}
		Map<String, List<String>> answers = new LinkedHashMap<>();
		Repository repo = open(true);
		try {
			load(repo);
			for (Query q : selected()) {
				long joined = count(repo, q.joinCount() != null ? q.joinCount() : q.text());
				List<String> variants = List.of(q.text(), q.hinted(HASH_MERGE), q.hinted(NESTED_LOOPS));
				List<String> names = List.of("planned", "hash-merge", "nested-loop");
				List<double[][]> timings = new ArrayList<>();
				for (int v = 0; v < variants.size(); v++) {
					if (onlyPlans != null && !onlyPlans.contains(names.get(v))) {
						timings.add(null);
						continue;
					}
					try {
						answers.put(q.name() + " " + names.get(v), rows(repo, variants.get(v)));
						timings.add(new double[2][runs]);
					} catch (RuntimeException e) {
						System.out.printf(Locale.ROOT, "%-13s %-11s failed: %s%n", q.name(), names.get(v), e.getMessage());
						timings.add(null);
					}
				}
				// the variants take turns, so that both see the same load on a shared machine
				for (int i = -warmup; i < runs; i++) {
					for (int v = 0; v < variants.size(); v++) {
						if (timings.get(v) != null) {
							double[] t = time(repo, variants.get(v));
							if (i >= 0) {
								timings.get(v)[0][i] = t[0];
								timings.get(v)[1][i] = t[1];
							}
						}
					}
				}
				for (int v = 0; v < variants.size(); v++) {
					if (timings.get(v) == null) {
						continue;
					}
					double[] wall = timings.get(v)[0];
					double[] cpu = timings.get(v)[1];
					Arrays.sort(wall);
					Arrays.sort(cpu);
					System.out.printf(Locale.ROOT, "%-13s %-11s wall median %8.1f ms min %8.1f ms | query thread CPU median "
							+ "%8.1f ms min %8.1f ms | %,d joined rows, %,.0f joined rows per CPU second (median)%n",
							q.name(), names.get(v), wall[runs / 2], wall[0], cpu[runs / 2], cpu[0], joined,
							joined / (cpu[runs / 2] / 1e3));
					if (explain) {
						System.out.println(explain(repo, variants.get(v)));
					}
				}
			}
		} finally {
			repo.shutDown();
		}
		boolean peerOk = lmdb == null || timeLmdb(answers);
		if (noCheck) {
			return peerOk ? 0 : 2;
		}
		Repository rdf4j = open(false);
		boolean ok = true;
		try {
			for (Query q : selected()) {
				List<String> expected = rows(rdf4j, q.text());
				for (var e : answers.entrySet()) {
					if (e.getKey().startsWith(q.name() + " ")) {
						boolean same = expected.equals(e.getValue());
						ok &= same;
						System.out.printf(Locale.ROOT, "%-25s %s RDF4J's evaluator (%d rows)%n", e.getKey(),
								same ? "equals" : "DIFFERS FROM", expected.size());
					}
				}
			}
		} finally {
			rdf4j.shutDown();
		}
		return ok && peerOk ? 0 : 2;
	}

	/**
	 * Times the selected queries (their plain text: LmdbStore has no hints) on an LmdbStore peer, as
	 * Basalt's are timed, and compares its answers with Basalt's planned ones; false if any differs.
	 */
	private boolean timeLmdb(Map<String, List<String>> answers) {
		Repository peer = new org.eclipse.rdf4j.repository.sail.SailRepository(
				dev.basalt.bench.store.StoreSetups.LMDB.createSail(lmdb));
		peer.init();
		boolean ok = true;
		try {
			load(peer);
			for (Query q : selected()) {
				List<String> answer = rows(peer, q.text());
				List<String> basalt = answers.get(q.name() + " planned");
				boolean same = basalt == null || basalt.equals(answer);
				ok &= same;
				double[] wall = new double[runs];
				double[] cpu = new double[runs];
				for (int i = -warmup; i < runs; i++) {
					double[] t = time(peer, q.text());
					if (i >= 0) {
						wall[i] = t[0];
						cpu[i] = t[1];
					}
				}
				Arrays.sort(wall);
				Arrays.sort(cpu);
				System.out.printf(Locale.ROOT, "%-13s %-11s wall median %8.1f ms min %8.1f ms | query thread CPU median "
						+ "%8.1f ms min %8.1f ms | %d rows, %s Basalt's%n", q.name(), "lmdb", wall[runs / 2], wall[0],
						cpu[runs / 2], cpu[0], answer.size(), basalt == null ? "not compared with" : same ? "equal to" : "DIFFERENT FROM");
			}
		} finally {
			peer.shutDown();
		}
		return ok;
	}

	private List<Query> selected() {
		return QUERIES.stream().filter(q -> only == null || only.contains(q.name())).toList();
	}

	private Repository open(boolean nativeEvaluation) {
		BasaltStoreConfig config = new BasaltStoreConfig();
		config.setNativeEvaluation(nativeEvaluation);
		config.setHelperThreads(helperThreads);
		Repository repo = new BasaltRepository(new BasaltStore(store.toFile(), config));
		repo.init();
		return repo;
	}

	private void load(Repository repo) {
		try (RepositoryConnection c = repo.getConnection()) {
			if (!c.isEmpty()) {
				return;
			}
			if (data == null) {
				throw new CommandLine.ParameterException(new CommandLine(this), "the store " + store
						+ " is empty: give --data to load it");
			}
			long t0 = System.nanoTime();
			c.begin();
			c.add(data.toFile(), RDFFormat.NTRIPLES);
			c.commit();
			System.out.printf(Locale.ROOT, "loaded %s in %.1f s%n", data, (System.nanoTime() - t0) / 1e9);
		} catch (IOException e) {
			throw new UncheckedIOException("cannot read " + data, e);
		}
	}

	/** Wall and query thread CPU milliseconds of one run. */
	private static double[] time(Repository repo, String text) {
		long cpu0 = THREADS.getCurrentThreadCpuTime();
		long t0 = System.nanoTime();
		rows(repo, text);
		return new double[] { (System.nanoTime() - t0) / 1e6, (THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6 };
	}

	private static long count(Repository repo, String countQuery) {
		List<String> r = rows(repo, countQuery);
		String n = r.get(0);
		return Long.parseLong(n.substring(n.indexOf('"') + 1, n.indexOf('"', n.indexOf('"') + 1)));
	}

	/** The answer as sorted canonical rows. */
	static List<String> rows(Repository repo, String text) {
		List<String> out = new ArrayList<>();
		try (RepositoryConnection c = repo.getConnection();
				TupleQueryResult r = c.prepareTupleQuery(text).evaluate()) {
			for (BindingSet b : r) {
				List<String> cells = new ArrayList<>();
				b.forEach(x -> cells.add(x.getName() + "=" + x.getValue()));
				Collections.sort(cells);
				out.add(String.join(" ", cells));
			}
		}
		Collections.sort(out);
		return out;
	}

	/** The BI queries: per template, the CPU and wall time per query and the counts of both engines. */
	/**
	 * A BI query with the joins hint of {@code --plans} when it names one plan other than {@code planned}
	 * (the hint goes into the outer WHERE group and applies to the whole query), else as it is.
	 */
	private String biHinted(String query) {
		if (onlyPlans == null || onlyPlans.size() != 1 || onlyPlans.contains("planned")) {
			return query;
		}
		String hint = onlyPlans.contains("hash-merge") ? HASH_MERGE : NESTED_LOOPS;
		int where = query.indexOf('{', query.indexOf("WHERE"));
		return query.substring(0, where + 1) + " " + hint + query.substring(where + 1);
	}

	private int runBi() {
		BsbmModel model = new BsbmModel(products, seed);
		Map<String, String[]> sets = new LinkedHashMap<>();
		for (QueryTemplate t : BsbmBiQueries.ALL) {
			if (onlyBi != null && !onlyBi.contains(t.name())) {
				continue;
			}
			SplittableRandom r = new SplittableRandom(seed * 31 + 100 + Integer.parseInt(t.name().substring(2)));
			String[] queries = new String[bi];
			for (int i = 0; i < bi; i++) {
				queries[i] = biHinted(t.instantiate(BsbmBiQueries.draw(model, Integer.parseInt(t.name().substring(2)), r)));
			}
			sets.put(t.name(), queries);
		}
		Map<String, long[]> nativeCounts = new LinkedHashMap<>();
		Map<String, List<List<String>>> nativeRows = new LinkedHashMap<>();
		Repository repo = open(true);
		try {
			load(repo);
			for (var e : sets.entrySet()) {
				long[] counts = new long[bi];
				List<List<String>> answers = new ArrayList<>();
				for (int i = 0; i < bi; i++) {
					answers.add(rows(repo, e.getValue()[i]));
					counts[i] = answers.get(i).size();
				}
				nativeCounts.put(e.getKey(), counts);
				nativeRows.put(e.getKey(), answers);
				double[] wall = new double[runs];
				double[] cpu = new double[runs];
				for (int round = -warmup; round < runs; round++) {
					for (String q : e.getValue()) {
						double[] t = time(repo, q);
						if (round >= 0) {
							wall[round] += t[0] / bi;
							cpu[round] += t[1] / bi;
						}
					}
				}
				Arrays.sort(wall);
				Arrays.sort(cpu);
				System.out.printf(Locale.ROOT, "%-4s wall median %8.1f ms min %8.1f ms | CPU median %8.1f ms min %8.1f ms "
						+ "| rows %s%n", e.getKey(), wall[runs / 2], wall[0], cpu[runs / 2], cpu[0], Arrays.toString(counts));
				if (explain) {
					for (String q : e.getValue()) {
						System.out.println(explain(repo, q));
					}
				}
			}
		} finally {
			repo.shutDown();
		}
		if (noCheck) {
			return 0;
		}
		boolean ok = true;
		Repository rdf4j = open(false);
		try {
			for (var e : sets.entrySet()) {
				long[] counts = new long[bi];
				List<List<String>> answers = new ArrayList<>();
				long t0 = System.nanoTime();
				for (int i = 0; i < bi; i++) {
					answers.add(rows(rdf4j, e.getValue()[i]));
					counts[i] = answers.get(i).size();
				}
				double ms = (System.nanoTime() - t0) / 1e6 / bi;
				boolean same = Arrays.equals(counts, nativeCounts.get(e.getKey()));
				ok &= same;
				// the counts decide the exit status; the rows (values as written, sorted) are reported beside them
				boolean sameRows = answers.equals(nativeRows.get(e.getKey()));
				System.out.printf(Locale.ROOT, "%-4s RDF4J's evaluator %s %s, rows %s (%.1f ms per query)%n", e.getKey(),
						Arrays.toString(counts), same ? "equal" : "DIFFER", sameRows ? "equal" : "differ", ms);
			}
		} finally {
			rdf4j.shutDown();
		}
		return ok ? 0 : 2;
	}

	private static String explain(Repository repo, String text) {
		try (RepositoryConnection c = repo.getConnection()) {
			TupleQuery q = c.prepareTupleQuery(text);
			return q.explain(Explanation.Level.Timed).toString();
		}
	}
}
