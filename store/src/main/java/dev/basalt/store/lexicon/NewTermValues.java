package dev.basalt.store.lexicon;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;

/**
 * The ID2TERM values of the terms one write transaction creates ({@link TermValues#encode}): a
 * key's leading part interned as a numbered prefix in the PREFIXES tree, the rest compressed with
 * the store's newest Zstandard dictionary; while the store has none, long values are offered as
 * samples and the first dictionary is trained and stored in this transaction
 * ({@link TermDictionaryTraining}). Prefixes and a dictionary this transaction adds are its own
 * until {@link #afterCommit()} publishes them to the {@link Lexicon}'s caches: a rollback would
 * hand their numbers out again.
 *
 * <p>Not thread-safe: the writer's one thread, like the transaction.
 */
final class NewTermValues {
    private final Lexicon lexicon;
    private final WriteTransaction tx;
    /** Key prefixes this transaction interned, by their {@link KeyPrefixes#text}; bounded, most recent last. */
    private final LinkedHashMap<String, Integer> newPrefixes;
    private BTree prefixTree;
    /** Prefixes committed before this transaction; -1 until the first prefix lookup reads it. */
    private int committedPrefixes = -1;
    private int nextPrefix;
    /** The Zstandard dictionary new values are compressed with, or null; looked up at the first new term. */
    private TermDictionary dictionary;
    private boolean dictionaryLooked;
    /** A dictionary this transaction trained, private until it commits; else null. */
    private TermDictionary newDictionary;
    /** Samples for a dictionary while the store has none; null when it has one or training was tried. */
    private TermDictionaryTraining training;

    NewTermValues(Lexicon lexicon, WriteTransaction tx, int cachedPrefixes) {
        this.lexicon = lexicon;
        this.tx = tx;
        this.newPrefixes = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > cachedPrefixes;
            }
        };
    }

    /** The transaction's PREFIXES tree, or null while the store has none. */
    BTree prefixTree() {
        if (prefixTree == null && tx.hasTree(Lexicon.PREFIXES)) {
            prefixTree = tx.tree(Lexicon.PREFIXES);
        }
        return prefixTree;
    }

    /** Whether prefix {@code number} was committed before this transaction (and so may be cached). */
    boolean isPrefixCommitted(int number) {
        return committedPrefixes < 0 || number <= committedPrefixes;
    }

    /** The ID2TERM value of a new term's key; trains the store's first dictionary once there are samples enough. */
    byte[] encode(byte[] key) {
        byte[] stored = TermValues.encode(key, this::internPrefix, dictionary());
        if (training != null && stored.length > TermCompression.DICTIONARY_THRESHOLD) {
            train(key);
        }
        return stored;
    }

    /** The dictionary this transaction trained if it is number {@code number}; else null. */
    TermDictionary newDictionary(int number) {
        return newDictionary != null && number == newDictionary.number ? newDictionary : null;
    }

    /** The number of a key's first {@code length} bytes as a key prefix, interned if new; 0 past {@link KeyPrefixes#LIMIT}. */
    private int internPrefix(byte[] key, int length) {
        String text = KeyPrefixes.text(key, length);
        Integer known = newPrefixes.get(text);
        if (known == null) {
            known = lexicon.prefixes().cachedNumber(text);
        }
        if (known != null) {
            return known;
        }
        BTree tree = tx.tree(Lexicon.PREFIXES);
        prefixTree = tree;
        if (committedPrefixes < 0) {
            committedPrefixes = KeyPrefixes.count(tree);
            nextPrefix = committedPrefixes + 1;
        }
        byte[] byBytes = KeyPrefixes.bytesKey(key, length);
        byte[] found = tree.get(byBytes);
        if (found != null) {
            int number = KeyPrefixes.number(found);
            if (number <= committedPrefixes) {
                lexicon.prefixes().cache(number, Arrays.copyOf(key, length));
            } else {
                newPrefixes.put(text, number);
            }
            return number;
        }
        if (nextPrefix > KeyPrefixes.LIMIT) {
            return 0;
        }
        int number = nextPrefix++;
        tree.put(KeyPrefixes.numberKey(number), Arrays.copyOf(key, length));
        tree.put(byBytes, KeyPrefixes.numberBytes(number));
        newPrefixes.put(text, number);
        return number;
    }

    /**
     * The dictionary to compress a new term's key with: the store's newest, or the one this
     * transaction trained, or null (then {@link #training} collects samples if the store has none).
     */
    private TermDictionary dictionary() {
        if (!dictionaryLooked) {
            dictionaryLooked = true;
            BTree tree = prefixTree();
            int number = TermDictionary.latestNumber(tree);
            if (number > 0) {
                dictionary = lexicon.dictionaries().get(number, tree, TermIds.NULL);
            } else {
                training = new TermDictionaryTraining(lexicon.config().dictionarySampleBytes());
            }
        }
        return dictionary;
    }

    /**
     * Offers the key of a new term whose stored form is long enough to gain from a dictionary as a
     * sample; once there are enough, trains the store's first dictionary and stores it, so the
     * terms after it are compressed with it.
     */
    private void train(byte[] key) {
        if (!training.offer(key)) {
            return;
        }
        byte[] bytes = training.train();
        training = null;
        if (bytes != null) {
            BTree tree = tx.tree(Lexicon.PREFIXES);
            prefixTree = tree;
            newDictionary = new TermDictionary(TermDictionary.latestNumber(tree) + 1, bytes);
            tree.put(TermDictionary.key(newDictionary.number), bytes);
            tx.setProperty(Lexicon.FORMAT_PROPERTY, new byte[] { (byte) TermIds.FORMAT_VERSION });
            dictionary = newDictionary;
        }
    }

    /** Publishes the prefixes (the ones still remembered) and the dictionary of the committed transaction. */
    void afterCommit() {
        for (Map.Entry<String, Integer> e : newPrefixes.entrySet()) {
            lexicon.prefixes().cache(e.getValue(), e.getKey().getBytes(StandardCharsets.ISO_8859_1));
        }
        newPrefixes.clear();
        if (newDictionary != null) {
            lexicon.dictionaries().cache(newDictionary);
            newDictionary = null;
        }
    }
}
