package dev.basalt.bench.federation;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A long-running child process (a Basalt server, the federation's cluster command) whose output is
 * copied to a log file and kept in memory, so the caller can wait for the line that says it is
 * ready and read the addresses it printed. {@link #close()} sends SIGTERM and waits, as Ctrl-C
 * would, so the child's own shutdown hooks stop what it started.
 *
 * <p>Thread rules: one reader thread per process appends lines; {@link #lines()} returns a copy.
 */
final class ServerProcess implements AutoCloseable {
	private final Process process;
	private final Path log;
	private final List<String> lines = new ArrayList<>();

	private ServerProcess(Process process, Path log) {
		this.process = process;
		this.log = log;
	}

	/** Starts {@code command} and waits until a line containing {@code readyMarker} appears. */
	static ServerProcess start(List<String> command, Path log, String readyMarker, Duration timeout)
			throws IOException, InterruptedException {
		Files.createDirectories(log.getParent());
		Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
		ServerProcess child = new ServerProcess(process, log);
		Thread reader = new Thread(child::copyOutput, "bench-child-output");
		reader.setDaemon(true);
		reader.start();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (child.lines().stream().anyMatch(l -> l.contains(readyMarker))) {
				return child;
			}
			if (!process.isAlive()) {
				throw new IOException("'" + String.join(" ", command) + "' exited with " + process.exitValue()
						+ " before it was ready; see " + log);
			}
			Thread.sleep(100);
		}
		child.close();
		throw new IOException("'" + String.join(" ", command) + "' not ready within " + timeout + "; see " + log);
	}

	private void copyOutput() {
		try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
				PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
			String line;
			while ((line = in.readLine()) != null) {
				out.println(line);
				synchronized (lines) {
					lines.add(line);
				}
			}
		} catch (IOException e) {
			synchronized (lines) {
				lines.add("(output copy failed: " + e + ")");
			}
		}
	}

	/** CPU seconds used so far by this process and, with {@code withDescendants}, every process it started. */
	double cpuSeconds(boolean withDescendants) {
		double total = cpuSeconds(process.toHandle());
		if (withDescendants) {
			total += process.descendants().mapToDouble(ServerProcess::cpuSeconds).sum();
		}
		return total;
	}

	/** The processes this one started directly (the cluster's members). */
	List<ProcessHandle> children() {
		return process.children().toList();
	}

	/** CPU seconds of {@code handle} and every process it started (a launcher and the server it relaunched). */
	static double treeCpuSeconds(ProcessHandle handle) {
		return cpuSeconds(handle) + handle.descendants().mapToDouble(ServerProcess::cpuSeconds).sum();
	}

	static double cpuSeconds(ProcessHandle handle) {
		return handle.info().totalCpuDuration().map(d -> d.toNanos() / 1e9).orElse(0.0);
	}

	List<String> lines() {
		synchronized (lines) {
			return new ArrayList<>(lines);
		}
	}

	/** The text after {@code prefix} on the first line that starts with it. */
	String valueAfter(String prefix) {
		return lines().stream().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length()).trim()).findFirst()
				.orElseThrow(() -> new IllegalStateException("no line starting with '" + prefix + "' in " + log));
	}

	@Override
	public void close() throws InterruptedException {
		process.destroy();
		if (!process.waitFor(90, TimeUnit.SECONDS)) {
			process.descendants().forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly().waitFor();
		}
	}
}
