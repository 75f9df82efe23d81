package dev.basalt.store.lexicon;

/**
 * Cache sizes of a {@link Lexicon}, in entries. The two shared caches hold committed mappings
 * only; the writer cache holds the terms a write transaction added until it commits. In the two
 * shared caches a term of more than {@value Lexicon#ENTRY_CHARS} characters counts as one entry per
 * {@value Lexicon#ENTRY_CHARS} characters, so a cache of long literals (descriptions, comments)
 * stays within about the memory of a cache of short ones.
 *
 * <p>Immutable; safe to share between threads.
 *
 * @param valueCacheSize     most entries of the id → value cache (0 disables it)
 * @param idCacheSize        most entries of the value → id cache (0 disables it)
 * @param writerCacheSize    most new terms one write transaction remembers without a B+tree lookup
 * @param dictionarySampleBytes bytes of new term keys a write transaction collects, while the store
 *                           has no Zstandard dictionary, before it trains one (0: never trains)
 * @param derivedCacheBytes  heap bytes all derived-value caches of the lexicon share
 *                           ({@link Lexicon#derivedCache}, {@link Lexicon#derivedNumbers}); 0 keeps none
 */
public record LexiconConfig(int valueCacheSize, int idCacheSize, int writerCacheSize, int dictionarySampleBytes,
        long derivedCacheBytes) {
    /** {@link #derivedCacheBytes} unless configured: 64 MiB. */
    public static final long DEFAULT_DERIVED_CACHE_BYTES = 64L << 20;
    public static final LexiconConfig DEFAULT = new LexiconConfig(100_000, 100_000, 50_000);

    public LexiconConfig {
        if (valueCacheSize < 0 || idCacheSize < 0 || writerCacheSize < 0 || dictionarySampleBytes < 0
                || derivedCacheBytes < 0) {
            throw new IllegalArgumentException("lexicon cache sizes must not be negative: value cache "
                    + valueCacheSize + ", id cache " + idCacheSize + ", writer cache " + writerCacheSize
                    + ", dictionary samples " + dictionarySampleBytes + ", derived cache bytes " + derivedCacheBytes);
        }
    }

    /** The cache sizes with the default dictionary sample size ({@value TermDictionaryTraining#SAMPLE_BYTES} bytes). */
    public LexiconConfig(int valueCacheSize, int idCacheSize, int writerCacheSize) {
        this(valueCacheSize, idCacheSize, writerCacheSize, TermDictionaryTraining.SAMPLE_BYTES);
    }

    /** The cache sizes with the default derived-value budget ({@link #DEFAULT_DERIVED_CACHE_BYTES}). */
    public LexiconConfig(int valueCacheSize, int idCacheSize, int writerCacheSize, int dictionarySampleBytes) {
        this(valueCacheSize, idCacheSize, writerCacheSize, dictionarySampleBytes, DEFAULT_DERIVED_CACHE_BYTES);
    }

    /** These sizes with another derived-value budget. */
    public LexiconConfig withDerivedCacheBytes(long bytes) {
        return new LexiconConfig(valueCacheSize, idCacheSize, writerCacheSize, dictionarySampleBytes, bytes);
    }

    /** These sizes with another dictionary sample size. */
    public LexiconConfig withDictionarySampleBytes(int bytes) {
        return new LexiconConfig(valueCacheSize, idCacheSize, writerCacheSize, bytes, derivedCacheBytes);
    }
}
