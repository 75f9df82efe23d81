package dev.basalt.bench.analytic;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.eclipse.rdf4j.query.BooleanQuery;
import org.eclipse.rdf4j.query.GraphQuery;
import org.eclipse.rdf4j.query.TupleQuery;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.explanation.Explanation;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;

import dev.basalt.bench.bsbm.BsbmCrossCheck;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.QueryTemplate;

/**
 * The 12 BSBM Explore queries on one store, to compare two builds of the engine on the same data: their
 * optimized plans ({@link #printPlans}: estimates, nothing run) or their times ({@link #time}: wall and
 * CPU time of the calling thread, each query's parameter sets run in turn per round, every query in each
 * round). The parameter sets are the BSBM cross-check's ({@link BsbmCrossCheck#instances}), so two runs
 * with the same seed run the same queries. Output goes to standard output ({@code --explore-plans} and
 * {@code --explore-times} of {@link AnalyticBench}).
 *
 * <p>Not thread-safe: runs on the calling thread, whose CPU time it measures.
 */
final class ExploreRuns {
	private final Repository repo;
	private final BsbmParameters parameters;
	private final long seed;

	ExploreRuns(Repository repo, BsbmParameters parameters, long seed) {
		this.repo = repo;
		this.parameters = parameters;
		this.seed = seed;
	}

	/** Prints the optimized plan (estimates, not run) of {@code sets} parameter sets of each query. */
	void printPlans(int sets) {
		for (QueryTemplate t : BsbmQueries.ALL) {
			String[] queries = BsbmCrossCheck.instances(t, parameters, seed, sets);
			for (int i = 0; i < queries.length; i++) {
				try (RepositoryConnection c = repo.getConnection()) {
					System.out.println("=== " + t.name() + " set " + i);
					System.out.println(c.prepareQuery(queries[i]).explain(Explanation.Level.Optimized));
				}
			}
		}
	}

	/**
	 * Prints per query (only those named in {@code only}, all when null): the median over {@code runs} rounds,
	 * after {@code warmup} rounds, of the mean wall and CPU milliseconds of its {@code setsPerQuery} parameter sets.
	 */
	void time(int setsPerQuery, Set<String> only, int warmup, int runs) {
		Map<QueryTemplate, String[]> sets = new LinkedHashMap<>();
		for (QueryTemplate t : BsbmQueries.ALL) {
			if (only == null || only.contains(t.name())) {
				sets.put(t, BsbmCrossCheck.instances(t, parameters, seed, setsPerQuery));
			}
		}
		Map<QueryTemplate, double[][]> times = new LinkedHashMap<>();
		sets.keySet().forEach(t -> times.put(t, new double[2][runs]));
		for (int round = -warmup; round < runs; round++) {
			for (var e : sets.entrySet()) {
				double wall = 0;
				double cpu = 0;
				for (String q : e.getValue()) {
					long cpu0 = AnalyticBench.THREADS.getCurrentThreadCpuTime();
					long t0 = System.nanoTime();
					try (RepositoryConnection c = repo.getConnection()) {
						consume(c, q);
					}
					wall += (System.nanoTime() - t0) / 1e6;
					cpu += (AnalyticBench.THREADS.getCurrentThreadCpuTime() - cpu0) / 1e6;
				}
				if (round >= 0) {
					times.get(e.getKey())[0][round] = wall / e.getValue().length;
					times.get(e.getKey())[1][round] = cpu / e.getValue().length;
				}
			}
		}
		for (var e : times.entrySet()) {
			double[] wall = e.getValue()[0];
			double[] cpu = e.getValue()[1];
			Arrays.sort(wall);
			Arrays.sort(cpu);
			System.out.printf(Locale.ROOT, "%-4s wall median %7.3f ms min %7.3f ms | CPU median %7.3f ms min %7.3f ms%n",
					e.getKey().name(), wall[runs / 2], wall[0], cpu[runs / 2], cpu[0]);
		}
	}

	private static void consume(RepositoryConnection c, String query) {
		var q = c.prepareQuery(query);
		if (q instanceof TupleQuery t) {
			try (TupleQueryResult r = t.evaluate()) {
				r.forEach(b -> { });
			}
		} else if (q instanceof GraphQuery g) {
			try (var r = g.evaluate()) {
				r.forEach(st -> { });
			}
		} else {
			((BooleanQuery) q).evaluate();
		}
	}
}
