package dev.basalt.bench.compare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;

import dev.basalt.bench.bsbm.BsbmCrossCheck;
import dev.basalt.bench.bsbm.BsbmGenerator;
import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmParameters;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.driver.MixDriver;
import dev.basalt.bench.driver.MixResult;
import dev.basalt.bench.driver.QueryExecutor;
import dev.basalt.bench.driver.QueryTemplate;
import dev.basalt.bench.oxigraph.Oxigraph;
import dev.basalt.bench.oxigraph.OxigraphInstall;
import dev.basalt.bench.store.DiskUsage;
import dev.basalt.bench.store.StoreSetup;

/**
 * One side-by-side run: generate BSBM and LUBM data once, load it into every store, cross-check the
 * result counts of every query across the stores, then measure the BSBM mixes with the stores
 * interleaved (run 1 of every store, then run 2 of every store, ... with the store order rotated
 * each run) so that drifts of a shared machine spread over all of them; finally LUBM with RDFS
 * closure, one store at a time ({@link LubmComparison}). Every store is loaded the same way
 * ({@link StoreLoads}).
 *
 * <p>Oxigraph, when asked for, is installed into the work directory first, loaded by its own loader
 * and queried over HTTP through its own server ({@link OxigraphPeer}); it takes part in the BSBM
 * cross-check and mixes, not in LUBM (no RDFS inference).
 *
 * <p>Not thread-safe: one run on the calling thread, which owns its {@link Settings} and {@link Results}; the
 * mixes' client threads (the driver's) share only the repository and the query executor's thread-safe
 * counter.
 */
public final class Comparison {

	private final Settings settings;
	private final Consumer<String> progress;
	private final StoreLoads loads;

	public Comparison(Settings settings, Consumer<String> progress) {
		this.settings = settings;
		this.progress = progress;
		this.loads = new StoreLoads(progress);
	}

	public Results run() {
		long start = System.nanoTime();
		Results results = new Results(settings);
		createDirectories(settings.workDir);
		BsbmModel model = new BsbmModel(settings.products, settings.seed);
		Path bsbmFile = settings.workDir.resolve("bsbm-" + settings.products + ".nt");
		progress.accept("Generating BSBM with " + settings.products + " products to " + bsbmFile);
		long t0 = System.nanoTime();
		results.bsbmCounts = new BsbmGenerator(model).write(bsbmFile);
		results.bsbmGenerateSeconds = seconds(t0);
		progress.accept(String.format("  %,d triples in %.1f s", results.bsbmCounts.total(), results.bsbmGenerateSeconds));

		for (StoreSetup s : settings.stores) {
			long needed = s.heapBytesPerTriple() * results.bsbmCounts.total();
			long max = Runtime.getRuntime().maxMemory();
			if (needed > max * 0.7) {
				String why = String.format("needs about %,d MB of heap for %,d triples; -Xmx is %,d MB", needed >> 20,
						results.bsbmCounts.total(), max >> 20);
				results.skippedStores.put(s.id(), why);
				progress.accept("Skipping " + s.id() + ": " + why);
			} else {
				results.stores.add(s);
			}
		}

		Oxigraph oxigraph = prepareOxigraph(results);
		Map<StoreSetup, Repository> repositories = new LinkedHashMap<>();
		OxigraphPeer oxigraphPeer = null;
		try {
			for (StoreSetup s : List.copyOf(results.stores)) {
				Path dir = storeDir(settings.workDir, s, "bsbm");
				DiskUsage.delete(dir);
				createDirectories(dir);
				if (!s.inProcess()) {
					progress.accept("Loading BSBM into " + s.id() + " with `oxigraph load`");
					oxigraphPeer = OxigraphPeer.loadAndServe(oxigraph, dir, bsbmFile, progress);
					results.oxigraph = oxigraphPeer.figures();
					Results.Load load = results.oxigraph.load;
					repositories.put(s, oxigraphPeer.repository());
					results.bsbmLoads.put(s, load);
					progress.accept(String.format("  %.1f s, %,.0f triples/s, %,d bytes on disk after the load, %,d once "
							+ "the server answered at %s", load.seconds(), load.triplesPerSecond(), load.bytesOnDisk(),
							results.oxigraph.bytesAfterStart, oxigraphPeer.endpoint()));
					continue;
				}
				Repository repo = s.createRepository(dir);
				repo.init();
				repositories.put(s, repo);
				progress.accept("Loading BSBM into " + s.id());
				Double limit = settings.loadLimitSeconds(s.id());
				Results.Load load;
				if (limit == null) {
					load = loads.load(repo, dir, bsbmFile, s.persistent());
				} else {
					load = loads.limitedLoad(repo, dir, bsbmFile, s, limit, results);
					if (load == null) {
						repositories.remove(s).shutDown();
						results.stores.remove(s);
						DiskUsage.delete(dir);
						continue;
					}
				}
				results.bsbmLoads.put(s, load);
				progress.accept(String.format("  %.1f s, %,.0f triples/s, %,d bytes on disk", load.seconds(),
						load.triplesPerSecond(), load.bytesOnDisk()));
			}
			crossCheckBsbm(model, repositories, results);
			measureBsbm(model, repositories, results);
		} finally {
			repositories.values().forEach(Repository::shutDown);
			if (oxigraphPeer != null) {
				oxigraphPeer.close();
			}
			if (!settings.keepData) {
				results.stores.forEach(s -> DiskUsage.delete(storeDir(settings.workDir, s, "bsbm")));
			}
		}

		if (settings.universities > 0) {
			new LubmComparison(settings, progress, loads).run(results);
		}
		results.totalSeconds = seconds(start);
		return results;
	}

