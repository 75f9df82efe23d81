package dev.basalt.bench.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import org.eclipse.rdf4j.repository.Repository;

import dev.basalt.bench.bsbm.BsbmCrossCheck;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * The BSBM result cross-check of one loaded Basalt store against itself with another query engine:
 * the 12 Explore queries, with the parameter sets {@link BsbmCrossCheck} draws for the comparison,
 * run once on Basalt's native engine and once with native evaluation off (RDF4J's evaluator over
 * Basalt's statements, the engine LmdbStore's answers come from), and the result counts compared set
 * by set. It checks the native engine's answers at a scale where no second store can be loaded in
 * the time at hand; it does not check the load, which both runs share. The store is opened by one
 * run at a time, from the calling thread.
 */
public final class EvaluatorCrossCheck {

	/** Result counts per query and parameter set for each engine, and the queries whose counts differ. */
	public record Outcome(Map<String, long[]> nativeCounts, Map<String, long[]> rdf4jCounts, List<String> mismatches,
			double nativeSeconds, double rdf4jSeconds) {
		public boolean passed() {
			return mismatches.isEmpty();
		}
	}

	private EvaluatorCrossCheck() {
	}

	public static Outcome run(Path storeDir, BsbmParameters parameters, long seed, int instances,
			Consumer<String> progress) {
		long t0 = System.nanoTime();
		Map<String, long[]> nativeCounts = counts(storeDir, true, parameters, seed, instances);
		double nativeSeconds = (System.nanoTime() - t0) / 1e9;
		progress.accept(String.format(Locale.ROOT, "native engine: %.1f s", nativeSeconds));
		long t1 = System.nanoTime();
		Map<String, long[]> rdf4jCounts = counts(storeDir, false, parameters, seed, instances);
		double rdf4jSeconds = (System.nanoTime() - t1) / 1e9;
		progress.accept(String.format(Locale.ROOT, "RDF4J's evaluator: %.1f s", rdf4jSeconds));
		List<String> mismatches = new ArrayList<>();
		nativeCounts.forEach((query, counts) -> {
			long[] other = rdf4jCounts.get(query);
			String line = String.format(Locale.ROOT, "%s: native %s, RDF4J's evaluator %s", query,
					Arrays.toString(counts), Arrays.toString(other));
			progress.accept((Arrays.equals(counts, other) ? "  " : "  MISMATCH ") + line);
			if (!Arrays.equals(counts, other)) {
				mismatches.add(line);
			}
		});
		return new Outcome(nativeCounts, rdf4jCounts, mismatches, nativeSeconds, rdf4jSeconds);
	}

	private static Map<String, long[]> counts(Path storeDir, boolean nativeEvaluation, BsbmParameters parameters,
			long seed, int instances) {
		BasaltStoreConfig config = new BasaltStoreConfig();
		config.setNativeEvaluation(nativeEvaluation);
		Repository repo = new BasaltRepository(new BasaltStore(storeDir.toFile(), config));
		repo.init();
		try {
			return BsbmCrossCheck.counts(repo, parameters, seed, instances);
		} finally {
			repo.shutDown();
		}
	}
}
