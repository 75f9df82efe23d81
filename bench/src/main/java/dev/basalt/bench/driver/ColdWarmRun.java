package dev.basalt.bench.driver;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Measures one endpoint as a new user meets it and as it runs for long: the first {@code coldMixes}
 * mixes the server answers (cold: meaningful only if the server was just started; none with 0), then warm-up
 * mixes until {@code warmMixes} mixes in all, then {@code runs} timed runs (warm). Each phase's QMpH
 * goes with the CPU seconds per answered query of the bench's own process and, with a server process
 * id, of the server (user + system, its JIT compiler and garbage collector threads included, from
 * {@code /proc}). Progress lines go to {@code out}, each query's with its mean result count per answer in the unit
 * the client counts that query's results in ({@code resultUnit}: e.g. solutions, or bytes for a graph answer the
 * client does not parse). Not thread-safe; one endpoint at a time.
 */
public final class ColdWarmRun {

	/** QMpH and CPU milliseconds per query of one phase; server CPU is NaN without a server pid. */
	public record Phase(String name, MixResult result, double clientMillisPerQuery, double serverMillisPerQuery) {

		long answered() {
			return result.perQuery().values().stream().mapToLong(QueryStats::count).sum();
		}
	}

	/** The cold phase (null with no cold mixes), the warm runs and, over all warm runs, their summary (null with none). */
	public record Outcome(String endpoint, Phase cold, List<Phase> warmRuns, Phase warm) {
	}

	private final MixDriver driver;
	private final Consumer<String> out;
	private final Function<String, String> resultUnit;

	/** Results counted in a unit per query, "results" for all. */
	public ColdWarmRun(MixDriver driver, Consumer<String> out) {
		this(driver, out, q -> "results");
	}

	/** {@code resultUnit}: the unit of query name's result counts, as the client counts them. */
	public ColdWarmRun(MixDriver driver, Consumer<String> out, Function<String, String> resultUnit) {
		this.driver = driver;
		this.out = out;
		this.resultUnit = resultUnit;
	}

	/**
	 * Runs the phases against {@code endpoint} with {@code clients} concurrent clients; {@code
	 * serverPid} may be null.
	 */
	public Outcome run(String endpoint, Supplier<QueryClient> clientOf, Long serverPid, int clients, int coldMixes,
			int warmMixes, int runs, double seconds, long seed) {
		if (coldMixes < 0 || warmMixes < 0 || runs < 0 || clients < 1) {
			throw new IllegalArgumentException("cold mixes, warm mixes and runs must be at least 0, clients at least 1");
		}
		Phase cold = null;
		if (coldMixes > 0) {
			cold = phase("cold (first " + coldMixes + " mixes)", serverPid,
					() -> driver.run(clientOf, clients, (coldMixes + clients - 1) / clients, Double.MAX_VALUE, seed));
			report(endpoint, cold, clients);
		}
		long warmUp = Math.max(0, warmMixes - (cold == null ? 0 : cold.result().mixes()));
		if (warmUp > 0) {
			MixResult w = driver.run(clientOf, clients, (warmUp + clients - 1) / clients, Double.MAX_VALUE, seed + 7);
			out.accept(String.format(Locale.ROOT, "%s warm-up: %d mixes, %,.0f QMpH", endpoint, w.mixes(), w.qmph()));
		}
		List<Phase> warmRuns = new ArrayList<>();
		for (int run = 1; run <= runs; run++) {
			long runSeed = seed + 1000L * run + clients;
			Phase p = phase("warm run " + run, serverPid,
					() -> driver.run(clientOf, clients, Long.MAX_VALUE, seconds, runSeed));
			report(endpoint, p, clients);
			warmRuns.add(p);
		}
		return new Outcome(endpoint, cold, warmRuns, summary(warmRuns));
	}

	private static Phase phase(String name, Long serverPid, Supplier<MixResult> body) {
		long self = ProcessHandle.current().pid();
		double serverBefore = serverPid == null ? 0 : ProcessCpu.seconds(serverPid);
		double clientBefore = ProcessCpu.seconds(self);
		MixResult m = body.get();
		double client = ProcessCpu.seconds(self) - clientBefore;
		double server = serverPid == null ? Double.NaN : ProcessCpu.seconds(serverPid) - serverBefore;
		long answered = m.perQuery().values().stream().mapToLong(QueryStats::count).sum();
		return new Phase(name, m, client * 1000 / answered, server * 1000 / answered);
	}

