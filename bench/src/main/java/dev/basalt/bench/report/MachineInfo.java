package dev.basalt.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Describes the machine and JVM a run was measured on, for the report.
 *
 * <p>Stateless; any thread may call it.
 */
public final class MachineInfo {

	private MachineInfo() {
	}

	public static String cpuModel() {
		Path cpuinfo = Path.of("/proc/cpuinfo");
		if (Files.isReadable(cpuinfo)) {
			try (Stream<String> lines = Files.lines(cpuinfo)) {
				return lines.filter(l -> l.startsWith("model name"))
						.map(l -> l.substring(l.indexOf(':') + 1).trim())
						.findFirst()
						.orElse("unknown");
			} catch (IOException e) {
				return "unknown";
			}
		}
		return "unknown";
	}

	public static long physicalMemoryBytes() {
		if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
			return os.getTotalMemorySize();
		}
		return -1;
	}

	public static String os() {
		return System.getProperty("os.name") + " " + System.getProperty("os.version") + " ("
				+ System.getProperty("os.arch") + ")";
	}

	public static int processors() {
		return Runtime.getRuntime().availableProcessors();
	}

	public static String jvm() {
		return System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version") + " ("
				+ System.getProperty("java.vendor") + ")";
	}

	public static List<String> jvmArguments() {
		return ManagementFactory.getRuntimeMXBean().getInputArguments();
	}

	public static long maxHeapBytes() {
		return Runtime.getRuntime().maxMemory();
	}

	public static String garbageCollectors() {
		return String.join(", ", ManagementFactory.getGarbageCollectorMXBeans().stream().map(b -> b.getName()).toList());
	}
}
