package dev.basalt.bench.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.basalt.bench.bsbm.BsbmModel;
import dev.basalt.bench.bsbm.BsbmQueries;
import dev.basalt.bench.compare.Results;
import dev.basalt.bench.compare.Settings;
import dev.basalt.bench.driver.MixResult;
import dev.basalt.bench.driver.QueryStats;
import dev.basalt.bench.oxigraph.OxigraphInstall;
import dev.basalt.bench.rdf.TripleCounts;
import dev.basalt.bench.store.StoreSetup;

/**
 * Writes {@code docs/benchmarks-compare.md} and the PNG charts beside it ({@link CompareCharts}) from one run's
 * {@link Results}.
 *
 * <p>Not thread-safe: one report, written once on the calling thread.
 */
public final class ReportWriter {

	/** BSBM query names (Q1, Q2, ...) by their number. */
	static final Comparator<String> BY_QUERY_NUMBER = Comparator
			.comparingInt(q -> Integer.parseInt(q.substring(1)));

	private final Results r;
	private final Settings s;
	private final StringBuilder md = new StringBuilder();

	public ReportWriter(Results results) {
		this.r = results;
		this.s = results.settings;
	}

	public void write() {
		try {
			Files.createDirectories(s.reportFile.toAbsolutePath().getParent());
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot create the report directory for " + s.reportFile, e);
		}
		new CompareCharts(r).write();
		header();
		method();
		crossCheck();
		nativeEvaluation();
		bsbmLoad();
		bsbmThroughput();
		bsbmQueryTimes();
		lubm();
		datasets();
		try {
			Files.writeString(s.reportFile, md.toString());
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot write report " + s.reportFile, e);
		}
	}

