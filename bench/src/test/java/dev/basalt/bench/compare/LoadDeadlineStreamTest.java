package dev.basalt.bench.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class LoadDeadlineStreamTest {

	private static InputStream lines(int n) {
		StringBuilder sb = new StringBuilder();
		for (int i = 0; i < n; i++) {
			sb.append("<urn:s").append(i).append("> <urn:p> \"o\" .\n");
		}
		return new ByteArrayInputStream(sb.toString().getBytes(StandardCharsets.UTF_8));
	}

	@Test
	void withoutLimitCountsEveryLineAndReportsEachStep() throws IOException {
		List<Long> reports = new ArrayList<>();
		try (LoadDeadlineStream in = new LoadDeadlineStream(lines(25), 0, 10, reports::add, () -> Long.MAX_VALUE, 0)) {
			byte[] buf = new byte[7];
			in.read();
			while (in.read(buf, 0, buf.length) >= 0) {
				// reads in small pieces so that lines end across reads
			}
			assertEquals(25, in.lines());
			assertFalse(in.stopped());
		}
		assertEquals(List.of(10L, 20L), reports);
	}

	@Test
	void aReadAfterTheLimitFailsWithTheLinesReadSoFar() throws Exception {
		try (LoadDeadlineStream in = new LoadDeadlineStream(lines(100), 0.05, 1_000, n -> {
		}, () -> Long.MAX_VALUE, 0)) {
			byte[] line = new byte[23];
			assertEquals(line.length, in.readNBytes(line, 0, line.length));
			assertEquals(1, in.lines());
			Thread.sleep(100);
			LoadDeadlineStream.Stopped stop = assertThrows(LoadDeadlineStream.Stopped.class, () -> in.read(line, 0, 1));
			assertTrue(in.stopped());
			assertEquals(1, stop.lines);
			assertTrue(stop.seconds >= 0.05, "stopped after " + stop.seconds + " s");
			assertEquals("at its time limit of 0 s", in.stopReason());
		}
	}

	@Test
	void aReadWithTooLittleDiskLeftFails() throws IOException {
		long[] free = { 10L << 20 };
		try (LoadDeadlineStream in = new LoadDeadlineStream(lines(100), 0, 1_000, n -> {
		}, () -> free[0], 5L << 20)) {
			byte[] line = new byte[23];
			assertEquals(line.length, in.readNBytes(line, 0, line.length));
			free[0] = 4L << 20;
			// the disk is checked every million lines, so this stream of 100 lines is checked once only
			assertEquals(line.length, in.readNBytes(line, 0, line.length));
			assertFalse(in.stopped());
		}
		free[0] = 4L << 20;
		try (LoadDeadlineStream in = new LoadDeadlineStream(lines(100), 0, 1_000, n -> {
		}, () -> free[0], 5L << 20)) {
			assertThrows(LoadDeadlineStream.Stopped.class, () -> in.read());
			assertEquals("with 4 MB left on the disk (floor 5 MB)", in.stopReason());
		}
	}
}
