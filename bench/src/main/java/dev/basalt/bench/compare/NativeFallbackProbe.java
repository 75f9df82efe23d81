package dev.basalt.bench.compare;

import java.util.Map;
import java.util.TreeMap;

import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.sail.Sail;
import org.eclipse.rdf4j.sail.helpers.SailWrapper;

import dev.basalt.optimizer.rdf4j.NativeQueryStats;
import dev.basalt.sail.BasaltStore;

/**
 * Reads Basalt's native-evaluation fallback counters ({@link BasaltStore#getNativeQueryStats()})
 * under a repository, also through sail wrappers such as the RDFS inferencer. For other stores
 * there is nothing to read and every snapshot is empty. The counters are per store, so a
 * difference of two snapshots is attributed to the queries run in between only if nothing else
 * queries the store meanwhile, as in the comparison's cross-check.
 *
 * <p>Thread-safe: it only reads the store's counters, which {@code NativeQueryStats} keeps thread-safe; the
 * comparison calls it from its one thread.
 */
final class NativeFallbackProbe {

	private final NativeQueryStats stats;

	private NativeFallbackProbe(NativeQueryStats stats) {
		this.stats = stats;
	}

	static NativeFallbackProbe of(Repository repository) {
		if (repository instanceof SailRepository sr) {
			Sail sail = sr.getSail();
			while (sail instanceof SailWrapper w) {
				sail = w.getBaseSail();
			}
			if (sail instanceof BasaltStore basalt) {
				return new NativeFallbackProbe(basalt.getNativeQueryStats());
			}
		}
		return new NativeFallbackProbe(null);
	}

	/** Whether the store has native evaluation counters (it is a Basalt store). */
	boolean applies() {
		return stats != null;
	}

	/** Fallback counts by "node type: reason" so far. */
	Map<String, Long> snapshot() {
		return stats == null ? Map.of() : stats.fallbackReasons();
	}

	/** The fallbacks counted between two snapshots, by reason; empty when there were none. */
	static Map<String, Long> since(Map<String, Long> before, Map<String, Long> after) {
		Map<String, Long> out = new TreeMap<>();
		after.forEach((reason, n) -> {
			long d = n - before.getOrDefault(reason, 0L);
			if (d > 0) {
				out.put(reason, d);
			}
		});
		return out;
	}
}
