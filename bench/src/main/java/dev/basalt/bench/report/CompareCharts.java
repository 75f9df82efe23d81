package dev.basalt.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import dev.basalt.bench.compare.Results;
import dev.basalt.bench.compare.Settings;
import dev.basalt.bench.driver.QueryStats;
import dev.basalt.bench.store.StoreSetup;

/**
 * The PNG charts of a comparison report ({@link ReportWriter}), drawn by {@link Charts} from one run's
 * {@link Results}: load rate (BSBM, and LUBM with and without closure where measured), bytes on disk per
 * triple of the persistent stores, BSBM query mixes per hour per mix and client count (median of the
 * runs), BSBM mean time per query of the first mix and client count, and LUBM median query times. A
 * figure a store does not have is drawn as missing (NaN).
 *
 * <p>Not thread-safe: drawn once, on the calling thread of the report.
 */
final class CompareCharts {
	private final Results r;
	private final Settings s;

	CompareCharts(Results results) {
		this.r = results;
		this.s = results.settings;
	}

	/** Draws every chart of the report into the files {@code Settings.chartFile} names. */
	void write() {
		List<String> names = r.stores.stream().map(StoreSetup::id).toList();
		Map<String, List<Double>> load = new LinkedHashMap<>();
		load.put("BSBM", r.stores.stream().map(st -> r.bsbmLoads.get(st).triplesPerSecond()).toList());
		if (!r.lubm.isEmpty()) {
			if (s.lubmPlainLoad) {
				load.put("LUBM", r.stores.stream().map(st -> lubmLoad(st, true)).toList());
			}
			load.put("LUBM + RDFS closure", r.stores.stream().map(st -> lubmLoad(st, false)).toList());
		}
		Charts.bars(s.chartFile("load"), "Load rate", "triples per second", names, load, false);

		List<StoreSetup> persistent = r.stores.stream().filter(StoreSetup::persistent).toList();
		Map<String, List<Double>> bytes = new LinkedHashMap<>();
		bytes.put("BSBM", persistent.stream().map(st -> r.bsbmLoads.get(st).bytesPerTriple()).toList());
		if (!r.lubm.isEmpty()) {
			bytes.put("LUBM (closed store)", persistent.stream()
					.map(st -> r.lubm.containsKey(st) ? r.lubm.get(st).closedBytesPerTriple() : Double.NaN)
					.toList());
		}
		Charts.bars(s.chartFile("bytes"), "Bytes on disk per triple", "bytes per triple",
				persistent.stream().map(StoreSetup::id).toList(), bytes, false);

		Map<String, List<Double>> qmph = new LinkedHashMap<>();
		for (String mix : s.mixes) {
			for (int c : s.clients) {
				qmph.put(mix + " mix, " + c + " client" + (c == 1 ? "" : "s"),
						r.stores.stream().map(st -> ReportWriter.qmph(r, st, mix, c).median()).toList());
			}
		}
		Charts.bars(s.chartFile("qmph"), "BSBM Explore query mixes per hour (median of runs)", "QMpH", names, qmph,
				false);

		String mix = s.mixes.get(0);
		int clients = s.clients.get(0);
		TreeSet<String> queries = new TreeSet<>(ReportWriter.BY_QUERY_NUMBER);
		r.stores.forEach(st -> queries.addAll(ReportWriter.pooled(r, st, mix, clients).keySet()));
		Map<String, List<Double>> perQuery = new LinkedHashMap<>();
		for (StoreSetup st : r.stores) {
			Map<String, QueryStats> p = ReportWriter.pooled(r, st, mix, clients);
			perQuery.put(st.id(), queries.stream().map(q -> p.containsKey(q) ? p.get(q).meanMillis() : Double.NaN).toList());
		}
		Charts.bars(s.chartFile("queries"), "BSBM mean time per query (" + mix + " mix, " + clients + " client)",
				"milliseconds (log scale)", new ArrayList<>(queries), perQuery, true);

		if (!r.lubm.isEmpty()) {
			List<String> lq = new ArrayList<>(r.lubm.values().iterator().next().medianMillis().keySet());
			Map<String, List<Double>> lubmTimes = new LinkedHashMap<>();
			r.lubm.forEach((st, l) -> lubmTimes.put(st.id(), lq.stream().map(q -> l.medianMillis().get(q)).toList()));
			Charts.bars(s.chartFile("lubm-queries"), "LUBM median query time (RDFS closure)", "milliseconds (log scale)",
					lq, lubmTimes, true);
		}
	}

	private double lubmLoad(StoreSetup st, boolean plain) {
		Results.Lubm l = r.lubm.get(st);
		if (l == null || (plain && l.plainLoad() == null)) {
			return Double.NaN;
		}
		return plain ? l.plainLoad().triplesPerSecond() : l.closureTriplesPerSecond();
	}
}
