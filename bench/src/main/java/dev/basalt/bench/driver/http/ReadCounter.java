package dev.basalt.bench.driver.http;

import java.util.concurrent.atomic.LongAdder;

/**
 * Characters of result values read by the result parsers, summed so that no reading can be skipped as
 * dead code, and so that tests can see values were read. Thread-safe.
 */
final class ReadCounter {
	private static final LongAdder CHARACTERS = new LongAdder();

	private ReadCounter() {
	}

	static void add(long chars) {
		CHARACTERS.add(chars);
	}

	static long sum() {
		return CHARACTERS.sum();
	}
}
