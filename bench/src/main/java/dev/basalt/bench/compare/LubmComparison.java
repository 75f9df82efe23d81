package dev.basalt.bench.compare;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.eclipse.rdf4j.sail.NotifyingSail;
import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.sail.inferencer.fc.SchemaCachingRDFSInferencer;

import dev.basalt.bench.driver.QueryExecutor;
import dev.basalt.bench.driver.QueryTemplate;
import dev.basalt.bench.lubm.LubmGenerator;
import dev.basalt.bench.lubm.LubmQueries;
import dev.basalt.bench.store.DiskUsage;
import dev.basalt.bench.store.StoreSetup;

/**
 * The LUBM part of a {@link Comparison}: LUBM data generated once, then one store at a time loaded with
 * RDFS closure (RDF4J's {@link SchemaCachingRDFSInferencer} over the store's sail, after the ontology),
 * optionally also loaded plain for its load rate, its 14 queries counted and timed, and their counts
 * cross-checked across the stores. A query a store does not answer within the time limit is counted once
 * more on that store over the closure loaded as explicit statements ({@link #recheckTimeouts}); a store
 * that is not a sail (Oxigraph) has no RDFS inference and does not take part. Without the ontology the
 * stores load and query the explicit triples only, and the results say so.
 *
 * <p>Not thread-safe: runs on the calling thread of its comparison, one store at a time, writing into
 * the run's {@link Results}.
 */
final class LubmComparison {

	/** LUBM queries slower than this on their first run are not repeated. */
	private static final double SLOW_QUERY_MILLIS = 3_000;

	private final Settings settings;
	private final Consumer<String> progress;
	private final StoreLoads loads;

	LubmComparison(Settings settings, Consumer<String> progress, StoreLoads loads) {
		this.settings = settings;
		this.progress = progress;
		this.loads = loads;
	}