	private void header() {
		line("# Benchmarks");
		line();
		line("Basalt's BSBM (Explore) and LUBM comparison with its peers. Everything on this page — tables, "
				+ "charts and dataset figures — was produced by one run of the command below; do not edit it by hand, "
				+ "rerun it. Scale `" + s.scale + "`, run finished "
				+ ZonedDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME.withLocale(Locale.ROOT))
				+ String.format(Locale.ROOT, ", total %.1f minutes.", r.totalSeconds / 60));
		line();
		line("Other measurements, each with its own command and the peers measured beside it: the storage layer "
				+ "against H2 MVStore (JMH) in [benchmarks-store.md](benchmarks-store.md), the loaders of Basalt, "
				+ "LmdbStore and Oxigraph in [benchmarks-load.md](benchmarks-load.md), RDF4J Server under load in "
				+ "[benchmarks-server.md](benchmarks-server.md), static versus runtime join ordering in "
				+ "[benchmarks-ordering.md](benchmarks-ordering.md), nested groups after a selective pattern in "
				+ "[benchmarks-nested-groups.md](benchmarks-nested-groups.md), and hash and merge joins of large "
				+ "analytic queries in [benchmarks-analytic.md](benchmarks-analytic.md).");
		line();
		line("## Command");
		line();
		line("From the project root, with `shared/` beside the checkout (for the LUBM ontology):");
		line();
		line("    mvn -q -B install -DskipTests && " + s.commandLine);
		line();
		line("The 10M-triple comparison is the same with `--scale 10m` (BSBM with 28,480 products, LUBM(70); a larger "
				+ "`-Xmx`, e.g. 12g, if MemoryStore should take part, otherwise it is skipped). All stores run in one JVM, "
				+ "so the heap figures below are per load, not a bound per store; to check that one store works within a "
				+ "heap bound, run its part alone in a JVM of that size, e.g. `java -Xmx1g -jar "
				+ "bench/target/basalt-bench.jar compare --scale 10m --stores basalt --universities 0` "
				+ "([benchmarks-10m.md](benchmarks-10m.md)). "
				+ "Adding `oxigraph` to `--stores` measures Oxigraph " + OxigraphInstall.VERSION
				+ " too: the bench installs it from PyPI into a virtual environment under the work directory "
				+ "(`--python` names the interpreter), loads it with `oxigraph load` and queries `oxigraph serve` on "
				+ "127.0.0.1; it takes part in the BSBM cross-check and mixes, not in LUBM. At `--scale 100m` (BSBM "
				+ "with 284,826 products) run Basalt within `-Xmx2g`, e.g. `java -Xmx2g -jar "
				+ "bench/target/basalt-bench.jar compare --scale 100m --stores basalt,lmdb-osp --universities 0 "
				+ "--report docs/benchmarks-100m.md`; `--load-limit lmdb-osp=SECONDS` (or a UTC instant) stops a "
				+ "store's load at that limit, rolls it back and leaves the store out of the run with the triples it "
				+ "had read, and `cross-check-evaluators` cross-checks the answers of a Basalt store kept with "
				+ "`--keep-data` between its native engine and RDF4J's evaluator when no second store holds the data. "
				+ "`java -jar bench/target/basalt-bench.jar compare --help` lists every option. Why LUBM has a per-query "
				+ "time limit: [benchmarks-lubm.md](benchmarks-lubm.md).");
		line();
		line("## Machine and JVM");
		line();
		line("| | |");
		line("|---|---|");
		line("| CPU | " + MachineInfo.cpuModel() + ", " + MachineInfo.processors() + " processors available to the JVM |");
		line("| Memory | " + mb(MachineInfo.physicalMemoryBytes()) + " physical |");
		line("| OS | " + MachineInfo.os() + " |");
		line("| JVM | " + MachineInfo.jvm() + " |");
		line("| JVM arguments | `" + String.join(" ", MachineInfo.jvmArguments()) + "` |");
		line("| Max heap | " + mb(MachineInfo.maxHeapBytes()) + " |");
		line("| GC | " + MachineInfo.garbageCollectors() + " |");
		line();
		line("## Stores");
		line();
		line("| Store | Setup |");
		line("|---|---|");
		for (StoreSetup st : r.stores) {
			line("| " + st.id() + " | " + st.description() + " |");
		}
		r.skippedStores.forEach((id, why) -> line("| " + id + " | skipped: " + why + " |"));
		line();
	}

	private void method() {
		line("## Method");
		line();
		line(String.format(Locale.ROOT,
				"- Data: BSBM with %,d products (%,d triples) and LUBM(%d, %d) (%s triples), generated by this module "
						+ "with seed %d, loaded into every Java store from the same N-Triples file in one transaction "
						+ "(isolation NONE); Oxigraph, when it takes part, loads the same file with `oxigraph load`.",
				s.products, r.bsbmCounts.total(), s.universities, s.seed,
				r.lubmCounts == null ? "no" : String.format(Locale.ROOT, "%,d", r.lubmCounts.total()), s.seed));
		line(String.format(Locale.ROOT,
				"- BSBM warm-up: per store, %d mixes or %.0f s of the first mix with 1 client, whichever ends first, "
						+ "then a tenth of that (%d mixes or %.0f s) for each further mix; the warm-up mixes each store "
						+ "actually completed are in the throughput table. A store that completes fewer than ~200 "
						+ "warm-up mixes may still be warming up in the first measured run; the median of the runs "
						+ "damps that.",
				s.warmupMixes, s.warmupMaxSeconds, Math.max(1, s.warmupMixes / 10), Math.max(1, s.warmupMaxSeconds / 6)));
		line(String.format(Locale.ROOT,
				"- BSBM measurement: %d runs of %.1f s per store, mix and client count (%s); the stores are "
						+ "interleaved (run 1 of every store, then run 2, ...; the order rotates each run). A phase "
						+ "counts the mixes completed; QMpH = mixes × 3600 / wall-clock seconds. The tables give the "
						+ "median of the runs and their range [min–max].",
				s.runs, s.measureSeconds, s.clients));
		line("- Mixes: `full` is the BSBM V3 Explore mix (25 queries: Q1, Q2×6, Q3, Q4, Q5×2, Q7×4, Q8×2, Q9×4, "
				+ "Q10×2, Q11, Q12; V3 has no Q6 in the mix); `reduced` is the full mix without Q5 (and Q6), as "
				+ "bigdata reported BSBM.");
		line("- Cross-check: every one of the 12 Explore queries (Q6 included) runs with " + s.crossCheckInstances
				+ " parameter sets on every store, and each store's result counts must equal the first store's; "
				+ "likewise the 14 LUBM queries. A disagreement fails the run (exit code 2).");
		line("- LUBM: per store, a plain load (load rate), then a fresh store wrapped in RDF4J's "
				+ "`SchemaCachingRDFSInferencer`, the ontology loaded, then the data (load + RDFS closure time); "
				+ "the 14 queries run on the closed store, once to count, then " + s.lubmRepeats
				+ " timed runs (median; a query slower than 3 s on its first run is timed by that run alone). "
				+ "A query still running after " + s.lubmQueryTimeoutSeconds + " s (`--lubm-timeout`) is stopped and "
				+ "shown as a timeout; the cross-check lists it as not compared. "
				+ (s.lubmPlainLoad ? "" : "The plain (non-inferring) LUBM load is skipped to stay within the budget "
						+ "(`--lubm-plain-load` adds it); bytes per triple are those of the closed store. ")
				+ "Only RDFS is inferred, so queries that need OWL (e.g. Q11-Q13) return "
				+ "fewer answers than in the LUBM answer set; the counts must still agree between stores.");
		line("- Peak heap: sum of the heap pools' peaks during the load (an upper bound, includes garbage); "
				+ "retained heap: heap in use after a full GC, after the load minus before it.");
		line("- Defaults are those of `--scale " + s.scale + "` and fit the 15-minute budget at 1M on 2 cores; more "
				+ "warm-up and longer runs reduce the noise (`--warmup-mixes`, `--warmup-seconds`, `--runs`, "
				+ "`--seconds`).");
		line();
		line("Charts: [load rate](" + s.chartName("load") + "), [bytes per triple](" + s.chartName("bytes")
				+ "), [QMpH](" + s.chartName("qmph") + "), [BSBM per-query times](" + s.chartName("queries") + ")"
				+ (r.lubm.isEmpty() ? "" : ", [LUBM query times](" + s.chartName("lubm-queries") + ")") + ".");
		line();
		line("![Load rate](" + s.chartName("load") + ")");
		line();
		line("![Bytes per triple](" + s.chartName("bytes") + ")");
		line();
		line("![QMpH](" + s.chartName("qmph") + ")");
		line();
		line("![BSBM per-query times](" + s.chartName("queries") + ")");
		line();
	}

	private void crossCheck() {
		line("## Result cross-check");
		line();
		if (r.crossCheckPassed() && r.crossCheckTimeouts.isEmpty()) {
			line("**Passed**: all stores returned the same result counts for all " + BsbmQueries.ALL.size()
					+ " BSBM queries" + (r.lubm.isEmpty() ? "" : " and all LUBM queries") + ".");
		} else if (r.crossCheckPassed()) {
			line("**Passed for every answer, but not complete**: all stores that answered returned the same result "
					+ "counts; these queries were stopped at the time limit and could not be compared:");
			line();
			r.crossCheckTimeouts.forEach(f -> line("- " + f));
		} else {
			line("**FAILED** — a wrong answer is a failure, not a speed:");
			line();
			r.crossCheckFailures.forEach(f -> line("- " + f));
		}
		if (!r.crossCheckNotes.isEmpty()) {
			line();
			r.crossCheckNotes.forEach(f -> line("- " + f));
		}
		if (!r.crossCheckRechecked.isEmpty()) {
			line();
			line("Counted over the same closure loaded as explicit statements (the timing tables keep the timeout):");
			line();
			r.crossCheckRechecked.forEach(f -> line("- " + f));
		}
		line();
		line("Result counts summed over the cross-check's parameter sets:");
		line();
		tableHeader("Query", r.stores.stream().map(StoreSetup::id).toList());
		r.bsbmCrossCheck.forEach((q, perStore) -> {
			List<String> cells = new ArrayList<>();
			for (StoreSetup st : r.stores) {
				cells.add(String.format(Locale.ROOT, "%,d", perStore.getOrDefault(st, -1L)));
			}
			row("BSBM " + q, cells);
		});
		line();
	}

	private void nativeEvaluation() {
		if (r.nativeFallbacks.isEmpty()) {
			return;
		}
		line("## Native evaluation");
		line();
		line("Basalt evaluates queries with its own engine and leaves what it does not support to RDF4J's evaluator; "
				+ "each such fallback is counted by the store (`BasaltStore.getNativeQueryStats()`). Counted while "
				+ "every BSBM query ran with the cross-check's parameter sets and while every LUBM query ran once:");
		line();
		List<String> fallbacks = r.nativeFallbackList();
		if (fallbacks.isEmpty()) {
			line("**No fallbacks**: all " + r.nativeFallbacks.size() + " queries ran fully natively on every Basalt "
					+ "store.");
		} else {
			line("**" + fallbacks.size() + " fallbacks** (query on store: count by \"node type: reason\"); every "
					+ "other query ran fully natively:");
			line();
			fallbacks.forEach(f -> line("- " + f));
		}
		line();
	}

	private void bsbmLoad() {
		line("## BSBM load");
		line();
		tableHeader("Store", List.of("Triples", "Load s", "Triples/s", "Bytes on disk", "Bytes/triple",
				"Peak heap (load)", "Retained heap"));
		r.bsbmLoads.forEach((st, l) -> row(st.id(), List.of(String.format(Locale.ROOT, "%,d", l.triples()),
				String.format(Locale.ROOT, "%.1f", l.seconds()), String.format(Locale.ROOT, "%,.0f", l.triplesPerSecond()),
				st.persistent() ? String.format(Locale.ROOT, "%,d", l.bytesOnDisk()) : "in memory",
				st.persistent() ? String.format(Locale.ROOT, "%.1f", l.bytesPerTriple()) : "–",
				st.inProcess() ? mb(l.peakHeapBytes()) : "–", st.inProcess() ? mb(l.retainedHeapBytes()) : "–")));
		line();
		if (r.oxigraph != null) {
			Results.Oxigraph o = r.oxigraph;
			long triples = o.load.triples();
			line(String.format(Locale.ROOT, "Oxigraph's load is the whole `oxigraph load` process (peak RSS %s; no JVM "
					+ "heap). Its server rewrites the files the loader wrote: bytes on disk right after the load %,d "
					+ "(%.1f/triple, in the table), once `oxigraph serve` answered %,d (%.1f/triple), after the server "
					+ "stopped at the end of the run %s. The Java stores answer queries in-process; Oxigraph over HTTP "
					+ "on 127.0.0.1 (SPARQL protocol, RDF4J's SPARQLRepository as the client), so its query times "
					+ "include the protocol: [benchmarks-server.md](benchmarks-server.md) measures Basalt over HTTP.",
					mb(o.peakRssBytes), o.load.bytesOnDisk(), o.load.bytesPerTriple(), o.bytesAfterStart,
					(double) o.bytesAfterStart / triples, o.bytesAfterStop < 0 ? "not measured"
							: String.format(Locale.ROOT, "%,d (%.1f/triple)", o.bytesAfterStop,
									(double) o.bytesAfterStop / triples)));
			line();
		}
	}

	private void bsbmThroughput() {
		line("## BSBM throughput (QMpH)");
		line();
		line("Median [min–max] over the measured runs.");
		line();
		List<String> columns = new ArrayList<>();
		for (String mix : s.mixes) {
			for (int c : s.clients) {
				columns.add(mix + ", " + c + " client" + (c == 1 ? "" : "s"));
			}
		}
		columns.add("Warm-up mixes");
		tableHeader("Store", columns);
		for (StoreSetup st : r.stores) {
			List<String> cells = new ArrayList<>();
			for (String mix : s.mixes) {
				for (int c : s.clients) {
					Stats q = qmph(r, st, mix, c);
					cells.add(String.format(Locale.ROOT, "%,.0f [%,.0f–%,.0f]", q.median(), q.min(), q.max()));
				}
			}
			List<String> warm = new ArrayList<>();
			r.warmups.getOrDefault(st, Map.of()).forEach((mix, w) -> warm.add(String.format(Locale.ROOT,
					"%s %d in %.0f s", mix, w.mixes(), w.elapsedSeconds())));
			cells.add(String.join(", ", warm));
			row(st.id(), cells);
		}
		line();
	}

	/** The query mixes per hour of the measured runs of a store, mix and client count in {@code r}. */
	static Stats qmph(Results r, StoreSetup st, String mix, int clients) {
		List<MixResult> runs = r.bsbmRuns.getOrDefault(st, Map.of()).getOrDefault(mix, Map.of()).getOrDefault(clients,
				List.of());
		return Stats.of(runs.stream().map(MixResult::qmph).toList());
	}

	/** Per-query statistics pooled over all measured runs of a store, mix and client count in {@code r}. */
	static Map<String, QueryStats> pooled(Results r, StoreSetup st, String mix, int clients) {
		Map<String, QueryStats> out = new java.util.TreeMap<>(BY_QUERY_NUMBER);
		for (MixResult m : r.bsbmRuns.getOrDefault(st, Map.of()).getOrDefault(mix, Map.of()).getOrDefault(clients,
				List.of())) {
			m.perQuery().forEach((q, qs) -> out.computeIfAbsent(q, k -> new QueryStats()).merge(qs));
		}
		return out;
	}

	private void bsbmQueryTimes() {
		line("## BSBM per-query times");
		line();
		String mix = s.mixes.get(0);
		int clients = s.clients.get(0);
		line("Mean [min–max] milliseconds per execution, `" + mix + "` mix, " + clients
				+ " client, pooled over the measured runs:");
		line();
		tableHeader("Query", r.stores.stream().map(StoreSetup::id).toList());
		java.util.TreeSet<String> queries = new java.util.TreeSet<>(BY_QUERY_NUMBER);
		r.stores.forEach(st -> queries.addAll(pooled(r, st, mix, clients).keySet()));
		for (String q : queries) {
			List<String> cells = new ArrayList<>();
			for (StoreSetup st : r.stores) {
				QueryStats qs = pooled(r, st, mix, clients).get(q);
				cells.add(qs == null ? "–"
						: String.format(Locale.ROOT, "%.2f [%.2f–%.1f]", qs.meanMillis(), qs.minMillis(), qs.maxMillis()));
			}
			row(q, cells);
		}
		line();
	}

	private void lubm() {
		line("## LUBM");
		line();
		if (r.lubmCounts == null) {
			line("LUBM was not run (`--universities 0`).");
			line();
			return;
		}
		r.lubmNotRun.forEach((id, why) -> {
			line("Not run on " + id + ": " + why + ".");
			line();
		});
		if (r.lubmInferenceUnavailable != null) {
			line("**Note:** " + r.lubmInferenceUnavailable + ".");
			line();
		}
		tableHeader("Store", List.of("Explicit triples", "Plain load s", "Plain triples/s", "Load + RDFS closure s",
				"Inferred triples", "Closure (explicit+inferred)/s", "Bytes/triple (closed store)"));
		r.lubm.forEach((st, l) -> row(st.id(), List.of(String.format(Locale.ROOT, "%,d", l.explicitTriples()),
				l.plainLoad() == null ? "–" : String.format(Locale.ROOT, "%.1f", l.plainLoad().seconds()),
				l.plainLoad() == null ? "–" : String.format(Locale.ROOT, "%,.0f", l.plainLoad().triplesPerSecond()),
				String.format(Locale.ROOT, "%.1f", l.inferenceSeconds()),
				String.format(Locale.ROOT, "%,d", l.inferredTriples()),
				String.format(Locale.ROOT, "%,.0f", l.closureTriplesPerSecond()),
				st.persistent() ? String.format(Locale.ROOT, "%.1f", l.closedBytesPerTriple()) : "–")));
		line();
		line("Answer counts and median query time (ms) per store:");
		line();
		tableHeader("Query", r.lubm.keySet().stream().map(StoreSetup::id).toList());
		if (!r.lubm.isEmpty()) {
			for (String q : r.lubm.values().iterator().next().medianMillis().keySet()) {
				List<String> cells = new ArrayList<>();
				r.lubm.forEach((st, l) -> cells.add(l.timedOut().contains(q)
						? String.format(Locale.ROOT, "**timeout** (> %d s)", s.lubmQueryTimeoutSeconds)
						: String.format(Locale.ROOT, "%,d (%.1f ms)", l.counts().get(q), l.medianMillis().get(q))));
				row(q, cells);
			}
		}
		line();
		line("![LUBM query times](" + s.chartName("lubm-queries") + ")");
		line();
	}

	private void datasets() {
		line("## Generated data");
		line();
		line("Compare these figures with the official generators' output for the same scale.");
		line();
		BsbmModel m = new BsbmModel(s.products, s.seed);
		line(String.format(Locale.ROOT,
				"BSBM, %,d products (seed %d): %,d triples, generated in %.1f s. Product types %,d; product features %,d; "
						+ "producers %,d; vendors %,d; offers %,d; rating sites %,d; reviewers %,d; reviews %,d.",
				s.products, s.seed, r.bsbmCounts.total(), r.bsbmGenerateSeconds, m.productTypes(), m.productFeatures(),
				m.producers(), m.vendors(), m.offers(), m.ratingSites(), m.persons(), m.reviews()));
		line();
		counts(r.bsbmCounts);
		if (r.lubmCounts != null) {
			line(String.format(Locale.ROOT, "LUBM(%d, %d): %,d triples, generated in %.1f s.", s.universities, s.seed,
					r.lubmCounts.total(), r.lubmGenerateSeconds));
			line();
			counts(r.lubmCounts);
		}
	}

	private void counts(TripleCounts c) {
		line("<details><summary>Instances per class and triples per predicate</summary>");
		line();
		tableHeader("Class (rdf:type object)", List.of("Instances"));
		c.perClass().forEach((k, v) -> row("`" + shorten(k) + "`", List.of(String.format(Locale.ROOT, "%,d", v))));
		line();
		tableHeader("Predicate", List.of("Triples"));
		c.perPredicate().forEach((k, v) -> row("`" + shorten(k) + "`", List.of(String.format(Locale.ROOT, "%,d", v))));
		line();
		line("</details>");
		line();
	}

	private static String shorten(String iri) {
		Map<String, String> prefixes = new LinkedHashMap<>();
		prefixes.put("http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/vocabulary/", "bsbm:");
		prefixes.put("http://www4.wiwiss.fu-berlin.de/bizer/bsbm/v01/instances/", "bsbm-inst:");
		prefixes.put("http://www.w3.org/1999/02/22-rdf-syntax-ns#", "rdf:");
		prefixes.put("http://www.w3.org/2000/01/rdf-schema#", "rdfs:");
		prefixes.put("http://xmlns.com/foaf/0.1/", "foaf:");
		prefixes.put("http://purl.org/dc/elements/1.1/", "dc:");
		prefixes.put("http://purl.org/stuff/rev#", "rev:");
		prefixes.put("http://swat.cse.lehigh.edu/onto/univ-bench.owl#", "ub:");
		for (Map.Entry<String, String> e : prefixes.entrySet()) {
			if (iri.startsWith(e.getKey())) {
				return e.getValue() + iri.substring(e.getKey().length());
			}
		}
		return iri;
	}

	private void tableHeader(String first, List<String> columns) {
		line("| " + first + " | " + String.join(" | ", columns) + " |");
		line("|---" + "|---:".repeat(columns.size()) + "|");
	}

	private void row(String first, List<String> cells) {
		line("| " + first + " | " + String.join(" | ", cells) + " |");
	}

	private static String mb(long bytes) {
		return bytes < 0 ? "unknown" : String.format(Locale.ROOT, "%,d MB", bytes >> 20);
	}

	private void line(String text) {
		md.append(text).append('\n');
	}

	private void line() {
		md.append('\n');
	}
}
