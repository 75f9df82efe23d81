package dev.basalt.bench.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import dev.basalt.bench.report.MachineInfo;
import dev.basalt.bench.report.ReportWriter;
import dev.basalt.bench.store.StoreSetups;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The bench's {@code compare} command: its options as {@link Settings} (a scale's defaults, each option
 * given overriding its setting), one {@link Comparison} run with timed progress on standard output, and the
 * report ({@link ReportWriter}). Exit status 2 when the result cross-check failed, else 0 (also when a
 * store's answer could not be compared within its time limit, which the output lists).
 *
 * <p>Not thread-safe: picocli fills and runs it on the main thread.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
		description = "Runs BSBM and LUBM on every store side by side and writes docs/benchmarks-compare.md with charts.")
public final class CompareCommand implements Callable<Integer> {
	@Option(names = "--scale", defaultValue = "1m", description = "tiny, 1m, 10m or 100m (default: ${DEFAULT-VALUE})")
	String scale;
	@Option(names = "--products", description = "BSBM product count (overrides the scale)")
	Integer products;
	@Option(names = "--universities", description = "LUBM universities, 0 to skip LUBM (overrides the scale)")
	Integer universities;
	@Option(names = "--lubm-timeout", description = "seconds after which a LUBM query is stopped and reported as "
			+ "timed out for its store (default: 15 at 1m, 120 at 10m)")
	Integer lubmTimeout;
	@Option(names = "--lubm-plain-load", description = "also load LUBM without inference for a plain load rate")
	boolean lubmPlainLoad;
	@Option(names = "--stores", description = "comma-separated stores, of ${COMPLETION-CANDIDATES} (default: all but basalt-plain)",
			completionCandidates = StoreNames.class)
	String stores;
	@Option(names = "--mixes", split = ",", description = "BSBM mixes to measure: full, reduced (default: both)")
	List<String> mixes;
	@Option(names = "--clients", split = ",", description = "client counts to measure (default: 1,2)")
	List<Integer> clients;
	@Option(names = "--warmup-mixes", description = "warm-up mixes per store and mix")
	Integer warmupMixes;
	@Option(names = "--warmup-seconds", description = "warm-up time cap per store and mix")
	Double warmupSeconds;
	@Option(names = "--runs", description = "measured runs per store, mix and client count")
	Integer runs;
	@Option(names = "--seconds", description = "length of one measured run")
	Double seconds;
	@Option(names = "--cross-check", description = "parameter sets per BSBM query in the result cross-check")
	Integer crossCheck;
	@Option(names = "--seed", description = "seed of data and query parameters (default 808)")
	Long seed;
	@Option(names = "--load-limit", split = ",", description = "STORE=SECONDS or STORE=INSTANT: a BSBM load of "
			+ "that store still running after SECONDS, or at the UTC INSTANT, is stopped and rolled back, and the "
			+ "store leaves the run with the triples it had read (e.g. lmdb-osp=3600 or "
			+ "lmdb-osp=2026-11-28T00:05:00Z); stores not named have no limit")
	Map<String, String> loadLimit;
	@Option(names = "--work-dir", description = "generated data and store directories (default data/bench)")
	Path workDir;
	@Option(names = "--report", description = "report file; charts go beside it (default docs/benchmarks-compare.md)")
	Path report;
	@Option(names = "--lubm-ontology", description = "univ-bench.owl (default ../shared/lubm/univ-bench.owl)")
	Path ontology;
	@Option(names = "--keep-data", description = "keep the store directories after the run")
	boolean keepData;
	@Option(names = "--python", defaultValue = "python3", description = "Python interpreter that creates "
			+ "Oxigraph's virtual environment under the work directory when --stores names oxigraph "
			+ "(default: ${DEFAULT-VALUE})")
	String python;
	@CommandLine.Spec
	CommandLine.Model.CommandSpec spec;

	@Override
	public Integer call() {
		Settings s = Settings.forScale(scale);
		if (products != null) {
			s.products = products;
		}
		if (universities != null) {
			s.universities = universities;
		}
		if (lubmTimeout != null) {
			s.lubmQueryTimeoutSeconds = lubmTimeout;
		}
		s.lubmPlainLoad |= lubmPlainLoad;
		s.stores = StoreSetups.parse(stores != null ? stores : StoreSetups.defaultNames());
		if (mixes != null) {
			s.mixes = mixes;
		}
		if (clients != null) {
			s.clients = clients;
		}
		if (warmupMixes != null) {
			s.warmupMixes = warmupMixes;
		}
		if (warmupSeconds != null) {
			s.warmupMaxSeconds = warmupSeconds;
		}
		if (runs != null) {
			s.runs = runs;
		}
		if (seconds != null) {
			s.measureSeconds = seconds;
		}
		if (crossCheck != null) {
			s.crossCheckInstances = crossCheck;
		}
		if (seed != null) {
			s.seed = seed;
		}
		if (loadLimit != null) {
			s.loadLimits = loadLimit;
		}
		if (workDir != null) {
			s.workDir = workDir;
		}
		if (report != null) {
			s.reportFile = report;
		}
		if (ontology != null) {
			s.ontology = ontology;
		}
		s.keepData = keepData;
		s.python = python;
		s.commandLine = "java " + String.join(" ", MachineInfo.jvmArguments())
				+ " -jar bench/target/basalt-bench.jar " + String.join(" ", spec.commandLine().getParseResult()
						.originalArgs());
		long started = System.nanoTime();
		Results results = new Comparison(s,
				line -> System.out.printf(Locale.ROOT, "[%6.1f s] %s%n", (System.nanoTime() - started) / 1e9, line))
				.run();
		new ReportWriter(results).write();
		System.out.printf(Locale.ROOT, "Report written to %s (%.1f minutes)%n", s.reportFile, results.totalSeconds / 60);
		if (!results.crossCheckPassed()) {
			System.out.println("RESULT CROSS-CHECK FAILED:");
			results.crossCheckFailures.forEach(f -> System.out.println("  " + f));
			return 2;
		}
		if (!results.crossCheckTimeouts.isEmpty()) {
			System.out.println("Result cross-check passed for every answer; NOT COMPARED (time limit):");
			results.crossCheckTimeouts.forEach(f -> System.out.println("  " + f));
			return 0;
		}
		System.out.println("Result cross-check passed for all stores.");
		return 0;
	}

	/** The store names {@code --stores} completes. */
	static final class StoreNames extends ArrayList<String> {
		private static final long serialVersionUID = 1L;

		StoreNames() {
			super(Arrays.asList(StoreSetups.allNames().split(",")));
		}
	}
}