	/** Runs the LUBM part of the comparison on the run's stores, into {@code results}. */
	void run(Results results) {
		Path lubmFile = settings.workDir.resolve("lubm-" + settings.universities + ".nt");
		progress.accept("Generating LUBM(" + settings.universities + ", " + settings.seed + ") to " + lubmFile);
		long t0 = System.nanoTime();
		results.lubmCounts = new LubmGenerator(settings.universities, settings.seed, settings.lubmMaxDepartments)
				.write(lubmFile);
		results.lubmGenerateSeconds = Comparison.seconds(t0);
		progress.accept(String.format("  %,d triples in %.1f s", results.lubmCounts.total(), results.lubmGenerateSeconds));
		if (!Files.isReadable(settings.ontology)) {
			results.lubmInferenceUnavailable = "the LUBM ontology was not found at " + settings.ontology.toAbsolutePath()
					.normalize()
					+ " (it is read from shared/lubm/univ-bench.owl beside the checkout, or from --lubm-ontology); "
					+ "LUBM was loaded without RDFS closure and its queries ran on the explicit triples only";
			progress.accept("WARNING: " + results.lubmInferenceUnavailable);
		}
		Map<StoreSetup, long[]> countsPerStore = new LinkedHashMap<>();
		DiskUsage.delete(closureFile(results));
		for (StoreSetup s : results.stores) {
			if (!s.inProcess()) {
				results.lubmNotRun.put(s.id(), "LUBM here is measured with RDFS closure by RDF4J's inferencer over a "
						+ "sail; " + s.id() + " is not a sail and has no RDFS inference of its own");
				continue;
			}
			progress.accept("LUBM on " + s.id());
			Path dir = Comparison.storeDir(settings.workDir, s, "lubm");
			DiskUsage.delete(dir);
			Results.Load plain = settings.lubmPlainLoad ? plainLoad(s, dir, lubmFile) : null;
			Comparison.createDirectories(dir);
			Sail sail = s.createSail(dir);
			boolean infer = results.lubmInferenceUnavailable == null && sail instanceof NotifyingSail;
			Repository inferred = s.repository(infer ? new SchemaCachingRDFSInferencer((NotifyingSail) sail) : sail);
			inferred.init();
			try {
				long t1 = System.nanoTime();
				try (RepositoryConnection conn = inferred.getConnection()) {
					if (infer) {
						conn.begin(IsolationLevels.NONE);
						conn.add(settings.ontology.toFile(), RDFFormat.RDFXML);
						conn.commit();
					}
					conn.begin(IsolationLevels.NONE);
					conn.add(lubmFile.toFile(), RDFFormat.NTRIPLES);
					conn.commit();
				} catch (IOException e) {
					throw new UncheckedIOException("Cannot read " + lubmFile + " or " + settings.ontology, e);
				}
				double inferenceSeconds = Comparison.seconds(t1);
				long bytes = s.persistent() ? DiskUsage.bytes(dir) : 0;
				long explicit;
				long total;
				try (RepositoryConnection conn = inferred.getConnection()) {
					explicit = conn.size();
					total = QueryExecutor.count(conn, "SELECT * WHERE { ?s ?p ?o }");
				}
				progress.accept(String.format("  load with RDFS closure %.1f s: %,d explicit, %,d inferred", inferenceSeconds,
						explicit, total - explicit));
				if (!Files.exists(closureFile(results))) {
					exportClosure(inferred, closureFile(results));
				}
				Results.Lubm lubm = lubmQueries(results, s, inferred, plain, inferenceSeconds, explicit, total, bytes);
				results.lubm.put(s, lubm);
				countsPerStore.put(s, LubmQueries.ALL.stream()
						.mapToLong(t -> lubm.timedOut().contains(t.name()) ? -1 : lubm.counts().get(t.name())).toArray());
			} finally {
				inferred.shutDown();
				if (!settings.keepData) {
					DiskUsage.delete(dir);
				}
			}
		}
		for (Map.Entry<StoreSetup, long[]> e : countsPerStore.entrySet()) {
			recheckTimeouts(results, e.getKey(), e.getValue());
		}
		for (int q = 0; q < LubmQueries.ALL.size() && !countsPerStore.isEmpty(); q++) {
			String name = "LUBM " + LubmQueries.ALL.get(q).name();
			Map<StoreSetup, long[]> answered = new LinkedHashMap<>();
			for (Map.Entry<StoreSetup, long[]> e : countsPerStore.entrySet()) {
				if (e.getValue()[q] < 0) {
					String msg = name + " on " + e.getKey().id() + ": no answer within the "
							+ settings.lubmQueryTimeoutSeconds + " s limit, not compared";
					results.crossCheckTimeouts.add(msg);
					progress.accept("  TIMEOUT " + msg);
				} else {
					answered.put(e.getKey(), new long[] { e.getValue()[q] });
				}
			}
			if (!answered.isEmpty()) {
				Comparison.compare(name, answered, results.crossCheckFailures, progress);
			}
		}
		if (!settings.keepData) {
			DiskUsage.delete(closureFile(results));
		}
	}

	private Path closureFile(Results results) {
		return settings.workDir.resolve("lubm-" + settings.universities + "-closure.nt");
	}

	/** Writes every statement of the closed store, explicit and inferred, as N-Triples. */
	private void exportClosure(Repository closed, Path file) {
		try (RepositoryConnection conn = closed.getConnection();
				OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
			conn.exportStatements(null, null, null, true, Rio.createWriter(RDFFormat.NTRIPLES, out));
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot write the LUBM closure to " + file, e);
		}
	}

	/**
	 * A store that timed out on a query over its inferencer-closed store answers it once more, for the
	 * cross-check only, on a fresh store holding the same closure as explicit statements (exported from
	 * the first store's closed repository): LmdbStore 5.0.3 estimates patterns that match only inferred
	 * statements as empty, which makes RDF4J start Q9 with a cross product (docs/benchmarks-lubm.md).
	 * The count replaces the timeout in the cross-check; the timing table keeps the timeout.
	 */
	private void recheckTimeouts(Results results, StoreSetup s, long[] counts) {
		List<Integer> missing = new ArrayList<>();
		for (int q = 0; q < counts.length; q++) {
			if (counts[q] < 0) {
				missing.add(q);
			}
		}
		if (missing.isEmpty() || !Files.exists(closureFile(results))) {
			return;
		}
		progress.accept("Rechecking " + missing.size() + " timed-out LUBM quer" + (missing.size() == 1 ? "y" : "ies")
				+ " on " + s.id() + " over the closure loaded as explicit statements");
		Path dir = Comparison.storeDir(settings.workDir, s, "lubm-closure");
		DiskUsage.delete(dir);
		Comparison.createDirectories(dir);
		Repository repo = s.createRepository(dir);
		repo.init();
		try {
			loads.load(repo, dir, closureFile(results), s.persistent());
			try (RepositoryConnection conn = repo.getConnection()) {
				for (int q : missing) {
					QueryTemplate t = LubmQueries.ALL.get(q);
					long t0 = System.nanoTime();
					try {
						counts[q] = QueryExecutor.count(conn, t.text(), settings.lubmQueryTimeoutSeconds * 4);
					} catch (QueryEvaluationException e) {
						progress.accept("  LUBM " + t.name() + " on " + s.id() + ": no answer over the explicit closure either");
						continue;
					}
					String msg = String.format(Locale.ROOT, "LUBM %s on %s: timed out over the inferencer-closed store; "
							+ "answered %,d in %.1f s over the same closure loaded as explicit statements, and that count "
							+ "was cross-checked", t.name(), s.id(), counts[q], Comparison.seconds(t0));
					results.crossCheckRechecked.add(msg);
					progress.accept("  " + msg);
				}
			}
		} finally {
			repo.shutDown();
			DiskUsage.delete(dir);
		}
	}

