package dev.basalt.bench.coldstart;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Markdown tables of cold-start runs: per run, the server CPU per query over the first {@code cold}
 * queries against the warm figure (the last {@code warm} queries of the run) and their ratio, the JIT
 * compiler threads' and GC threads' share, the compile count and the start-up cost; then per block of
 * queries each run's server CPU and compiler CPU per query.
 *
 * <p>Stateless; thread-safe.
 */
final class ColdStartReport {

	private ColdStartReport() {
	}

	/** Milliseconds of CPU per query over blocks [from, to) of a run; the figure kind picked by {@code part}. */
	private static double perQuery(List<ColdStartRun.Block> blocks, long fromQuery, long toQuery, int part) {
		double cpu = 0;
		long queries = 0;
		long previous = 0;
		for (ColdStartRun.Block b : blocks) {
			long n = b.queries() - previous;
			if (previous >= fromQuery && b.queries() <= toQuery) {
				cpu += switch (part) {
					case 0 -> b.cpu().total();
					case 1 -> b.cpu().compiler();
					case 2 -> b.cpu().gc();
					default -> b.compileSeconds();
				};
				queries += n;
			}
			previous = b.queries();
		}
		return queries == 0 ? Double.NaN : cpu * 1000 / queries;
	}

	private static long compiles(List<ColdStartRun.Block> blocks, long toQuery) {
		return blocks.stream().filter(b -> b.queries() <= toQuery).mapToLong(ColdStartRun.Block::compiles).sum();
	}

	/** The summary table, one row per run. */
	static List<String> summary(List<ColdStartRun.Run> runs, long cold, long warm) {
		List<String> lines = new ArrayList<>();
		lines.add(String.format(Locale.ROOT, "| configuration | start s (CPU s) | first %,d: server CPU ms/query | of it JIT "
				+ "compiler threads | GC threads | compiles | JIT elapsed ms/query | warm (last %,d): CPU ms/query | cold/warm |",
				cold, warm));
		lines.add("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
		for (ColdStartRun.Run r : runs) {
			long total = r.blocks().get(r.blocks().size() - 1).queries();
			double c = perQuery(r.blocks(), 0, cold, 0);
			double w = perQuery(r.blocks(), total - warm, total, 0);
			lines.add(String.format(Locale.ROOT, "| %s #%d | %.1f (%.1f) | %.3f | %.3f | %.3f | %,d | %.3f | %.3f | %.2f |",
					r.config().label(), r.repetition(), r.startSeconds(), r.startCpuSeconds(), c,
					perQuery(r.blocks(), 0, cold, 1), perQuery(r.blocks(), 0, cold, 2), compiles(r.blocks(), cold),
					perQuery(r.blocks(), 0, cold, 3), w, c / w));
		}
		return lines;
	}

	/** Per block: each run's server CPU ms/query and, in parentheses, its compiler threads' ms/query. */
	static List<String> blocks(List<ColdStartRun.Run> runs) {
		List<String> lines = new ArrayList<>();
		StringBuilder head = new StringBuilder("| queries |");
		StringBuilder rule = new StringBuilder("|---:|");
		for (ColdStartRun.Run r : runs) {
			head.append(' ').append(r.config().label()).append(" #").append(r.repetition()).append(" CPU (JIT) |");
			rule.append("---:|");
		}
		lines.add(head.toString());
		lines.add(rule.toString());
		int rows = runs.stream().mapToInt(r -> r.blocks().size()).max().orElse(0);
		for (int i = 0; i < rows; i++) {
			int at = i;
			long end = runs.stream().filter(r -> at < r.blocks().size()).findFirst().orElseThrow().blocks().get(i)
					.queries();
			StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "| %,d |", end));
			for (ColdStartRun.Run r : runs) {
				if (i >= r.blocks().size()) {
					row.append(" - |");
					continue;
				}
				ColdStartRun.Block b = r.blocks().get(i);
				long n = b.queries() - (i == 0 ? 0 : r.blocks().get(i - 1).queries());
				row.append(String.format(Locale.ROOT, " %.3f (%.3f) |", b.cpu().total() * 1000 / n,
						b.cpu().compiler() * 1000 / n));
			}
			lines.add(row.toString());
		}
		return lines;
	}
}
