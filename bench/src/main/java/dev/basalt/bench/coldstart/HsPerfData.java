package dev.basalt.bench.coldstart;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The long counters a HotSpot JVM publishes in its performance data file ({@code
 * /tmp/hsperfdata_USER/PID}, on unless the JVM runs with {@code -XX:-UsePerfData}), read without
 * attaching to it: among them the JIT's {@code sun.ci.totalCompiles}, {@code sun.ci.osrCompiles},
 * {@code sun.ci.totalInvalidates}, {@code sun.ci.totalBailouts} and {@code java.ci.totalTime} (the
 * compilers' elapsed time, in ticks of {@code sun.os.hrt.frequency}), and {@code
 * sun.cls.loadedClasses}... The file is a 32-byte prologue (magic {@code 0xcafec0c0}, byte order,
 * version, offset and count of the entries) and a list of entries (length, name offset, vector length,
 * type, flags, units, variability, data offset); only scalar longs (type {@code 'J'}) are read.
 *
 * <p>Stateless; thread-safe.
 */
final class HsPerfData {
	private static final int MAGIC = 0xcafec0c0;

	private HsPerfData() {
	}

	/** The perf data file of process {@code pid} run by the current user. */
	static Path fileOf(long pid) {
		return Path.of("/tmp", "hsperfdata_" + System.getProperty("user.name"), Long.toString(pid));
	}

	/** Every scalar long counter by name; empty when the file is missing or not a perf data file. */
	static Map<String, Long> read(Path file) throws IOException {
		Map<String, Long> counters = new HashMap<>();
		if (!Files.exists(file)) {
			return counters;
		}
		ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(file));
		if (b.remaining() < 32 || b.order(ByteOrder.BIG_ENDIAN).getInt(0) != MAGIC) {
			return counters;
		}
		b.order(b.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
		int entry = b.getInt(24);
		int entries = b.getInt(28);
		for (int i = 0; i < entries && entry + 20 <= b.limit(); i++) {
			int length = b.getInt(entry);
			int nameOffset = b.getInt(entry + 4);
			int vectorLength = b.getInt(entry + 8);
			byte type = b.get(entry + 12);
			int dataOffset = b.getInt(entry + 16);
			if (type == 'J' && vectorLength == 0) {
				int nameStart = entry + nameOffset;
				int nameEnd = nameStart;
				while (nameEnd < b.limit() && b.get(nameEnd) != 0) {
					nameEnd++;
				}
				String name = new String(b.array(), nameStart, nameEnd - nameStart, StandardCharsets.US_ASCII);
				counters.put(name, b.getLong(entry + dataOffset));
			}
			if (length <= 0) {
				break;
			}
			entry += length;
		}
		return counters;
	}
}
