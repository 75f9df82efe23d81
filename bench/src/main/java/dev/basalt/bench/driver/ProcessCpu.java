package dev.basalt.bench.driver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time a process has used so far (user + system, its threads included), read from Linux's
 * {@code /proc/PID/stat}: how much of the machine a server spent on the queries of a run, whatever the
 * load of the machine's other processes did to the run's wall-clock time.
 */
public final class ProcessCpu {
	/** Clock ticks per second of /proc's times; 100 on every Linux this runs on (USER_HZ). */
	private static final double TICKS_PER_SECOND = 100.0;

	private ProcessCpu() {
	}

	/**
	 * User plus system CPU seconds of process {@code pid} and of the processes it started that still run
	 * (the Basalt launcher serves from a child JVM it relaunches itself as) so far.
	 */
	public static double seconds(long pid) {
		double total = own(pid);
		for (long child : ProcessHandle.of(pid).map(p -> p.descendants().mapToLong(ProcessHandle::pid).toArray())
				.orElse(new long[0])) {
			try {
				total += own(child);
			} catch (UncheckedIOException ended) {
				// the child ended meanwhile
			}
		}
		return total;
	}

	private static double own(long pid) {
		String stat;
		try {
			stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
		} catch (IOException e) {
			throw new UncheckedIOException("cannot read the CPU time of process " + pid + " (Linux only)", e);
		}
		// fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14 and 15
		String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
		return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) / TICKS_PER_SECOND;
	}
}
