package dev.basalt.sail.http;

import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

import dev.basalt.store.cache.ClockCache;

/**
 * The RDF/XML of terms already written as statements' objects, by term id, per store lexicon ({@code termSpace}):
 * what follows the property element's name (the {@code rdf:resource} or {@code rdf:nodeID} attribute and the
 * element's close, or a literal's attributes and escaped text, without the element's end tag), and per query shape
 * its encoded prologue with the property elements ({@link Prologue}). {@link RdfXmlStatementWriter#respond} writes a
 * kept DESCRIBE's answer from them ({@code KeptGraph}), so an object met before costs one probe and one copy instead
 * of its resolution, an RDF4J value, a statement and its escaping and encoding per answer. Subjects are not kept:
 * a description's subjects (the statements pointing at the described value) are seldom met again soon, and
 * keeping them cost more in misses than it saved. The bytes are the ones the writer's statement path writes for the
 * same term (it makes them); a committed id names one term for as long as its store's lexicon lives, and entries go
 * with the lexicon (weakly held), so an entry never goes stale.
 *
 * <p>Bound: {@code -D}{@value #PROPERTY}{@code =BYTES} per store (default {@value #DEFAULT_BYTES}, an entry weighing
 * its bytes and a fixed overhead; CLOCK eviction, {@link ClockCache}), plus at most 16 prologues of
 * {@value #MAX_ELEMENTS} elements; {@code 0} turns the id route off (every graph answer is written from its
 * statements).
 *
 * <p>Thread-safe: the cache is a {@link ClockCache} shared by all request threads; a fragment array is never
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

    private final ClockCache<byte[]> objects;

    TermFragments(long bytes) {
        objects = new ClockCache<>(bytes, TYPICAL_WEIGHT, f -> f.length + ENTRY_OVERHEAD);
    }

    /** The fragments of the term space {@code termSpace} names, or null when the id route is off. */
    static TermFragments of(Object termSpace) {
        Last last = lastUsed;
        if (last != null && last.termSpace.get() == termSpace) {
            return last.fragments;
        }
        long bytes = configuredBytes();
        if (bytes <= 0) {
            return null;
        }
        TermFragments fragments = SPACES.get(termSpace, k -> new TermFragments(bytes));
        lastUsed = new Last(new WeakReference<>(termSpace), fragments);
        return fragments;
    }

    /**
     * The term space asked for last (weakly: a closed store's lexicon is not held) and its fragments: most servers have
     * one Basalt repository.
     */
    private record Last(WeakReference<Object> termSpace, TermFragments fragments) {
    }

    private static volatile Last lastUsed;

    /**
     * The RDF/XML prologue of a query shape ({@code namespaces}: the shape's prologue, one map per shape), encoded,
     * with the prefixes it declares and the property elements made under them, by predicate id (at most
     * {@value #MAX_ELEMENTS}). Shared by the answers of the shape; the maps are not changed after they are kept,
     * but for {@code elements}, which is concurrent.
     */
    record Prologue(Map<String, String> namespaces, byte[] bytes, Map<String, String> prefixes,
            Map<Long, RdfXmlStatementWriter.Element> elements) {
        RdfXmlStatementWriter.Element element(long predicate) {
            return elements.get(predicate);
        }

        void keepElement(long predicate, RdfXmlStatementWriter.Element element) {
            if (elements.size() < MAX_ELEMENTS) {
                elements.put(predicate, element);
            }
        }
    }

    static final int MAX_ELEMENTS = 4_096;
    private static final int PROLOGUE_SLOTS = 16;
    /**
     * What an empty prologue slot holds: a prologue of a map no shape has, so that a lookup compares maps and never
     * meets null (the JIT compiles {@link #prologue} after the warm-ups have filled the slots they use, and a null
     * there would be a trap and a recompilation at a client's first shape in an empty slot).
     */
    private static final Prologue NO_PROLOGUE = new Prologue(new HashMap<>(), new byte[0], Map.of(), Map.of());
    private final AtomicReferenceArray<Prologue> prologues = new AtomicReferenceArray<>(emptySlots());

    private static Prologue[] emptySlots() {
        Prologue[] slots = new Prologue[PROLOGUE_SLOTS];
        Arrays.fill(slots, NO_PROLOGUE);
        return slots;
    }

    /** The prologue kept for the shape whose prologue is {@code namespaces} (this very map), or null. */
    Prologue prologue(Map<String, String> namespaces) {
        Prologue p = prologues.get(System.identityHashCode(namespaces) & (PROLOGUE_SLOTS - 1));
        return p.namespaces == namespaces ? p : null;
    }

    /** Keeps a shape's encoded prologue (replacing the one in its slot) and answers it. */
    Prologue keepPrologue(Map<String, String> namespaces, byte[] bytes, Map<String, String> prefixes) {
        Prologue p = new Prologue(namespaces, bytes, prefixes, new ConcurrentHashMap<>());
        prologues.set(System.identityHashCode(namespaces) & (PROLOGUE_SLOTS - 1), p);
        return p;
    }

    /** The bound set with {@value #PROPERTY}; the default, with a warning, for a value that is not a number. */
    static long configuredBytes() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            return DEFAULT_BYTES;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            logger.warn("-D{}={} is not a number of bytes; {} used", PROPERTY, value, DEFAULT_BYTES);
            return DEFAULT_BYTES;
        }
    }

    private static final org.slf4j.Logger logger = org.slf4j.LoggerFactory.getLogger(TermFragments.class);

    /** What follows a property element's name for {@code id} as its object, or null if not kept. */
    byte[] object(long id) {
        return objects.get(id);
    }

    void putObject(long id, byte[] fragment) {
        objects.put(id, fragment);
    }
}
