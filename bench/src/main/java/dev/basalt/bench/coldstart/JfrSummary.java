package dev.basalt.bench.coldstart;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordingFile;

/**
 * Where a JVM's warm-up went, from a JDK Flight Recorder file (recorded with {@code settings=profile}):
 * over the events from {@code from} on, the JIT compilations by method (count, time, tier, code size)
 * and by package family, the deoptimizations by method and reason (a method deoptimized again and
 * again, or a {@code class_check}/{@code bimorphic} reason, marks a call site whose receivers vary),
 * and the execution samples of every thread by package family and by top frame. Prints Markdown.
 *
 * <p>Not thread-safe: one summary per instance, built on the calling thread.
 */
final class JfrSummary {
	/** Time and count per key. */
	private static final class Tally {
		long count;
		double millis;
		long bytes;
		int maxLevel;
	}

	private final Map<String, Tally> compilesByMethod = new HashMap<>();
	private final Map<String, Tally> compilesByFamily = new HashMap<>();
	private final Map<Integer, Tally> compilesByLevel = new HashMap<>();
	private final Map<String, Tally> deoptsByMethodReason = new HashMap<>();
	private final Map<String, Tally> deoptsByReason = new HashMap<>();
	private final Map<String, Tally> samplesByFamily = new HashMap<>();
	private final Map<String, Tally> samplesByTop = new HashMap<>();
	private long samples;

	/** Reads {@code file}, keeping events that start at or after {@code from}. */
	static JfrSummary of(Path file, Instant from) throws IOException {
		JfrSummary s = new JfrSummary();
		try (RecordingFile r = new RecordingFile(file)) {
			while (r.hasMoreEvents()) {
				RecordedEvent e = r.readEvent();
				if (e.getStartTime().isBefore(from)) {
					continue;
				}
				switch (e.getEventType().getName()) {
					case "jdk.Compilation" -> s.compilation(e);
					case "jdk.Deoptimization" -> s.deoptimization(e);
					case "jdk.ExecutionSample" -> s.sample(e);
					default -> {
					}
				}
			}
		}
		return s;
	}

	private void compilation(RecordedEvent e) {
		RecordedMethod m = e.getValue("method");
		String name = name(m);
		double millis = e.getDuration().toNanos() / 1e6;
		int level = e.getInt("compileLevel");
		long bytes = e.getLong("codeSize");
		for (Tally t : List.of(compilesByMethod.computeIfAbsent(name, k -> new Tally()),
				compilesByFamily.computeIfAbsent(family(m.getType().getName()), k -> new Tally()),
				compilesByLevel.computeIfAbsent(level, k -> new Tally()))) {
			t.count++;
			t.millis += millis;
			t.bytes += bytes;
			t.maxLevel = Math.max(t.maxLevel, level);
		}
	}

	private void deoptimization(RecordedEvent e) {
		RecordedMethod m = e.getValue("method");
		String reason = e.getString("reason");
		deoptsByMethodReason.computeIfAbsent(name(m) + " | " + reason + " | " + e.getString("action"),
				k -> new Tally()).count++;
		deoptsByReason.computeIfAbsent(reason, k -> new Tally()).count++;
	}

	private void sample(RecordedEvent e) {
		RecordedStackTrace st = e.getStackTrace();
		if (st == null || st.getFrames().isEmpty()) {
			return;
		}
		samples++;
		RecordedFrame top = st.getFrames().get(0);
		samplesByTop.computeIfAbsent(name(top.getMethod()) + " [" + top.getType() + "]", k -> new Tally()).count++;
		samplesByFamily.computeIfAbsent(family(top.getMethod().getType().getName()), k -> new Tally()).count++;
	}

	private static String name(RecordedMethod m) {
		return m.getType().getName() + "." + m.getName();
	}

	/** A class's family: Basalt's module, or the library's leading package names. */
	static String family(String className) {
		String[] p = className.split("\\.");
		if (p.length >= 3 && p[0].equals("dev") && p[1].equals("basalt")) {
			return "dev.basalt." + p[2];
		}
		if (p.length >= 4 && p[0].equals("org") && p[1].equals("eclipse")) {
			return String.join(".", p[0], p[1], p[2], p[3]);
		}
		return p.length >= 3 ? String.join(".", p[0], p[1], p[2]) : className;
	}

	/** The summary as Markdown, each list cut at {@code top} rows. */
	void print(int top, Consumer<String> out) {
		double compileMillis = compilesByLevel.values().stream().mapToDouble(t -> t.millis).sum();
		long compiles = compilesByLevel.values().stream().mapToLong(t -> t.count).sum();
		out.accept(String.format(Locale.ROOT, "compilations: %,d, %.0f ms in all; deoptimizations: %,d; execution samples: %,d",
				compiles, compileMillis, deoptsByReason.values().stream().mapToLong(t -> t.count).sum(), samples));
		out.accept("");
		out.accept("| tier | compilations | ms | code bytes |");
		out.accept("|---:|---:|---:|---:|");
		compilesByLevel.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> out.accept(String.format(
				Locale.ROOT, "| %d | %,d | %.0f | %,d |", e.getKey(), e.getValue().count, e.getValue().millis,
				e.getValue().bytes)));
		table("compilations by package", "package", compilesByFamily, top, out, true);
		table("compilations by method (by time)", "method", compilesByMethod, top, out, true);
		table("deoptimizations by method, reason, action", "method | reason | action", deoptsByMethodReason, top, out,
				false);
		table("deoptimizations by reason", "reason", deoptsByReason, top, out, false);
		table("execution samples by top frame's package", "package", samplesByFamily, top, out, false);
		table("execution samples by top frame", "method [frame type]", samplesByTop, top, out, false);
	}

	private static void table(String title, String keyHead, Map<String, Tally> tallies, int top, Consumer<String> out,
			boolean timed) {
		out.accept("");
		out.accept("**" + title + "**");
		out.accept("");
		out.accept(timed ? "| " + keyHead + " | count | ms | code bytes | max tier |" : "| " + keyHead + " | count |");
		out.accept(timed ? "|---|---:|---:|---:|---:|" : "|---|---:|");
		List<Map.Entry<String, Tally>> rows = new ArrayList<>(tallies.entrySet());
		rows.sort(Comparator.comparingDouble((Map.Entry<String, Tally> e) -> timed ? e.getValue().millis
				: e.getValue().count).reversed());
		for (Map.Entry<String, Tally> e : rows.subList(0, Math.min(top, rows.size()))) {
			Tally t = e.getValue();
			out.accept(timed
					? String.format(Locale.ROOT, "| %s | %,d | %.0f | %,d | %d |", e.getKey(), t.count, t.millis, t.bytes,
							t.maxLevel)
					: String.format(Locale.ROOT, "| %s | %,d |", e.getKey(), t.count));
		}
	}
}
