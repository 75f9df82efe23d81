package dev.basalt.sail.load;

import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LoadProgress} that passes every event on to another one and times the load's phases
 * (parse and term resolution, each statement index, the commit): wall clock, CPU time of the whole
 * process and CPU time of the loading thread, logged as one line when the load finishes. The gap
 * between the process's CPU and the loading thread's shows how much of a phase ran beside it, and
 * the loading thread's share of the wall clock how close it is to being the bottleneck.
 *
 * <p>Not thread-safe: called by the loading thread only, as {@link LoadProgress} promises.
 */
final class PhaseTimes implements LoadProgress {
    private static final Logger LOG = LoggerFactory.getLogger(BasaltLoader.class);

    private record Mark(String phase, long wallNanos, long processCpuNanos, long threadCpuNanos) {
    }

    private final LoadProgress next;
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    private final List<Mark> marks = new ArrayList<>();
    private String phase = "parse and resolve terms";

    PhaseTimes(LoadProgress next) {
        this.next = next;
        mark();
    }

    private void mark() {
        marks.add(new Mark(phase, System.nanoTime(), processCpu(), threadCpu()));
    }

    private long processCpu() {
        return os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuTime() : -1;
    }

    private long threadCpu() {
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
    }

    private void enter(String nextPhase) {
        mark();
        phase = nextPhase;
    }

    @Override
    public void parsing(long statements, long bytesRead, long totalBytes, Duration elapsed) {
        next.parsing(statements, bytesRead, totalBytes, elapsed);
    }

    @Override
    public void building(String index, int number, int of, Duration elapsed) {
        enter("index " + index);
        next.building(index, number, of, elapsed);
    }

    @Override
    public void committing(Duration elapsed) {
        enter("commit");
        next.committing(elapsed);
    }

    @Override
    public void finished(LoadResult result) {
        enter(null);
        LOG.info("load phases (wall s / process CPU s / loading thread CPU s): {}", describe());
        next.finished(result);
    }

    /** One "phase wall/cpu/thread" entry per phase, then the total. */
    String describe() {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i < marks.size(); i++) {
            Mark from = marks.get(i - 1);
            Mark to = marks.get(i);
            append(sb, to.phase(), from, to);
            sb.append("; ");
        }
        append(sb, "total", marks.get(0), marks.get(marks.size() - 1));
        return sb.toString();
    }

    private static void append(StringBuilder sb, String name, Mark from, Mark to) {
        sb.append(name).append(' ').append(String.format("%.1f/%.1f/%.1f", (to.wallNanos() - from.wallNanos()) / 1e9,
                (to.processCpuNanos() - from.processCpuNanos()) / 1e9, (to.threadCpuNanos() - from.threadCpuNanos()) / 1e9));
    }
}
