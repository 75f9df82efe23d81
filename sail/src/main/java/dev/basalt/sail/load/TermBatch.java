package dev.basalt.sail.load;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;

import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.LargeTermKeys;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.lexicon.TermKeys;

/**
 * A batch of parsed statements reduced to what term resolution needs: the batch's distinct terms,
 * and for each statement four references into them (subject, predicate, object, context; −1 for
 * the default graph). Built on a parser thread, so the loading thread resolves each distinct term
 * of a chunk once instead of once per occurrence and holds no {@link Statement} objects. The
 * parser thread also encodes each distinct term (its inline id, else its dictionary key), work the
 * loading thread would otherwise do alone. Each file's namespace declarations (the first one of
 * each prefix) come with its last batch. Immutable once built (its arrays are not changed).
 *
 * @param terms      distinct terms in order of first occurrence
 * @param inline     per term, its inline id ({@link InlineValues#encode}) or {@link TermIds#NULL}
 * @param keys       per term that is not inline, its dictionary key ({@link TermKeys#encode}); null
 *                   for inline and triple terms
 * @param largePrefixes per key that {@link LargeTermKeys#isLarge}, its {@link LargeTermKeys#prefix}
 *                   (a digest of the whole key); null for the others
 * @param refs       four entries per statement, indexes into {@code terms} or −1
 * @param size       number of statements
 * @param namespaces prefix to namespace, for the last batch of a file
 */
record TermBatch(List<Value> terms, long[] inline, byte[][] keys, byte[][] largePrefixes, int[] refs, int size,
        Map<String, String> namespaces) {
    static final int DEFAULT_GRAPH = -1;

    /**
     * The batches one after the other, in one batch without namespaces, in the arrays of
     * {@code into} (grown as needed, so the batch is valid until {@code into} is used again).
     * Terms are concatenated, not deduplicated across batches: that would cost the calling
     * (loading) thread a hash lookup per term, and term resolution finds a repeated term in the
     * writer's cache at the same price.
     */
    static TermBatch concat(List<TermBatch> batches, Joined into) {
        int terms = 0;
        int size = 0;
        for (TermBatch b : batches) {
            terms += b.terms.size();
            size += b.size;
        }
        into.reserve(terms, 4 * size);
        List<Value> allTerms = into.terms;
        allTerms.clear();
        int at = 0;
        for (TermBatch b : batches) {
            int base = allTerms.size();
            allTerms.addAll(b.terms);
            System.arraycopy(b.inline, 0, into.inline, base, b.terms.size());
            System.arraycopy(b.keys, 0, into.keys, base, b.terms.size());
            System.arraycopy(b.largePrefixes, 0, into.prefixes, base, b.terms.size());
            for (int i = 0; i < 4 * b.size; i++) {
                int r = b.refs[i];
                into.refs[at++] = r == DEFAULT_GRAPH ? DEFAULT_GRAPH : base + r;
            }
        }
        return new TermBatch(allTerms, into.inline, into.keys, into.prefixes, into.refs, size, Map.of());
    }

    /**
     * The arrays {@link #concat} joins batches into, kept from one joined batch to the next: a
     * joined batch of 100,000 statements would otherwise allocate arrays of a megabyte and more
     * each time, which the collector allocates as humongous objects (each may start a marking
     * cycle). Not thread-safe: the one thread that joins batches and uses them.
     */
    static final class Joined {
        private final ArrayList<Value> terms = new ArrayList<>();
        private long[] inline = new long[0];
        private byte[][] keys = new byte[0][];
        private byte[][] prefixes = new byte[0][];
        private int[] refs = new int[0];

        private void reserve(int termCount, int refCount) {
            if (inline.length < termCount) {
                int n = termCount + termCount / 4;
                inline = new long[n];
                keys = new byte[n][];
                prefixes = new byte[n][];
            }
            if (refs.length < refCount) {
                refs = new int[refCount + refCount / 4];
            }
        }
    }

    /**
     * Collects statements into a batch. A non-null {@code target} context replaces every
     * statement's context. Not thread-safe: one parser thread.
     */
    static final class Builder {
        private final Resource target;
        private final Map<Value, Integer> index = new HashMap<>();
        private final List<Value> terms = new ArrayList<>();
        private long[] inline = new long[1024];
        private byte[][] keys = new byte[1024][];
        private byte[][] largePrefixes = new byte[1024][];
        private int[] refs = new int[4 * 1024];
        private int size;

        Builder(Resource target) {
            this.target = target;
        }

        int size() {
            return size;
        }

        void add(Statement st) {
            int at = slot();
            refs[at] = ref(st.getSubject());
            refs[at + 1] = ref(st.getPredicate());
            refs[at + 2] = ref(st.getObject());
            Resource c = target != null ? target : st.getContext();
            refs[at + 3] = c == null ? DEFAULT_GRAPH : ref(c);
        }

        private int slot() {
            if (4 * size + 4 > refs.length) {
                refs = Arrays.copyOf(refs, refs.length * 2);
            }
            return 4 * size++;
        }

        private int ref(Value v) {
            Integer known = index.get(v);
            if (known != null) {
                return known;
            }
            int r = terms.size();
            if (r == inline.length) {
                inline = Arrays.copyOf(inline, 2 * r);
                keys = Arrays.copyOf(keys, 2 * r);
                largePrefixes = Arrays.copyOf(largePrefixes, 2 * r);
            }
            long id = InlineValues.encode(v);
            inline[r] = id;
            byte[] key = id == TermIds.NULL && !(v instanceof Triple) ? TermKeys.encode(v) : null;
            keys[r] = key;
            largePrefixes[r] = key != null && LargeTermKeys.isLarge(key) ? LargeTermKeys.prefix(key) : null;
            terms.add(v);
            index.put(v, r);
            return r;
        }

        TermBatch build(Map<String, String> namespaces) {
            return new TermBatch(terms, inline, keys, largePrefixes, refs, size, namespaces);
        }
    }
}
