package dev.basalt.bench.rdf;

import java.util.Map;
import java.util.TreeMap;

/**
 * Triple counts of a generated dataset: in total, per predicate, and instances per rdf:type class.
 *
 * <p>Not thread-safe: filled by the one thread writing the dataset through its {@link NTriplesSink}, and read
 * once that thread has finished.
 */
public final class TripleCounts {

	private final Map<String, Long> perPredicate = new TreeMap<>();
	private final Map<String, Long> perClass = new TreeMap<>();
	private long total;

	void add(String predicate, String typeObject) {
		total++;
		perPredicate.merge(predicate, 1L, Long::sum);
		if (typeObject != null) {
			perClass.merge(typeObject, 1L, Long::sum);
		}
	}

	public long total() {
		return total;
	}

	/** Predicate IRI to number of triples, sorted by IRI. */
	public Map<String, Long> perPredicate() {
		return perPredicate;
	}

	/** Class IRI to number of {@code rdf:type} triples naming it, sorted by IRI. */
	public Map<String, Long> perClass() {
		return perClass;
	}
}
