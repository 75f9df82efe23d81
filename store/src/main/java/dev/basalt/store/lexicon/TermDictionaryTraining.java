package dev.basalt.store.lexicon;

import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.github.luben.zstd.ZstdDictTrainer;
import com.github.luben.zstd.ZstdException;

/**
 * Collects the full keys a writer adds while its store has no Zstandard dictionary and, once
 * {@link #SAMPLE_BYTES} of keys longer than {@link TermCompression#DICTIONARY_THRESHOLD} are
 * collected, trains a dictionary of up to {@link #DICTIONARY_BYTES} from them (zstd's COVER trainer).
 * Terms a store gets in small transactions never reach the sample size in one writer, so such a
 * store keeps the other value forms; a bulk load of more than a few megabytes of text trains one
 * early and compresses the rest of its terms with it.
 *
 * <p>Why a trained dictionary: on BSBM 1M's ID2TERM values (labels, titles and texts of random
 * words from one vocabulary, each compressed alone) a 64 KiB dictionary trained on a tenth of them
 * stores the literals in 14.9 MB where Zstandard without one stores 25.5 MB: the vocabulary is in
 * the dictionary, so even a 40-byte title compresses (docs/benchmarks-size.md).
 *
 * <p>Owned by one {@link LexiconWriter} and used on its thread only; not thread-safe.
 */
final class TermDictionaryTraining {
    public static final int SAMPLE_BYTES = 4 << 20;
    /** Largest dictionary trained; smaller sample sizes get a 32nd of their bytes (the trainer needs many samples per byte). */
    static final int DICTIONARY_BYTES = 64 << 10;
    private static final Logger LOG = LoggerFactory.getLogger(TermDictionaryTraining.class);

    private final int sampleBytes;
    private final List<byte[]> samples = new ArrayList<>();
    private long collected;
    private boolean failed;

    /** Trains after {@code sampleBytes} of samples; 0 never trains. */
    TermDictionaryTraining(int sampleBytes) {
        this.sampleBytes = sampleBytes;
    }

    /** Offers a full key as a sample; true once enough are collected to {@link #train()}. */
    boolean offer(byte[] fullKey) {
        if (failed || sampleBytes == 0 || fullKey.length <= TermCompression.DICTIONARY_THRESHOLD
                || !TermCompression.available()) {
            return false;
        }
        samples.add(fullKey);
        collected += fullKey.length;
        return collected >= sampleBytes;
    }

    /** The trained dictionary's bytes, or null if training failed (logged; the writer then goes on without one). */
    byte[] train() {
        if (failed || samples.isEmpty()) {
            return null;
        }
        try {
            long t0 = System.nanoTime();
            ZstdDictTrainer trainer = new ZstdDictTrainer(Math.toIntExact(collected),
                    (int) Math.min(DICTIONARY_BYTES, Math.max(1024, collected / 32)));
            for (byte[] sample : samples) {
                trainer.addSample(sample);
            }
            byte[] dictionary = trainer.trainSamples();
            LOG.info("trained a {}-byte Zstandard dictionary for the lexicon from {} terms ({} bytes) in {} ms",
                    dictionary.length, samples.size(), collected, (System.nanoTime() - t0) / 1_000_000);
            return dictionary;
        } catch (ZstdException | LinkageError e) {
            LOG.warn("training a Zstandard dictionary for the lexicon failed ({}); terms are stored without one", e.toString());
            return null;
        } finally {
            failed = true; // one attempt per writer
            samples.clear();
        }
    }
}
