package dev.basalt.bench.compare;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.basalt.bench.driver.MixResult;
import dev.basalt.bench.rdf.TripleCounts;
import dev.basalt.bench.store.StoreSetup;

/**
 * Everything one comparison run measured, in the shape the report needs.
 *
 * <p>Not thread-safe: filled by the comparison's one thread and then read by the report writer on the same
 * thread; the mixes' client threads never see it.
 */
public final class Results {

	/** Loading one dataset into one store. */
	public record Load(long triples, double seconds, long bytesOnDisk, long peakHeapBytes, long retainedHeapBytes) {
		public double triplesPerSecond() {
			return seconds <= 0 ? 0 : triples / seconds;
		}

		public double bytesPerTriple() {
			return triples == 0 ? 0 : (double) bytesOnDisk / triples;
		}
	}

	/**
	 * A load stopped at its time limit ({@code --load-limit}) or for lack of disk space, and rolled
	 * back: why, the seconds until the stop, the N-Triples lines the store's parser had read by then, the seconds until the rollback had
	 * finished, and the peak heap (sum of the pools' peaks) until then.
	 */
	public record StoppedLoad(String reason, double stoppedSeconds, long linesRead, double rolledBackSeconds,
			long peakHeapBytes) {
		public String describe(long totalTriples) {
			return String.format(Locale.ROOT, "BSBM load stopped %s (--load-limit): %,d of %,d "
					+ "triples read in %.1f s (%,.0f triples/s, %.1f%%), rolled back by %.1f s", reason, linesRead,
					totalTriples, stoppedSeconds, linesRead / stoppedSeconds, 100.0 * linesRead / totalTriples,
					rolledBackSeconds);
		}
	}

	/**
	 * Oxigraph's own figures beside its {@link Load} (whose seconds are the whole {@code oxigraph load}
	 * process and whose bytes are those right after it): the process's peak RSS (-1 if not measured),
	 * the bytes on disk once {@code oxigraph serve} answered on the loaded directory, and after the
	 * server stopped at the end of the run (-1 until then).
	 */
	public static final class Oxigraph {
		public final Load load;
		public final long peakRssBytes;
		public final long bytesAfterStart;
		public long bytesAfterStop = -1;

		public Oxigraph(Load load, long peakRssBytes, long bytesAfterStart) {
			this.load = load;
			this.peakRssBytes = peakRssBytes;
			this.bytesAfterStart = bytesAfterStart;
		}
	}

	/**
	 * LUBM in one store: plain load (null when not measured), load through the RDFS inferencer with
	 * the closed store's bytes on disk, and the 14 queries: answer counts and median times, except
	 * for the queries in {@code timedOut}, which were stopped at the time limit (no count; their
	 * time is the limit).
	 */
	public record Lubm(Load plainLoad, double inferenceSeconds, long explicitTriples, long totalTriples,
			long closedBytesOnDisk, Map<String, Long> counts, Map<String, Double> medianMillis, Set<String> timedOut) {

		public double closedBytesPerTriple() {
			return totalTriples == 0 ? 0 : (double) closedBytesOnDisk / totalTriples;
		}

		public long inferredTriples() {
			return totalTriples - explicitTriples;
		}

		public double closureTriplesPerSecond() {
			return inferenceSeconds <= 0 ? 0 : totalTriples / inferenceSeconds;
		}
	}

	public final Settings settings;
	public final List<StoreSetup> stores = new ArrayList<>();
	public final Map<String, String> skippedStores = new LinkedHashMap<>();
	public TripleCounts bsbmCounts;
	public double bsbmGenerateSeconds;
	public TripleCounts lubmCounts;
	public double lubmGenerateSeconds;
	/** Why LUBM inference was not run, or null. */
	public String lubmInferenceUnavailable;
	public final Map<StoreSetup, Load> bsbmLoads = new LinkedHashMap<>();
	/** Stores whose BSBM load was stopped at its time limit; they are also in {@link #skippedStores}. */
	public final Map<StoreSetup, StoppedLoad> stoppedLoads = new LinkedHashMap<>();
	/** Oxigraph's load and disk figures when it took part, else null. */
	public Oxigraph oxigraph;
	/** Stores that took part in BSBM but not in LUBM, with the reason. */
	public final Map<String, String> lubmNotRun = new LinkedHashMap<>();
	/** Store, then mix name: the warm-up phase. */
	public final Map<StoreSetup, Map<String, MixResult>> warmups = new LinkedHashMap<>();
	/** Store, then mix name, then client count: the measured runs in order. */
	public final Map<StoreSetup, Map<String, Map<Integer, List<MixResult>>>> bsbmRuns = new LinkedHashMap<>();
	/** Query name, then store: result counts summed over the cross-check's parameter instances. */
	public final Map<String, Map<StoreSetup, Long>> bsbmCrossCheck = new LinkedHashMap<>();
	public final List<String> crossCheckFailures = new ArrayList<>();
	/** Queries a store did not answer within the time limit, which the cross-check could not compare. */
	public final List<String> crossCheckTimeouts = new ArrayList<>();
	/** Queries a store answered for the cross-check only over the closure loaded as explicit statements. */
	public final List<String> crossCheckRechecked = new ArrayList<>();
	/** How a query was compared on a store whose answer has another, equally valid, form. */
	public final List<String> crossCheckNotes = new ArrayList<>();
	public final Map<StoreSetup, Lubm> lubm = new LinkedHashMap<>();
	/**
	 * Query ("BSBM Q5", "LUBM Q9"), then Basalt store: the native-evaluation fallbacks by reason while
	 * the query ran in the cross-check (BSBM, all parameter sets) or in its counting run (LUBM). Only
	 * stores with native evaluation counters appear; an empty map means the query ran natively.
	 */
	public final Map<String, Map<StoreSetup, Map<String, Long>>> nativeFallbacks = new LinkedHashMap<>();
	public double totalSeconds;

	public Results(Settings settings) {
		this.settings = settings;
	}

	/** The queries that fell back to RDF4J's evaluator on some store, each as "query on store: reasons". */
	public List<String> nativeFallbackList() {
		List<String> out = new ArrayList<>();
		nativeFallbacks.forEach((query, perStore) -> perStore.forEach((store, reasons) -> {
			if (!reasons.isEmpty()) {
				out.add(query + " on " + store.id() + ": " + reasons);
			}
		}));
		return out;
	}

	public boolean crossCheckPassed() {
		return crossCheckFailures.isEmpty();
	}
}
