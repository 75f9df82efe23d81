package dev.basalt.bench.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.rdf4j.repository.Repository;

import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.MixDriver;
import dev.basalt.bench.driver.MixResult;
import dev.basalt.bench.driver.QueryStats;
import dev.basalt.bench.store.CommitLatency;
import dev.basalt.bench.store.StoreSetups;

/**
 * The BSBM reduced mix on several Basalt stores that hold the same data in one JVM, with this
 * build's code: stores written by different Basalt versions or settings (on-disk layouts) are
 * compared with the same query code. Every store is opened, warmed up, then measured in rounds
 * that alternate the stores, each round running the same number of mixes with the same parameter
 * seed on every store, so the stores answer exactly the same queries; the result counts of each
 * query must agree between stores (a cross-check), and QMpH is given per round and as the median
 * ratio to the first store.
 *
 * <p>Runs on the calling thread (its clients on the driver's pool); one run per instance.
 */
public final class StoreLayouts {
	/**
	 * QMpH per store per round, and whether every query's result count agreed; made once, then only
	 * read (any thread may read it).
	 */
	public record Outcome(List<double[]> qmphByRound, boolean countsAgree) {
	}

	private StoreLayouts() {
	}

	public static Outcome run(List<Path> stores, int products, long seed, int warmupMixes, int mixes, int rounds,
			int clients, Consumer<String> out) {
		return run(stores, products, seed, warmupMixes, mixes, rounds, clients, 0, out);
	}

	/**
	 * {@link #run(List, int, long, int, int, int, int, Consumer)}, then {@code inserts} times on each
	 * store in turn one new statement added and committed in a transaction of its own (durable), and
	 * the median, 90th and 99th percentile of those commits per store.
	 */
	public static Outcome run(List<Path> stores, int products, long seed, int warmupMixes, int mixes, int rounds,
			int clients, int inserts, Consumer<String> out) {
		BsbmParameters parameters = new BsbmParameters(new BsbmModel(products, seed));
		MixDriver driver = new MixDriver(BsbmQueries.ALL, BsbmQueries.REDUCED_MIX, parameters::draw);
		List<org.eclipse.rdf4j.sail.Sail> sails = new ArrayList<>();
		List<Repository> repositories = new ArrayList<>();
		List<double[]> byRound = new ArrayList<>();
		boolean agree = true;
		try {
			for (Path dir : stores) {
				org.eclipse.rdf4j.sail.Sail sail = StoreSetups.BASALT.createSail(dir);
				Repository repository = StoreSetups.BASALT.repository(sail);
				repository.init();
				sails.add(sail);
				repositories.add(repository);
				long t0 = System.nanoTime();
				driver.run(repository, 1, warmupMixes, Double.MAX_VALUE, seed + 1);
				out.accept(String.format(Locale.ROOT, "%s: warmed up with %d mixes in %.1f s", dir, warmupMixes,
						(System.nanoTime() - t0) / 1e9));
			}
			for (int round = 0; round < rounds; round++) {
				double[] qmph = new double[stores.size()];
				Map<String, QueryStats> first = null;
				// alternate which store goes first, so neither always runs right after the other
				for (int k = 0; k < stores.size(); k++) {
					int i = (k + round) % stores.size();
					MixResult r = driver.run(repositories.get(i), clients, mixes, Double.MAX_VALUE, seed + 100 + round);
					qmph[i] = r.qmph();
					out.accept(String.format(Locale.ROOT, "round %d, %s: %d mixes in %.1f s, %,.0f QMpH", round + 1,
							stores.get(i), r.mixes(), r.elapsedSeconds(), r.qmph()));
					if (first == null) {
						first = r.perQuery();
					} else {
						for (Map.Entry<String, QueryStats> e : r.perQuery().entrySet()) {
							long expected = first.get(e.getKey()).results();
							if (expected != e.getValue().results()) {
								agree = false;
								out.accept("RESULT COUNTS DIFFER for " + e.getKey() + ": " + expected + " vs "
										+ e.getValue().results());
							}
						}
					}
				}
				byRound.add(qmph);
			}
			insertAndCommit(repositories, stores, inserts, out);
		} finally {
			for (Repository r : repositories) {
				r.shutDown();
			}
		}
		for (int i = 1; i < stores.size(); i++) {
			double[] ratios = new double[byRound.size()];
			for (int r = 0; r < ratios.length; r++) {
				ratios[r] = byRound.get(r)[i] / byRound.get(r)[0];
			}
			java.util.Arrays.sort(ratios);
			out.accept(String.format(Locale.ROOT, "%s / %s: median QMpH ratio %.3f (range %.3f-%.3f over %d rounds)",
					stores.get(i), stores.get(0), ratios[ratios.length / 2], ratios[0], ratios[ratios.length - 1],
					ratios.length));
		}
		return new Outcome(byRound, agree);
	}

	private static void insertAndCommit(List<Repository> repositories, List<Path> stores, int inserts,
			Consumer<String> out) {
		if (inserts <= 0) {
			return;
		}
		String run = Long.toString(System.currentTimeMillis(), 36);
		long[][] nanos = new long[stores.size()][inserts];
		for (int n = 0; n < inserts; n++) {
			for (int i = 0; i < stores.size(); i++) {
				nanos[i][n] = CommitLatency.commitOne(repositories.get(i), run, n);
			}
		}
		for (int i = 0; i < stores.size(); i++) {
			out.accept(stores.get(i) + ": single-statement inserts, each committed, "
					+ CommitLatency.summarize(nanos[i]).describe());
		}
	}
}
