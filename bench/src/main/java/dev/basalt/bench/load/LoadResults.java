package dev.basalt.bench.load;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one load comparison measured, in the shape {@link LoadReport} needs.
 *
 * <p>Not thread-safe: filled by the load comparison's one thread and read by {@link LoadReport} on the same
 * thread.
 */
public final class LoadResults {

	/**
	 * One load of the data file into an empty store by one path, timed as a whole process.
	 *
	 * @param path           the loader's name in the report: basalt, a sail setup, oxigraph or pyoxigraph
	 * @param triples        statements in the store afterwards, as the store counts them
	 * @param peakRssBytes   peak resident set size of the process, -1 if not measured
	 * @param cpuSeconds     user plus system CPU time of the process, -1 if not measured
	 * @param bytesAfterLoad apparent size of the store's files when the loader exited
	 * @param bytesAfterOpen the same after the store was next opened (to count it), which some stores
	 *                       use to rewrite their files
	 */
	public record Row(int round, String path, String description, double seconds, long triples, long peakRssBytes,
			double cpuSeconds, long bytesAfterLoad, long bytesAfterOpen) {

		public double triplesPerSecond() {
			return seconds <= 0 ? 0 : triples / seconds;
		}

		public double bytesPerTriple() {
			return triples == 0 ? 0 : (double) bytesAfterLoad / triples;
		}

		public double bytesPerTripleAfterOpen() {
			return triples == 0 ? 0 : (double) bytesAfterOpen / triples;
		}
	}

	/**
	 * A further file loaded through the Repository API (one transaction, isolation NONE), once into the
	 * store the main load left and once into an empty store, each as a whole process; {@code *Inner}
	 * are the seconds the child measured from its first {@code add} to the end of its commit.
	 */
	public record Further(String store, long triples, double fullSeconds, double fullInnerSeconds, double emptySeconds,
			double emptyInnerSeconds, long statementsAfter, long expectedStatements) {

		public double fullRate() {
			return triples / fullSeconds;
		}

		public double emptyRate() {
			return triples / emptySeconds;
		}
	}

	public final LoadSettings settings;
	public Path file;
	public long fileBytes;
	/** Triples in the data file (its statement lines). */
	public long fileTriples;
	public double generateSeconds = -1;
	public Path furtherFile;
	public long furtherTriples;
	public final List<Row> rows = new ArrayList<>();
	public final List<Further> further = new ArrayList<>();
	/** Path name to a remark on its figures (e.g. a store's own account of its bytes). */
	public final Map<String, String> notes = new LinkedHashMap<>();
	/** Path name to the reason it was not measured. */
	public final Map<String, String> skipped = new LinkedHashMap<>();
	/** Why peak RSS is missing, or null. */
	public String rssUnavailable;
	public String basaltJar;
	public double totalSeconds;
	/** {@code /proc/loadavg}'s first three fields when the run started and ended ("unknown" elsewhere). */
	public String loadAverageStart = "unknown";
	public String loadAverageEnd = "unknown";

	public LoadResults(LoadSettings settings) {
		this.settings = settings;
	}
}