	private Results.Load plainLoad(StoreSetup s, Path dir, Path lubmFile) {
		Comparison.createDirectories(dir);
		Repository repo = s.createRepository(dir);
		repo.init();
		try {
			Results.Load plain = loads.load(repo, dir, lubmFile, s.persistent());
			progress.accept(String.format("  plain load %.1f s (%,.0f triples/s)", plain.seconds(), plain.triplesPerSecond()));
			return plain;
		} finally {
			repo.shutDown();
			DiskUsage.delete(dir);
		}
	}

	/**
	 * The 14 queries on the closed store: each runs once to count (stopped at the time limit), then
	 * is timed {@code lubmRepeats} times unless that first run took longer than
	 * {@link #SLOW_QUERY_MILLIS}; the median time is kept.
	 */
	private Results.Lubm lubmQueries(Results results, StoreSetup s, Repository inferred, Results.Load plain,
			double inferenceSeconds, long explicit, long total, long bytes) {
		Map<String, Long> counts = new LinkedHashMap<>();
		Map<String, Double> medians = new LinkedHashMap<>();
		Set<String> timedOut = new TreeSet<>();
		NativeFallbackProbe probe = NativeFallbackProbe.of(inferred);
		try (RepositoryConnection conn = inferred.getConnection()) {
			for (QueryTemplate t : LubmQueries.ALL) {
				progress.accept("  LUBM " + t.name() + " ...");
				Map<String, Long> before = probe.snapshot();
				long first = System.nanoTime();
				long count;
				try {
					count = QueryExecutor.count(conn, t.text(), settings.lubmQueryTimeoutSeconds);
				} catch (QueryEvaluationException e) {
					// RDF4J stops a query at its time limit by closing its iteration, which surfaces as an
					// evaluation error ("The iteration has been closed"), not always as QueryInterruptedException
					if (Comparison.seconds(first) < settings.lubmQueryTimeoutSeconds) {
						throw e;
					}
					progress.accept(String.format("  LUBM %s: stopped after %.1f s (limit %d s)", t.name(), Comparison.seconds(first),
							settings.lubmQueryTimeoutSeconds));
					timedOut.add(t.name());
					medians.put(t.name(), settings.lubmQueryTimeoutSeconds * 1000.0);
					continue;
				}
				double firstMillis = (System.nanoTime() - first) / 1e6;
				Comparison.recordFallbacks(results, "LUBM " + t.name(), s, probe, before, progress);
				// A query that takes seconds is timed once (its first run) to stay within the budget.
				double[] times = new double[firstMillis > SLOW_QUERY_MILLIS ? 1 : settings.lubmRepeats];
				times[0] = firstMillis;
				for (int i = firstMillis > SLOW_QUERY_MILLIS ? 1 : 0; i < times.length; i++) {
					long b = System.nanoTime();
					QueryExecutor.count(conn, t.text());
					times[i] = (System.nanoTime() - b) / 1e6;
				}
				Arrays.sort(times);
				progress.accept(String.format("  LUBM %s: %,d results, median %.1f ms", t.name(), count,
						times[times.length / 2]));
				counts.put(t.name(), count);
				medians.put(t.name(), times[times.length / 2]);
			}
		}
		return new Results.Lubm(plain, inferenceSeconds, explicit, total, bytes, counts, medians, timedOut);
	}
}
