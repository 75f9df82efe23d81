package dev.basalt.bench.coldstart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ColdStartPartsTest {

	@Test
	void threadsAreSortedByTheNameTheKernelKeeps() {
		assertEquals(ThreadCpu.Kind.COMPILER, ThreadCpu.Kind.of("C2 CompilerThre"));
		assertEquals(ThreadCpu.Kind.COMPILER, ThreadCpu.Kind.of("C1 CompilerThre"));
		assertEquals(ThreadCpu.Kind.GC, ThreadCpu.Kind.of("GC Thread#0"));
		assertEquals(ThreadCpu.Kind.GC, ThreadCpu.Kind.of("G1 Conc#0"));
		assertEquals(ThreadCpu.Kind.OTHER, ThreadCpu.Kind.of("qtp1791045777-"));
		// a command name with spaces and parentheses: the fields are counted after the last ')'
		String stat = "42 (C2 (x) y) S 1 2 3 4 5 6 7 8 9 10 123 45 0 0 20 0";
		assertEquals(168, ThreadCpu.ticks(stat));
	}

	@Test
	void ownProcessCpuIsSplitAndGrows() throws Exception {
		ThreadCpu cpu = new ThreadCpu(ProcessHandle.current().pid());
		ThreadCpu.Sample a = cpu.sample();
		long x = 0;
		// 300 ms of this thread's CPU (not wall time: the machine may be loaded)
		java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
		long until = threads.getCurrentThreadCpuTime() + 300_000_000L;
		while (threads.getCurrentThreadCpuTime() < until) {
			x += Long.numberOfTrailingZeros(x + System.nanoTime());
		}
		ThreadCpu.Sample b = cpu.sample();
		assertTrue(x >= 0);
		assertTrue(b.total() - a.total() >= 0.1, "300 ms of spinning shows in the process's CPU: " + a + " -> " + b);
		assertTrue(b.compiler() >= a.compiler() && b.gc() >= a.gc());
		assertTrue(b.compiler() + b.gc() <= b.total() + 0.05);
	}

	@Test
	void perfCountersOfARunningJvmAreRead() throws Exception {
		Map<String, Long> perf = HsPerfData.read(HsPerfData.fileOf(ProcessHandle.current().pid()));
		if (!Files.exists(HsPerfData.fileOf(ProcessHandle.current().pid()))) {
			assertTrue(perf.isEmpty());
			return; // run with -XX:-UsePerfData
		}
		assertTrue(perf.get("sun.ci.totalCompiles") > 0, "the test JVM has compiled methods: " + perf.size());
		assertTrue(perf.get("sun.os.hrt.frequency") > 0);
		assertTrue(perf.get("java.ci.totalTime") > 0);
	}

	@Test
	void configurationsAreParsed() {
		ColdStartRun.Config c = ColdStartRun.Config.parse("j17=/opt/java/bin/java  -Xmx2g -XX:+UseSerialGC");
		assertEquals("j17", c.label());
		assertEquals("/opt/java/bin/java", c.java());
		assertEquals(List.of("-Xmx2g", "-XX:+UseSerialGC"), c.jvmArgs());
		assertEquals(null, c.jar());
		ColdStartRun.Config other = ColdStartRun.Config.parse("old=java -Xmx1g -jar /old/basalt-server.jar -Xss1m");
		assertEquals(java.nio.file.Path.of("/old/basalt-server.jar"), other.jar());
		assertEquals(List.of("-Xmx1g", "-Xss1m"), other.jvmArgs());
		assertThrows(IllegalArgumentException.class, () -> ColdStartRun.Config.parse("x=java -jar"));
		assertThrows(IllegalArgumentException.class, () -> ColdStartRun.Config.parse("java -Xmx1g"));
		assertThrows(IllegalArgumentException.class, () -> ColdStartRun.Config.parse("x=  "));
	}

	@Test
	void summarySetsTheFirstQueriesAgainstTheLastOnes() {
		List<ColdStartRun.Block> blocks = new ArrayList<>();
		// 4 blocks of 1,000 queries: 3 s, 1 s, 0.5 s, 0.5 s of CPU, of which compiler 2, 0.5, 0, 0
		double[] cpu = { 3, 1, 0.5, 0.5 };
		double[] jit = { 2, 0.5, 0, 0 };
		for (int i = 0; i < 4; i++) {
			blocks.add(new ColdStartRun.Block((i + 1) * 1000L, 1, new ThreadCpu.Sample(cpu[i], jit[i], 0), 10, 0.1));
		}
		ColdStartRun.Run run = new ColdStartRun.Run(ColdStartRun.Config.parse("a=java"), 1, 2, 3, blocks,
				Instant.EPOCH, null);
		String row = ColdStartReport.summary(List.of(run), 2000, 2000).get(2);
		// first 2,000: 4 s / 2,000 = 2 ms, of it JIT 1.25; last 2,000: 0.5 ms; ratio 4
		assertTrue(row.contains("| 2.000 | 1.250 |"), row);
		assertTrue(row.contains("| 0.500 | 4.00 |"), row);
		assertTrue(row.contains("| 20 |"), row);
		List<String> perBlock = ColdStartReport.blocks(List.of(run));
		assertEquals("| 1,000 | 3.000 (2.000) |", perBlock.get(2));
		assertEquals(6, perBlock.size());
	}

	@Test
	void theLaunchersWarmupLineIsReported(@TempDir Path work) throws Exception {
		assertEquals("", LauncherProcess.warmupLine(work));
		Files.writeString(work.resolve("launcher.log"), "2026 INFO started\nbasalt-server: warm-up: 16000 requests in "
				+ "95957 ms (JVM CPU 22240 ms)\nBasalt on RDF4J Server: http://127.0.0.1:1/rdf4j-server\n");
		assertEquals("; warm-up: 16000 requests in 95957 ms (JVM CPU 22240 ms)", LauncherProcess.warmupLine(work));
		Files.writeString(work.resolve("launcher.log"), "basalt-server: warm-up: 2 requests in 3 ms (JVM CPU 4 ms)\n"
				+ "basalt-server: query-log replay: 5 requests of 6 logged queries\nBasalt on RDF4J Server: x\n");
		assertEquals("; warm-up: 2 requests in 3 ms (JVM CPU 4 ms); query-log replay: 5 requests of 6 logged queries",
				LauncherProcess.warmupLine(work));
		Files.writeString(work.resolve("launcher.log"), "basalt-server: data warm-up: sample of 9 statements\n"
				+ "basalt-server: warm-up: 2 requests in 3 ms (JVM CPU 4 ms)\n"
				+ "basalt-server: data warm-up: 7 requests of 8 generated queries\nBasalt on RDF4J Server: x\n");
		assertEquals("; warm-up: 2 requests in 3 ms (JVM CPU 4 ms); data warm-up: sample of 9 statements; data warm-up: "
				+ "7 requests of 8 generated queries", LauncherProcess.warmupLine(work));
		Files.writeString(work.resolve("launcher.log"), "Basalt on RDF4J Server: http://127.0.0.1:1/rdf4j-server\n");
		assertEquals("", LauncherProcess.warmupLine(work));
	}

	@Test
	void javaReleasesAreReadFromTheVersionText() {
		assertEquals(17, AotTrainCommand.releaseOf("openjdk version \"17.0.15\" 2025-04-15"));
		assertEquals(25, AotTrainCommand.releaseOf("openjdk version \"25.0.3\" 2026-04-21 LTS"));
		assertEquals(25, AotTrainCommand.releaseOf("openjdk version \"25\" 2025-09-16"));
		assertEquals(8, AotTrainCommand.releaseOf("java version \"1.8.0_392\""));
		assertEquals(0, AotTrainCommand.releaseOf("no java here"));
	}
}
