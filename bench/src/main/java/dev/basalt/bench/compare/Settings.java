package dev.basalt.bench.compare;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;

import dev.basalt.bench.store.StoreSetup;

/**
 * The knobs of one comparison run; {@link #forScale} gives the documented defaults per scale and the
 * command line overrides any of them.
 *
 * <p>Not thread-safe: filled from the command line on the main thread before a run starts, and only read
 * after.
 */
public final class Settings {

	public String scale;
	public int products;
	public int universities;
	public int lubmMaxDepartments = Integer.MAX_VALUE;
	public long seed = 808L;
	public List<StoreSetup> stores;
	public List<String> mixes = List.of("full", "reduced");
	public List<Integer> clients = List.of(1, 2);
	public int warmupMixes = 200;
	public double warmupMaxSeconds = 30;
	public int runs = 3;
	public double measureSeconds = 5;
	public int crossCheckInstances = 10;
	/**
	 * The time limit of a store's BSBM load, by store id: seconds ({@code 3600}) or the UTC instant by
	 * which it must have finished ({@code 2026-11-28T00:05:00Z}). A load past its limit is stopped and
	 * rolled back, and the store leaves the run, reported with the triples it had read by then. Stores
	 * not named have no limit.
	 */
	public Map<String, String> loadLimits = Map.of();

	/** The seconds a load of store {@code id} starting now may take, or null when it has no limit. */
	public Double loadLimitSeconds(String id) {
		String limit = loadLimits.get(id);
		if (limit == null) {
			return null;
		}
		try {
			return Double.parseDouble(limit);
		} catch (NumberFormatException notSeconds) {
			try {
				// an instant already past stops the load at its first read (a limit of 0 would mean none)
				return Math.max(1e-9, Duration.between(Instant.now(), Instant.parse(limit)).toMillis() / 1000.0);
			} catch (DateTimeParseException e) {
				throw new IllegalArgumentException("Load limit of " + id + " is '" + limit + "'; give seconds (3600) or "
						+ "a UTC instant (2026-11-28T00:05:00Z)", e);
			}
		}
	}
	public int lubmRepeats = 3;
	/** A LUBM query still running after this is stopped and reported as timed out for its store. */
	public int lubmQueryTimeoutSeconds = 30;
	/** Whether LUBM is also loaded without inference, for a plain load rate (costs a second load per store). */
	public boolean lubmPlainLoad;
	public Path workDir = Path.of("data", "bench");
	public Path reportFile = Path.of("docs", "benchmarks-compare.md");
	public Path ontology = Path.of("..", "shared", "lubm", "univ-bench.owl");
	public boolean keepData;
	/** The Python interpreter that creates Oxigraph's virtual environment, when Oxigraph takes part. */
	public String python = "python3";
	public String commandLine = "";

	/** Defaults for {@code tiny}, {@code 1m}, {@code 10m} or {@code 100m}; fails naming the known scales. */
	public static Settings forScale(String scale) {
		Settings s = new Settings();
		s.scale = scale;
		switch (scale) {
		case "tiny" -> {
			s.products = 100;
			s.universities = 1;
			s.lubmMaxDepartments = 1;
			s.warmupMixes = 5;
			s.warmupMaxSeconds = 5;
			s.runs = 2;
			s.measureSeconds = 1;
			s.crossCheckInstances = 3;
			s.lubmRepeats = 1;
			s.lubmPlainLoad = true;
		}
		case "1m" -> {
			s.products = 2_785;
			// LUBM(7) is 1,005,361 triples with this generator (~144K per university)
			s.universities = 7;
			// fits the 15-minute budget on 2 cores with seven stores (measured 17.9 min at 5 s and 30 s
			// while another job shared the cores)
			s.measureSeconds = 4;
			s.lubmQueryTimeoutSeconds = 15;
		}
		case "10m" -> {
			s.products = 28_480;
			s.universities = 70;
			s.lubmQueryTimeoutSeconds = 120;
			s.warmupMaxSeconds = 120;
			s.measureSeconds = 30;
		}
		case "100m" -> {
			s.products = 284_826;
			s.universities = 700;
			s.lubmQueryTimeoutSeconds = 300;
			s.warmupMaxSeconds = 300;
			s.measureSeconds = 60;
		}
		default -> throw new IllegalArgumentException("Unknown scale '" + scale + "'; use tiny, 1m, 10m or 100m");
		}
		return s;
	}

	/**
	 * The file name of one of the report's charts, named after the report ({@code benchmarks-10m.md} gets
	 * {@code benchmarks-10m-qmph.png}), so reports written to the same directory keep their own charts.
	 */
	public String chartName(String name) {
		String report = reportFile.getFileName().toString();
		String base = report.endsWith(".md") ? report.substring(0, report.length() - 3) : report;
		return base + "-" + name + ".png";
	}

	public Path chartFile(String name) {
		return reportFile.toAbsolutePath().getParent().resolve(chartName(name));
	}
}
