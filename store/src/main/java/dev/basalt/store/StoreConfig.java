package dev.basalt.store;

import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.journal.JournalConfig;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Settings of one store: its journal, the byte budget of the decoded-page cache shared by all of
 * its B+trees, and per-index B+tree settings. A tree uses the settings given for its exact name
 * in {@code trees}, else those of the longest name prefix in {@code treePrefixes} it starts with
 * (e.g. {@code q.e.} for every explicit statement index), else {@code defaultTree}.
 *
 * <p>Immutable (its maps are unmodifiable copies); safe to share between threads.
 */
public record StoreConfig(JournalConfig journal, long pageCacheBytes, BTreeConfig defaultTree,
                          Map<String, BTreeConfig> trees, Map<String, BTreeConfig> treePrefixes) {
    public StoreConfig {
        Objects.requireNonNull(journal, "journal");
        Objects.requireNonNull(defaultTree, "defaultTree");
        trees = Map.copyOf(trees);
        treePrefixes = Map.copyOf(treePrefixes);
        if (pageCacheBytes < 0) {
            throw new IllegalArgumentException("page cache bytes must not be negative: " + pageCacheBytes);
        }
    }

    public static StoreConfig defaults() {
        return new StoreConfig(JournalConfig.defaults(), 64L * 1024 * 1024, BTreeConfig.DEFAULT, Map.of(), Map.of());
    }

    public StoreConfig withJournal(JournalConfig j) {
        return new StoreConfig(j, pageCacheBytes, defaultTree, trees, treePrefixes);
    }

    public StoreConfig withPageCacheBytes(long bytes) {
        return new StoreConfig(journal, bytes, defaultTree, trees, treePrefixes);
    }

    public StoreConfig withDefaultTree(BTreeConfig c) {
        return new StoreConfig(journal, pageCacheBytes, c, trees, treePrefixes);
    }

    /** These settings for every tree whose name starts with {@code prefix} (unless named exactly). */
    public StoreConfig withTreesStartingWith(String prefix, BTreeConfig c) {
        Map<String, BTreeConfig> m = new HashMap<>(treePrefixes);
        m.put(Objects.requireNonNull(prefix, "prefix"), Objects.requireNonNull(c, "config"));
        return new StoreConfig(journal, pageCacheBytes, defaultTree, trees, m);
    }

    BTreeConfig treeConfig(String name) {
        BTreeConfig exact = trees.get(name);
        if (exact != null) {
            return exact;
        }
        BTreeConfig best = defaultTree;
        int bestLength = -1;
        for (Map.Entry<String, BTreeConfig> e : treePrefixes.entrySet()) {
            if (name.startsWith(e.getKey()) && e.getKey().length() > bestLength) {
                best = e.getValue();
                bestLength = e.getKey().length();
            }
        }
        return best;
    }
}
