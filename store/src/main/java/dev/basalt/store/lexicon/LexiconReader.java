package dev.basalt.store.lexicon;

import java.util.function.BooleanSupplier;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.ValueFactory;

import dev.basalt.store.btree.BTree;
import dev.basalt.store.btree.BTreeCursor;

/**
 * The dictionary as of one committed commit point (see {@link Lexicon#reader(dev.basalt.store.Snapshot)}).
 * Everything it reads is committed, so every mapping it finds may enter the shared caches.
 * Thread-safe as long as its snapshot is open.
 *
 * <p>A reader of the open write transaction ({@link Lexicon#reader(LexiconWriter)}) also sees the
 * terms the transaction added; only the committed ones enter the shared caches. It reads the
 * transaction's trees, so like the transaction it must not be used while that transaction writes.
 */
public final class LexiconReader extends LexiconView {
    private final BTree prefixes;
    /** The writer whose transaction this reader reads, or null for a committed snapshot. */
    private final LexiconWriter uncommitted;

    LexiconReader(Lexicon lexicon, BTree termToId, BTree idToTerm, BTree prefixes) {
        this(lexicon, termToId, idToTerm, prefixes, null);
    }

    LexiconReader(Lexicon lexicon, BTree termToId, BTree idToTerm, BTree prefixes, LexiconWriter uncommitted) {
        super(lexicon, termToId, idToTerm);
        this.prefixes = prefixes;
        this.uncommitted = uncommitted;
    }

    /**
     * The lexicon's cache of values derived by {@code function} ({@link Lexicon#derivedCache}) for a
     * reader of a committed snapshot, whose ids are all committed; null for a reader of a write
     * transaction.
     */
    public DerivedCache derivedCache(Object function) {
        return uncommitted == null ? lexicon.derivedCache(function) : null;
    }

    /**
     * The lexicon's table of numbers derived by {@code function} ({@link Lexicon#derivedNumbers}) for
     * a reader of a committed snapshot; null for a reader of a write transaction.
     */
    public DerivedNumbers derivedNumbers(Object function) {
        return uncommitted == null ? lexicon.derivedNumbers(function) : null;
    }

    /**
     * Reads the dictionary's terms in id order into the lexicon's id → value cache, at most {@code max} of them
     * (those it holds already count), until {@code stop} says so (checked every 1,024 terms): results and
     * ORDER BY keys then find their values cached from the first query. Returns the terms read. Only for a
     * reader of a committed snapshot, whose terms may all enter the shared cache.
     */
    public long prewarmValues(long max, ValueFactory vf, BooleanSupplier stop) {
        if (uncommitted != null) {
            throw new IllegalStateException("only a reader of a committed snapshot fills the shared value cache");
        }
        long read = 0;
        if (idToTerm == null) {
            return read;
        }
        BTreeCursor c = idToTerm.cursor(null, null);
        while (read < max && ((read & 1023) != 0 || !stop.getAsBoolean()) && c.next()) {
            long id = TermKeys.getLong(c.key(), 0);
            if (lexicon.cachedValue(id) == null) {
                Value value = TermKeys.decode(fullKey(id, c.value()), vf, component -> resolve(component, vf));
                lexicon.cacheValue(id, value);
            }
            read++;
        }
        return read;
    }

    /** Neighbouring ids a rehearsal reads together: one leaf's worth, so its reads touch few pages. */
    static final int REHEARSAL_RUN = 64;

    /**
     * Reads and decodes up to {@code terms} dictionary terms as a query's value-cache miss does (one cursor over the
     * ID2TERM values, then each stored form restored and decoded), without caching them: runs of
     * {@value #REHEARSAL_RUN} neighbouring ids spread over each kind's ids ({@code counts}), the kinds in proportion to
     * their terms, so each stored form (whole, prefixed, compressed, with a dictionary) is met and few leaves are
     * read. Run after a server's warm-ups, whose queries find their terms in the value cache, it makes the JIT compile
     * the miss path before the first clients' queries need it. Returns the terms decoded.
     */
    public long rehearseMisses(LexiconCounts counts, int terms, ValueFactory vf, BooleanSupplier stop) {
        long total = counts.iris() + counts.literals() + counts.blankNodes();
        if (total == 0 || terms <= 0) {
            return 0;
        }
        long decoded = 0;
        long[] run = new long[REHEARSAL_RUN];
        TermKind[] kinds = { TermKind.IRI, TermKind.LITERAL, TermKind.BLANK_NODE };
        long[] ofKind = { counts.iris(), counts.literals(), counts.blankNodes() };
        for (int k = 0; k < kinds.length; k++) {
            long share = Math.max(1, (long) terms * ofKind[k] / total);
            long runs = Math.min((share + REHEARSAL_RUN - 1) / REHEARSAL_RUN,
                    (ofKind[k] + REHEARSAL_RUN - 1) / REHEARSAL_RUN);
            long spacing = runs == 0 ? 0 : ofKind[k] / runs; // runs never overlap: each reads at most its spacing
            for (long r = 0; r < runs; r++) {
                if (stop.getAsBoolean()) {
                    return decoded;
                }
                long first = 1 + r * spacing;
                int n = (int) Math.min(Math.min(REHEARSAL_RUN, spacing), ofKind[k] - first + 1);
                for (int i = 0; i < n; i++) {
                    run[i] = TermIds.make(kinds[k].code(), first + i);
                }
                byte[][] stored = storedValues(run, n);
                for (int i = 0; i < n; i++) {
                    if (stored[i] != null) {
                        TermKeys.decode(fullKey(run[i], stored[i]), vf, component -> resolve(component, vf));
                        decoded++;
                    }
                }
            }
        }
        return decoded;
    }

    @Override
    boolean isCommitted(long id) {
        return uncommitted == null || uncommitted.isCommitted(id);
    }

    @Override
    BTree prefixTree() {
        return uncommitted != null ? uncommitted.prefixTree() : prefixes;
    }

    @Override
    TermDictionary dictionary(int number, long id) {
        return uncommitted != null ? uncommitted.dictionary(number, id) : super.dictionary(number, id);
    }

    @Override
    boolean isPrefixCommitted(int number) {
        return uncommitted == null || uncommitted.isPrefixCommitted(number);
    }
}