	/**
	 * Installs Oxigraph when a store of the run needs it; when it cannot, removes those stores from
	 * the run and records the one-line reason. Returns null when Oxigraph is not used.
	 */
	private Oxigraph prepareOxigraph(Results results) {
		List<StoreSetup> external = results.stores.stream().filter(s -> !s.inProcess()).toList();
		if (external.isEmpty()) {
			return null;
		}
		OxigraphInstall.Outcome outcome = new OxigraphInstall(settings.python, settings.workDir.resolve("oxigraph-venv"),
				progress).prepare();
		if (outcome.oxigraph() == null) {
			results.stores.removeAll(external);
			external.forEach(s -> results.skippedStores.put(s.id(), outcome.skipReason()));
		}
		return outcome.oxigraph();
	}

	/** Where a store of the run keeps {@code dataset} below the work directory {@code workDir}. */
	static Path storeDir(Path workDir, StoreSetup s, String dataset) {
		return workDir.resolve("stores").resolve(s.id() + "-" + dataset);
	}

	private void crossCheckBsbm(BsbmModel model, Map<StoreSetup, Repository> repositories, Results results) {
		progress.accept("Cross-checking result counts of the 12 BSBM queries (" + settings.crossCheckInstances
				+ " parameter sets each)");
		BsbmParameters parameters = new BsbmParameters(model);
		for (QueryTemplate t : BsbmQueries.ALL) {
			String[] instances = BsbmCrossCheck.instances(t, parameters, settings.seed, settings.crossCheckInstances);
			Map<StoreSetup, long[]> perStore = new LinkedHashMap<>();
			for (Map.Entry<StoreSetup, Repository> e : repositories.entrySet()) {
				long[] counts = new long[instances.length];
				NativeFallbackProbe probe = NativeFallbackProbe.of(e.getValue());
				Map<String, Long> before = probe.snapshot();
				try (RepositoryConnection conn = e.getValue().getConnection()) {
					for (int i = 0; i < instances.length; i++) {
						counts[i] = QueryExecutor.count(conn, instances[i]);
					}
				}
				recordFallbacks(results, "BSBM " + t.name(), e.getKey(), probe, before, progress);
				perStore.put(e.getKey(), counts);
			}
			Map<StoreSetup, Long> totals = new LinkedHashMap<>();
			perStore.forEach((s, c) -> totals.put(s, Arrays.stream(c).sum()));
			results.bsbmCrossCheck.put(t.name(), totals);
			Map<StoreSetup, long[]> outgoingOnly = new LinkedHashMap<>();
			for (StoreSetup s : List.copyOf(perStore.keySet())) {
				if (BsbmCrossCheck.isDescribe(t) && !s.describesIncomingStatements()) {
					outgoingOnly.put(s, perStore.remove(s));
				}
			}
			compare("BSBM " + t.name(), perStore, results.crossCheckFailures, progress);
			if (!outgoingOnly.isEmpty()) {
				crossCheckOutgoingDescribe(t, instances, repositories, outgoingOnly, results);
			}
		}
	}

	/**
	 * SPARQL leaves the form of DESCRIBE's answer to the store: RDF4J's stores return the resource's
	 * outgoing and incoming statements, Oxigraph its outgoing ones only. A store of the second kind is
	 * compared with the first store's answer to the CONSTRUCT of the outgoing statements.
	 */
	private void crossCheckOutgoingDescribe(QueryTemplate t, String[] instances,
			Map<StoreSetup, Repository> repositories, Map<StoreSetup, long[]> outgoingOnly, Results results) {
		Map.Entry<StoreSetup, Repository> reference = repositories.entrySet().stream().filter(e -> e.getKey()
				.describesIncomingStatements()).findFirst().orElseThrow();
		long[] expected = new long[instances.length];
		try (RepositoryConnection conn = reference.getValue().getConnection()) {
			for (int i = 0; i < instances.length; i++) {
				expected[i] = QueryExecutor.count(conn, BsbmCrossCheck.outgoingStatements(instances[i]));
			}
		}
		Map<StoreSetup, long[]> perStore = new LinkedHashMap<>();
		perStore.put(reference.getKey(), expected);
		perStore.putAll(outgoingOnly);
		compare("BSBM " + t.name() + " (outgoing statements of the described resource)", perStore,
				results.crossCheckFailures, progress);
		outgoingOnly.keySet().forEach(s -> results.crossCheckNotes.add("BSBM " + t.name() + " on " + s.id() + " is "
				+ "compared with " + reference.getKey().id() + "'s CONSTRUCT of the described resource's outgoing "
				+ "statements: " + s.id() + "'s DESCRIBE returns those only, RDF4J's stores add the incoming ones "
				+ "(SPARQL leaves the form of DESCRIBE's answer to the store)"));
	}

