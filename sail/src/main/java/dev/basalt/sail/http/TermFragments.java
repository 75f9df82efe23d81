package dev.basalt.sail.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.basalt.store.cache.ClockCache;

/**
 * The RDF/XML of terms already written, by term id, per store lexicon ({@code termSpace}): for a term as a
 * statement's subject, the opening {@code rdf:Description} element; as its object, what follows the property
 * element's name (the {@code rdf:resource} or {@code rdf:nodeID} attribute and the element's close, or a literal's
 * attributes and escaped text, without the element's end tag). {@link RdfXmlStatementWriter#respond} writes a kept
 * DESCRIBE's answer from them ({@code KeptGraph}), so a term met before costs one probe and one copy instead of
 * its resolution, an RDF4J value, a statement and its escaping and encoding per answer. The bytes are the ones the
 * writer's statement path writes for the same term (it makes them); a committed id names one term for as long as
 * its store's lexicon lives, and entries go with the lexicon (weakly held), so an entry never goes stale.
 *
 * <p>Bound: {@code -D}{@value #PROPERTY}{@code =BYTES} per store (default {@value #DEFAULT_BYTES}, split evenly
 * between subjects and objects, an entry weighing its bytes and a fixed overhead; CLOCK eviction,
 * {@link ClockCache}); {@code 0} turns the id route off (every graph answer is written from its statements).
 *
 * <p>Thread-safe: the caches are {@link ClockCache}s shared by all request threads; a fragment array is never
 * written after it is cached.
 */
final class TermFragments {
    /** Bytes of encoded terms kept per store; 0 writes graph answers from their statements only. */
    static final String PROPERTY = "basalt.server.termFragmentBytes";
    static final long DEFAULT_BYTES = 16L << 20;
    /** Heap an entry costs besides its bytes: the array's header and the cache's entry. */
    private static final int ENTRY_OVERHEAD = 48;
    private static final int TYPICAL_WEIGHT = 160;
    private static final Cache<Object, TermFragments> SPACES = Caffeine.newBuilder().weakKeys().maximumSize(64)
            .executor(Runnable::run).build();

    private final ClockCache<byte[]> subjects;
    private final ClockCache<byte[]> objects;

    TermFragments(long bytes) {
        subjects = new ClockCache<>(bytes / 2, TYPICAL_WEIGHT, f -> f.length + ENTRY_OVERHEAD);
        objects = new ClockCache<>(bytes / 2, TYPICAL_WEIGHT, f -> f.length + ENTRY_OVERHEAD);
    }

    /** The fragments of the term space {@code termSpace} names, or null when the id route is off. */
    static TermFragments of(Object termSpace) {
        long bytes = configuredBytes();
        return bytes <= 0 ? null : SPACES.get(termSpace, k -> new TermFragments(bytes));
    }

    static long configuredBytes() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return DEFAULT_BYTES;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + PROPERTY + "=" + value + " is not a number of bytes", e);
        }
    }

    /** The opening {@code rdf:Description} of {@code id} as a subject, or null if not kept. */
    byte[] subject(long id) {
        return subjects.get(id);
    }

    /** What follows a property element's name for {@code id} as its object, or null if not kept. */
    byte[] object(long id) {
        return objects.get(id);
    }

    void putSubject(long id, byte[] fragment) {
        subjects.put(id, fragment);
    }

    void putObject(long id, byte[] fragment) {
        objects.put(id, fragment);
    }
}
