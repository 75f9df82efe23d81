package dev.basalt.bench.coldstart;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of a running process (and of the processes it started, such as the launcher's relaunched
 * JVM) split by the kind of thread that spent it, read from Linux's
 * {@code /proc/PID/task/TID/stat}: the JIT compilers ({@code C1 CompilerThread*}, {@code C2
 * CompilerThread*}), the garbage collector ({@code GC Thread#*}, {@code G1 *}, {@code VM Thread} and
 * the like) and every other thread (request threads above all). Each {@link #sample} adds what each
 * thread spent since the previous one; a thread that ended between two samples keeps what it had at
 * the last, so its final slice (at most one sampling interval) is lost, which is why
 * {@link Sample#total} is taken from the process's own counter, which keeps ended threads' time.
 *
 * <p>Not thread-safe: one sampling thread.
 */
final class ThreadCpu {
	/** Clock ticks per second of /proc's times (USER_HZ, 100 on every Linux this runs on). */
	private static final double TICKS_PER_SECOND = 100.0;

	/** The kinds threads are sorted into, by their name as the kernel keeps it (15 characters). */
	enum Kind {
		COMPILER, GC, OTHER;

		static Kind of(String comm) {
			if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
				return COMPILER;
			}
			if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.equals("VM Thread")
					|| comm.startsWith("VM Periodic") || comm.startsWith("ParGC") || comm.startsWith("Parallel")) {
				return GC;
			}
			return OTHER;
		}
	}

	/** Cumulative CPU seconds of the process so far: all of it, its compiler threads, its GC threads. */
	record Sample(double total, double compiler, double gc) {
		Sample minus(Sample earlier) {
			return new Sample(total - earlier.total, compiler - earlier.compiler, gc - earlier.gc);
		}
	}

	private final List<Long> pids;
	private final Map<Long, long[]> lastTicksByThread = new HashMap<>();
	private final long[] ticksByKind = new long[Kind.values().length];

	/** The CPU of process {@code pid} and of the processes it has started so far (a relaunched JVM). */
	ThreadCpu(long pid) {
		List<Long> all = new ArrayList<>();
		all.add(pid);
		ProcessHandle.of(pid).ifPresent(p -> p.descendants().forEach(d -> all.add(d.pid())));
		this.pids = List.copyOf(all);
	}

	/** The processes' CPU so far, compiler and GC threads' share included. */
	Sample sample() throws IOException {
		double total = 0;
		for (long pid : pids) {
			try {
				addThreads(pid);
				total += ticks(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))) / TICKS_PER_SECOND;
			} catch (java.nio.file.NoSuchFileException ended) {
				continue; // a process of the tree ended
			}
		}
		return new Sample(total, ticksByKind[Kind.COMPILER.ordinal()] / TICKS_PER_SECOND,
				ticksByKind[Kind.GC.ordinal()] / TICKS_PER_SECOND);
	}

	private void addThreads(long pid) throws IOException {
		Path tasks = Path.of("/proc", Long.toString(pid), "task");
		try (DirectoryStream<Path> dir = Files.newDirectoryStream(tasks)) {
			for (Path task : dir) {
				String stat;
				try {
					stat = Files.readString(task.resolve("stat"));
				} catch (IOException ended) {
					continue; // the thread ended while we listed the directory
				}
				int open = stat.indexOf('(');
				int close = stat.lastIndexOf(')');
				Kind kind = Kind.of(stat.substring(open + 1, close));
				long ticks = ticks(stat);
				long tid = Long.parseLong(task.getFileName().toString());
				long[] last = lastTicksByThread.computeIfAbsent(tid, t -> new long[1]);
				ticksByKind[kind.ordinal()] += ticks - last[0];
				last[0] = ticks;
			}
		}
	}

	/** utime + stime of a stat line: fields 14 and 15, counted after the parenthesised command name. */
	static long ticks(String stat) {
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
	}
}
