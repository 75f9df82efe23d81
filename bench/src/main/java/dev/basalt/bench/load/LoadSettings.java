package dev.basalt.bench.load;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The knobs of one load comparison; {@link #forScale} gives the documented defaults per scale and
 * the command line overrides any of them.
 *
 * <p>Not thread-safe: filled from the command line on the main thread before a run starts, and only read
 * after.
 */
public final class LoadSettings {

	/** Store names the load comparison knows besides the sail setups: the bulk loader and Oxigraph. */
	public static final String BASALT = "basalt";
	public static final String OXIGRAPH = "oxigraph";

	public String scale;
	public int products;
	/** An existing N-Triples file to load instead of generating BSBM, or null. */
	public Path file;
	public long seed = 808L;
	/** basalt (the bulk loader), sail setup names (Repository API), oxigraph (`oxigraph load` and pyoxigraph). */
	public List<String> stores = List.of(BASALT, "lmdb-osp", OXIGRAPH);
	/** Maximum heap of every Java child process, e.g. {@code 1g}. */
	public String heap = "1g";
	public Path basaltJar;
	/** Another Basalt jar loaded beside {@link #basaltJar} as the loader {@code basalt-baseline}, or null. */
	public Path baselineJar;
	public Path workDir = Path.of("data", "bench-load");
	public Path reportFile = Path.of("docs", "benchmarks-load.md");
	public String python = "python3";
	/** Also load a further file of about 1M triples into each loaded Java store, and into an empty one. */
	public boolean further;
	/** Rounds of all loads, store order rotated each round. */
	public int rounds = 1;
	public long timeoutSeconds = 4 * 3600;
	public boolean keepData;
	public String commandLine = "";

	/** Defaults for {@code tiny}, {@code 1m}, {@code 10m} or {@code 100m}; fails naming the known scales. */
	public static LoadSettings forScale(String scale) {
		LoadSettings s = new LoadSettings();
		s.scale = scale;
		switch (scale) {
		case "tiny" -> s.products = 100;
		case "1m" -> s.products = 2_785;
		case "10m" -> s.products = 28_480;
		case "100m" -> {
			s.products = 284_826;
			s.heap = "2g";
			s.timeoutSeconds = 12 * 3600;
		}
		default -> throw new IllegalArgumentException("Unknown scale '" + scale + "'; use tiny, 1m, 10m or 100m");
		}
		return s;
	}

	/** Parses {@code basalt,lmdb-osp,oxigraph}; the names are checked when the run starts. */
	public static List<String> parseStores(String commaSeparated) {
		return Arrays.stream(commaSeparated.split(",")).map(String::trim).filter(x -> !x.isEmpty()).toList();
	}

	/**
	 * The Basalt command-line jar: the one named, else {@code sail/target/basalt.jar} under the working
	 * directory, else the same path beside the checkout the bench jar was built in; null if none exists.
	 */
	public static Path findBasaltJar(Path named, Path benchCodeSource) {
		if (named != null) {
			return Files.isRegularFile(named) ? named : null;
		}
		Path inWorkingDir = Path.of("sail", "target", "basalt.jar");
		if (Files.isRegularFile(inWorkingDir)) {
			return inWorkingDir;
		}
		// bench/target/basalt-bench.jar or bench/target/classes -> the checkout's root is two levels up
		if (benchCodeSource != null && benchCodeSource.toAbsolutePath().getParent() != null
				&& benchCodeSource.toAbsolutePath().getParent().getParent() != null) {
			Path root = benchCodeSource.toAbsolutePath().getParent().getParent().getParent();
			Path beside = root == null ? null : root.resolve("sail").resolve("target").resolve("basalt.jar");
			if (beside != null && Files.isRegularFile(beside)) {
				return beside;
			}
		}
		return null;
	}
}
