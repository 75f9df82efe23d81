package dev.basalt.bench.compare;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;

/**
 * Heap measurements around a load: the heap in use after a full GC (the baseline and what a store
 * retains), and the peak of the heap pools in between. Peaks are per pool and summed, so they are an
 * upper bound of the true simultaneous peak.
 *
 * <p>Stateless, called by the thread running the load; the heap pools are the JVM's, so work on other threads
 * during a measurement counts too.
 */
final class HeapProbe {

	private HeapProbe() {
	}

	static long usedAfterGc() {
		for (int i = 0; i < 2; i++) {
			System.gc();
		}
		Runtime rt = Runtime.getRuntime();
		return rt.totalMemory() - rt.freeMemory();
	}

	static void resetPeaks() {
		for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
				pool.resetPeakUsage();
			}
		}
	}

	static long peakUsed() {
		long sum = 0;
		for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
			if (pool.getType() == MemoryType.HEAP && pool.isValid()) {
				sum += pool.getPeakUsage().getUsed();
			}
		}
		return sum;
	}
}
