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
import org.eclipse.rdf4j.repository.RepositoryConnection;

import dev.basalt.bench.bsbm.BsbmCrossCheck;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.QueryTemplate;
import dev.basalt.sail.BasaltStore;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.repository.BasaltRepository;

/**
 * The BSBM result cross-check of one loaded Basalt store against itself with another query engine:
 * the 12 Explore queries, with the parameter sets {@link BsbmCrossCheck} draws for the comparison,
 * run once on Basalt's native engine and once with native evaluation off (RDF4J's evaluator over
 * Basalt's statements, the engine LmdbStore's answers come from), and the answers compared set by
 * set: their counts, and the answers themselves as multisets of canonical rows (a solution's
 * bindings as {@code var=term} in variable order, a statement's N-Triples form, an ASK answer). It
 * checks the native engine's answers at a scale where no second store can be loaded in the time at
 * hand; it does not check the load, which both runs share. The store is opened by one run at a
 * time, from the calling thread.
 *
 * <p>Thread rules: static functions; a run uses the store from the calling thread only.
 */
public final class EvaluatorCrossCheck {

	/**
	 * Result counts per query and parameter set for each engine, the queries whose counts differ,
	 * and the parameter sets whose answers differ though their counts may not (each line with the
	 * first row that differs).
	 */
	public record Outcome(Map<String, long[]> nativeCounts, Map<String, long[]> rdf4jCounts, List<String> mismatches,
			List<String> answerMismatches, double nativeSeconds, double rdf4jSeconds) {
		public boolean passed() {
			return mismatches.isEmpty() && answerMismatches.isEmpty();
		}
	}

	private EvaluatorCrossCheck() {
	}

	public static Outcome run(Path storeDir, BsbmParameters parameters, long seed, int instances,
			Consumer<String> progress) {
		long t0 = System.nanoTime();
		Map<String, List<List<String>>> nativeAnswers = answers(storeDir, true, parameters, seed, instances);
		double nativeSeconds = (System.nanoTime() - t0) / 1e9;
		progress.accept(String.format(Locale.ROOT, "native engine: %.1f s", nativeSeconds));
		long t1 = System.nanoTime();
		Map<String, List<List<String>>> rdf4jAnswers = answers(storeDir, false, parameters, seed, instances);
		double rdf4jSeconds = (System.nanoTime() - t1) / 1e9;
		progress.accept(String.format(Locale.ROOT, "RDF4J's evaluator: %.1f s", rdf4jSeconds));
		Map<String, long[]> nativeCounts = counts(nativeAnswers);
		Map<String, long[]> rdf4jCounts = counts(rdf4jAnswers);
		List<String> mismatches = new ArrayList<>();
		List<String> answerMismatches = new ArrayList<>();
		nativeCounts.forEach((query, counts) -> {
			long[] other = rdf4jCounts.get(query);
			String line = String.format(Locale.ROOT, "%s: native %s, RDF4J's evaluator %s", query,
					Arrays.toString(counts), Arrays.toString(other));
			progress.accept((Arrays.equals(counts, other) ? "  " : "  MISMATCH ") + line);
			if (!Arrays.equals(counts, other)) {
				mismatches.add(line);
			}
			List<List<String>> a = nativeAnswers.get(query);
			List<List<String>> b = rdf4jAnswers.get(query);
			int equal = 0;
			for (int i = 0; i < a.size(); i++) {
				if (a.get(i).equals(b.get(i))) {
					equal++;
				} else {
					String difference = String.format(Locale.ROOT, "%s, parameter set %d: answers differ; %s", query,
							i + 1, firstDifference(a.get(i), b.get(i)));
					progress.accept("  ANSWERS DIFFER " + difference);
					answerMismatches.add(difference);
				}
			}
			progress.accept(String.format(Locale.ROOT, "  %s: %d of %d answers equal as multisets of rows", query,
					equal, a.size()));
		});
		return new Outcome(nativeCounts, rdf4jCounts, mismatches, answerMismatches, nativeSeconds, rdf4jSeconds);
	}

	private static Map<String, long[]> counts(Map<String, List<List<String>>> answers) {
		Map<String, long[]> out = new LinkedHashMap<>();
		answers.forEach((query, sets) -> out.put(query, sets.stream().mapToLong(List::size).toArray()));
		return out;
	}

	/** The first row present in one sorted answer and not at the same place in the other. */
	static String firstDifference(List<String> nativeRows, List<String> rdf4jRows) {
		for (int i = 0; i < Math.max(nativeRows.size(), rdf4jRows.size()); i++) {
			String a = i < nativeRows.size() ? nativeRows.get(i) : "(none)";
			String b = i < rdf4jRows.size() ? rdf4jRows.get(i) : "(none)";
			if (!a.equals(b)) {
				return "row " + (i + 1) + ": native " + a + " / RDF4J's evaluator " + b;
			}
		}
		return "(none)";
	}

	/** Query name, then each parameter set's answer as sorted canonical rows. */
	private static Map<String, List<List<String>>> answers(Path storeDir, boolean nativeEvaluation,
			BsbmParameters parameters, long seed, int instances) {
		BasaltStoreConfig config = new BasaltStoreConfig();
		config.setNativeEvaluation(nativeEvaluation);
		Repository repo = new BasaltRepository(new BasaltStore(storeDir.toFile(), config));
		repo.init();
		try (RepositoryConnection conn = repo.getConnection()) {
			Map<String, List<List<String>>> out = new LinkedHashMap<>();
			for (QueryTemplate t : BsbmQueries.ALL) {
				List<List<String>> sets = new ArrayList<>();
				for (String query : BsbmCrossCheck.instances(t, parameters, seed, instances)) {
					sets.add(AnswerRows.of(conn, query));
				}
				out.put(t.name(), sets);
			}
			return out;
		} finally {
			repo.shutDown();
		}
	}
}