	/** The warm runs as one phase: all their mixes over all their time, CPU over all their queries. */
	private static Phase summary(List<Phase> runs) {
		if (runs.isEmpty()) {
			return null;
		}
		long mixes = 0;
		double elapsed = 0;
		double client = 0;
		double server = 0;
		long answered = 0;
		Map<String, QueryStats> perQuery = new TreeMap<>();
		for (Phase p : runs) {
			mixes += p.result().mixes();
			elapsed += p.result().elapsedSeconds();
			client += p.clientMillisPerQuery() * p.answered();
			server += p.serverMillisPerQuery() * p.answered();
			answered += p.answered();
			p.result().perQuery().forEach((q, s) -> perQuery.computeIfAbsent(q, k -> new QueryStats()).merge(s));
		}
		MixResult all = new MixResult(runs.get(0).result().clients(), mixes, elapsed, perQuery);
		return new Phase("warm (" + runs.size() + " runs)", all, client / answered, server / answered);
	}

	private void report(String endpoint, Phase p, int clients) {
		String server = Double.isNaN(p.serverMillisPerQuery()) ? ""
				: String.format(Locale.ROOT, ", server CPU %.3f ms/query", p.serverMillisPerQuery());
		out.accept(String.format(Locale.ROOT, "%s %s, %d client(s): %,.0f QMpH (%d mixes, %.1f s), client CPU %.3f ms/query%s",
				endpoint, p.name(), clients, p.result().qmph(), p.result().mixes(), p.result().elapsedSeconds(),
				p.clientMillisPerQuery(), server));
		p.result().perQuery().forEach((q, s) -> out.accept(String.format(Locale.ROOT,
				"    %-4s avg %8.2f ms  min %8.2f  max %8.1f  (%d)  %.1f %s/answer", q, s.meanMillis(), s.minMillis(),
				s.maxMillis(), s.count(), (double) s.results() / s.count(), resultUnit.apply(q))));
	}

	private static String millis(Phase p) {
		return p == null || Double.isNaN(p.serverMillisPerQuery()) ? "-"
				: String.format(Locale.ROOT, "%.3f", p.serverMillisPerQuery());
	}

	private static double qmph(Phase p) {
		return p == null ? Double.NaN : p.result().qmph();
	}

	private static String meanMillis(Phase p, String query) {
		QueryStats s = p == null ? null : p.result().perQuery().get(query);
		return s == null ? "-" : String.format(Locale.ROOT, "%.2f", s.meanMillis());
	}

	private static String figure(String format, double value) {
		return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, format, value);
	}

	/** Markdown tables: cold and warm side by side per endpoint, then each query's mean time. */
	public static List<String> table(List<Outcome> outcomes) {
		List<String> lines = new ArrayList<>();
		lines.add("| endpoint | cold QMpH | cold server CPU ms/query | warm QMpH | warm server CPU ms/query | warm/cold QMpH |");
		lines.add("|---|---:|---:|---:|---:|---:|");
		for (Outcome o : outcomes) {
			double cold = qmph(o.cold());
			double warm = qmph(o.warm());
			lines.add(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s |", o.endpoint(), figure("%,.0f", cold),
					millis(o.cold()), figure("%,.0f", warm), millis(o.warm()), figure("%.2f", warm / cold)));
		}
		lines.add("");
		StringBuilder head = new StringBuilder("| query |");
		StringBuilder rule = new StringBuilder("|---|");
		for (int i = 0; i < outcomes.size(); i++) {
			head.append(" ").append(i + 1).append(" cold ms | ").append(i + 1).append(" warm ms |");
			rule.append("---:|---:|");
		}
		lines.add(head.toString());
		lines.add(rule.toString());
		Set<String> names = new TreeSet<>();
		for (Outcome o : outcomes) {
			for (Phase p : new Phase[] { o.cold(), o.warm() }) {
				if (p != null) {
					names.addAll(p.result().perQuery().keySet());
				}
			}
		}
		List<String> queries = new ArrayList<>(names);
		queries.sort(Comparator.comparing((String q) -> q.length()).thenComparing(q -> q));
		for (String q : queries) {
			StringBuilder row = new StringBuilder("| " + q + " |");
			for (Outcome o : outcomes) {
				row.append(" ").append(meanMillis(o.cold(), q)).append(" | ").append(meanMillis(o.warm(), q)).append(" |");
			}
			lines.add(row.toString());
		}
		return lines;
	}
}
