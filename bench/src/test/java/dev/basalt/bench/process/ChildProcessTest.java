package dev.basalt.bench.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildProcessTest {

	@TempDir
	Path tmp;

	@Test
	void reportsExitCodeAndLastLinesOfAFailingCommand() {
		ChildProcess.Result r = new ChildProcess(tmp.resolve("logs/fail.log"), 30)
				.run(List.of("sh", "-c", "echo one; echo two >&2; echo three; exit 3"), tmp);

		assertFalse(r.succeeded());
		assertEquals(3, r.exitCode());
		assertEquals(List.of("one", "two", "three"), r.lastLines());
		assertTrue(r.failure().contains("exited with code 3: one / two / three"), r.failure());
		assertTrue(r.failure().contains(tmp.resolve("logs/fail.log").toString()), r.failure());
	}

	@Test
	void stopsACommandAtItsTimeLimit() {
		long t0 = System.nanoTime();
		ChildProcess.Result r = new ChildProcess(tmp.resolve("slow.log"), 1).run(List.of("sleep", "30"), tmp);

		assertTrue(r.timedOut());
		assertFalse(r.succeeded());
		assertTrue((System.nanoTime() - t0) / 1e9 < 20, "the child was killed, not waited for");
		assertTrue(r.failure().contains("was stopped after"), r.failure());
	}

	@Test
	void measuresWallClockAndPeakRssWithGnuTime() {
		assumeTrue(Files.isExecutable(ChildProcess.GNU_TIME), "GNU time is not installed");
		ChildProcess c = new ChildProcess(tmp.resolve("ok.log"), 30);

		// a shell that holds about 64 MB in a variable
		ChildProcess.Result r = c.run(List.of("sh", "-c", "x=$(head -c 67108864 /dev/zero | tr '\\0' a); sleep 0.2; "
				+ "echo ${#x}"), tmp);

		assertNull(c.rssUnavailableReason());
		assertTrue(r.succeeded(), r::failure);
		assertEquals(List.of("67108864"), r.lastLines());
		assertTrue(r.seconds() >= 0.2, "wall clock " + r.seconds());
		assertTrue(r.peakRssBytes() > 64L << 20, "peak RSS " + r.peakRssBytes());
	}

	@Test
	void withoutGnuTimeThePeakRssIsMissingWithAReason() {
		ChildProcess c = new ChildProcess(tmp.resolve("ok.log"), 30, tmp.resolve("no-time"));

		ChildProcess.Result r = c.run(List.of("true"), tmp);

		assertTrue(r.succeeded(), r::failure);
		assertEquals(-1, r.peakRssBytes());
		assertTrue(c.rssUnavailableReason().contains("apt-get install time"), c.rssUnavailableReason());
	}

	@Test
	void findsExecutablesLikeAShell() throws Exception {
		assertTrue(ChildProcess.executable("sh").isPresent());
		assertTrue(ChildProcess.executable("basalt-no-such-command").isEmpty());
		Path file = Files.writeString(tmp.resolve("not-executable"), "x");
		assertTrue(ChildProcess.executable(file.toString()).isEmpty());
	}
}
