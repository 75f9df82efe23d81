package dev.basalt.bench.headline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * Runs the Python tests of {@code scripts/headline/render.py}, the generator of docs/benchmarks.md and the README's
 * headline table from the results log, so that {@code mvn verify} catches a change that breaks it (a renamed field
 * in bsbm-http's output, a ratio computed the wrong way round). Skipped where no {@code python3} is installed.
 */
class HeadlineRenderTest {

	@Test
	void renderScriptPassesItsTests() throws Exception {
		assumeTrue(python3Available(), "python3 is not installed");
		Path script = Path.of("scripts", "headline", "test_render.py").toAbsolutePath();
		Path out = Files.createTempFile("headline-render-test", ".txt");
		try {
			Process p = new ProcessBuilder("python3", "-W", "error", "-m", "unittest", "-v", script.toString())
					.redirectErrorStream(true).redirectOutput(out.toFile()).start();
			if (!p.waitFor(120, TimeUnit.SECONDS)) {
				p.destroyForcibly();
				throw new AssertionError("render.py's tests did not end within 120 s");
			}
			assertEquals(0, p.exitValue(), () -> "render.py's tests failed:\n" + read(out));
		} finally {
			Files.deleteIfExists(out);
		}
	}

	private static String read(Path p) {
		try {
			return Files.readString(p, StandardCharsets.UTF_8);
		} catch (IOException e) {
			return "(output unreadable: " + e + ")";
		}
	}

	private static boolean python3Available() {
		try {
			Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
			p.getInputStream().readAllBytes();
			return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
		} catch (IOException e) {
			return false;
		} catch (InterruptedException e) {
			Thread.currentThread().interrupt();
			return false;
		}
	}
}