	/** Records in {@code results} what {@code query} on {@code store} left to RDF4J's evaluator since {@code before}. */
	static void recordFallbacks(Results results, String query, StoreSetup store, NativeFallbackProbe probe,
			Map<String, Long> before, Consumer<String> progress) {
		if (probe.applies()) {
			Map<String, Long> fallbacks = NativeFallbackProbe.since(before, probe.snapshot());
			results.nativeFallbacks.computeIfAbsent(query, k -> new LinkedHashMap<>()).put(store, fallbacks);
			if (!fallbacks.isEmpty()) {
				progress.accept("  " + query + " on " + store.id() + " fell back to RDF4J's evaluator: " + fallbacks);
			}
		}
	}

	/** Records a failure for every store whose counts differ from the first store's. */
	static void compare(String what, Map<StoreSetup, long[]> perStore, List<String> failures, Consumer<String> progress) {
		Map.Entry<StoreSetup, long[]> reference = perStore.entrySet().iterator().next();
		for (Map.Entry<StoreSetup, long[]> e : perStore.entrySet()) {
			if (!Arrays.equals(e.getValue(), reference.getValue())) {
				String msg = what + ": " + e.getKey().id() + " returned " + Arrays.toString(e.getValue()) + " but "
						+ reference.getKey().id() + " returned " + Arrays.toString(reference.getValue());
				failures.add(msg);
				progress.accept("  MISMATCH " + msg);
			}
		}
	}

	private void measureBsbm(BsbmModel model, Map<StoreSetup, Repository> repositories, Results results) {
		BsbmParameters parameters = new BsbmParameters(model);
		List<StoreSetup> stores = new ArrayList<>(repositories.keySet());
		for (String mixName : settings.mixes) {
			List<Integer> mix = BsbmQueries.MIXES.get(mixName);
			if (mix == null) {
				throw new IllegalArgumentException("Unknown mix '" + mixName + "'; use full or reduced");
			}
			MixDriver driver = new MixDriver(BsbmQueries.ALL, mix, parameters::draw);
			// The first mix warms the JIT up for the query engine and the store; later mixes share that
			// code and only need a short warm-up of their own.
			boolean first = mixName.equals(settings.mixes.get(0));
			int warmupMixes = first ? settings.warmupMixes : Math.max(1, settings.warmupMixes / 10);
			double warmupSeconds = first ? settings.warmupMaxSeconds : Math.max(1, settings.warmupMaxSeconds / 6);
			for (StoreSetup s : stores) {
				progress.accept(String.format("Warm-up %s mix on %s: %d mixes or %.0f s", mixName, s.id(), warmupMixes,
						warmupSeconds));
				MixResult w = driver.run(repositories.get(s), 1, warmupMixes, warmupSeconds, settings.seed + 7);
				results.warmups.computeIfAbsent(s, k -> new LinkedHashMap<>()).put(mixName, w);
				progress.accept(String.format("  %d mixes in %.1f s (%,.0f QMpH)", w.mixes(), w.elapsedSeconds(), w.qmph()));
			}
			for (int run = 0; run < settings.runs; run++) {
				for (int i = 0; i < stores.size(); i++) {
					StoreSetup s = stores.get((i + run) % stores.size());
					for (int clients : settings.clients) {
						MixResult m = driver.run(repositories.get(s), clients, Long.MAX_VALUE, settings.measureSeconds,
								settings.seed + 1000L * (run + 1) + clients);
						results.bsbmRuns.computeIfAbsent(s, k -> new LinkedHashMap<>())
								.computeIfAbsent(mixName, k -> new TreeMap<>())
								.computeIfAbsent(clients, k -> new ArrayList<>())
								.add(m);
						progress.accept(String.format("Run %d/%d %s mix, %s, %d client(s): %,.0f QMpH (%d mixes)", run + 1,
								settings.runs, mixName, s.id(), clients, m.qmph(), m.mixes()));
					}
				}
			}
		}
	}

	static void createDirectories(Path dir) {
		try {
			Files.createDirectories(dir);
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot create directory " + dir.toAbsolutePath(), e);
		}
	}

	static double seconds(long startNanos) {
		return (System.nanoTime() - startNanos) / 1e9;
	}
}
