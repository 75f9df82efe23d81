package dev.basalt.bench.process;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs one command to completion as a child process and measures it the way a user's shell would:
 * wall clock from start to exit, and the peak resident set size (RSS) the kernel reports for it.
 *
 * <p>The peak RSS comes from GNU time ({@code /usr/bin/time -f %M -o FILE}), which reads it from the
 * kernel's resource usage of the finished child; where that program is missing the figure is -1 and
 * {@link #rssUnavailableReason()} says why. Standard output and error go to a log file (the last
 * lines are kept in the result for error messages). A command still running at its time limit is
 * killed with its descendants, and the result says so.
 *
 * <p>Not thread-safe; one instance runs one command at a time.
 */
public final class ChildProcess {

	/** GNU time, which reports the peak RSS of the finished child. */
	static final Path GNU_TIME = Path.of("/usr/bin/time");

	private final Path log;
	private final long timeoutSeconds;
	private final Path time;

	/**
	 * @param log            file that receives the command's standard output and error (replaced)
	 * @param timeoutSeconds the child is killed after this many seconds
	 */
	public ChildProcess(Path log, long timeoutSeconds) {
		this(log, timeoutSeconds, GNU_TIME);
	}

	/** A child process without the peak RSS measurement, for set-up steps that are not measured. */
	public static ChildProcess unmeasured(Path log, long timeoutSeconds) {
		return new ChildProcess(log, timeoutSeconds, null);
	}

	/** @param time GNU time, or null not to measure the peak RSS */
	ChildProcess(Path log, long timeoutSeconds, Path time) {
		this.log = log;
		this.timeoutSeconds = timeoutSeconds;
		this.time = time;
	}

	/**
	 * The outcome of one run. {@code peakRssBytes} and {@code cpuSeconds} (user plus system CPU time
	 * of the process and the children it waited for) are -1 when they could not be measured.
	 */
	public record Result(List<String> command, int exitCode, boolean timedOut, double seconds, long peakRssBytes,
			double cpuSeconds, List<String> lastLines, Path log) {

		public boolean succeeded() {
			return exitCode == 0 && !timedOut;
		}

		/** One line for an error message: the command, how it ended, its last output and the log file. */
		public String failure() {
			String how = timedOut ? "was stopped after " + Math.round(seconds) + " s" : "exited with code " + exitCode;
			String tail = lastLines.isEmpty() ? "" : ": " + String.join(" / ", lastLines);
			return "`" + String.join(" ", command) + "` " + how + tail + " (full output in " + log + ")";
		}
	}

	/** Null when the peak RSS can be measured, else the reason it cannot (for the report). */
	public String rssUnavailableReason() {
		if (time == null) {
			return "not measured for this command";
		}
		return Files.isExecutable(time) ? null
				: time + " (GNU time) is missing, so peak RSS is not measured (Debian: apt-get install time)";
	}

	/**
	 * Finds an executable the way a shell does: a name with a slash as it is, otherwise the first match
	 * on the PATH; empty when there is none.
	 */
	public static Optional<Path> executable(String name) {
		if (name.contains("/")) {
			Path p = Path.of(name);
			return Files.isExecutable(p) ? Optional.of(p) : Optional.empty();
		}
		String path = System.getenv().getOrDefault("PATH", "");
		for (String dir : path.split(File.pathSeparator)) {
			if (!dir.isEmpty()) {
				Path p = Path.of(dir, name);
				if (Files.isExecutable(p) && !Files.isDirectory(p)) {
					return Optional.of(p);
				}
			}
		}
		return Optional.empty();
	}

	/** Runs {@code command} in {@code workingDir}; never throws for a failing command, only for I/O errors. */
	public Result run(List<String> command, Path workingDir) {
		Path rssFile = log.resolveSibling(log.getFileName() + ".rss");
		List<String> full = new ArrayList<>();
		boolean measureRss = rssUnavailableReason() == null;
		if (measureRss) {
			full.addAll(List.of(time.toString(), "-f", "%M %U %S", "-o", rssFile.toString()));
		}
		full.addAll(command);
		try {
			Files.createDirectories(log.toAbsolutePath().getParent());
			Files.deleteIfExists(rssFile);
			ProcessBuilder pb = new ProcessBuilder(full).directory(workingDir.toFile()).redirectErrorStream(true)
					.redirectOutput(log.toFile());
			long start = System.nanoTime();
			Process p = pb.start();
			boolean finished = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
			if (!finished) {
				p.descendants().forEach(ProcessHandle::destroyForcibly);
				p.destroyForcibly();
				p.waitFor();
			}
			double seconds = (System.nanoTime() - start) / 1e9;
			double[] measured = measureRss && finished ? readTime(rssFile) : new double[] {-1, -1};
			return new Result(List.copyOf(command), p.exitValue(), !finished, seconds, (long) measured[0], measured[1],
					lastLines(log, 3), log);
		} catch (IOException e) {
			throw new UncheckedIOException("Cannot run `" + String.join(" ", command) + "` in " + workingDir, e);
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while waiting for `" + String.join(" ", command) + "`", e);
		}
	}

	/**
	 * Peak RSS in bytes and user plus system CPU seconds from GNU time's "%M %U %S" line, -1 each if
	 * missing. GNU time writes "Command exited with non-zero status N" before the figures when the
	 * child failed.
	 */
	private static double[] readTime(Path rssFile) throws IOException {
		if (!Files.exists(rssFile)) {
			return new double[] {-1, -1};
		}
		List<String> lines = Files.readAllLines(rssFile, StandardCharsets.UTF_8);
		for (int i = lines.size() - 1; i >= 0; i--) {
			String l = lines.get(i).trim();
			if (l.matches("\\d+ [\\d.]+ [\\d.]+")) {
				String[] f = l.split(" ");
				return new double[] {Long.parseLong(f[0]) * 1024.0, Double.parseDouble(f[1]) + Double.parseDouble(f[2])};
			}
		}
		return new double[] {-1, -1};
	}

	/** The last {@code n} non-blank lines of {@code file}, read as UTF-8 with malformed bytes replaced. */
	public static List<String> lastLines(Path file, int n) throws IOException {
		if (!Files.exists(file)) {
			return List.of();
		}
		String text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
		List<String> lines = text.lines().map(String::strip).filter(l -> !l.isEmpty()).toList();
		return lines.subList(Math.max(0, lines.size() - n), lines.size());
	}
}
