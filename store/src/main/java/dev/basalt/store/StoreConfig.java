package dev.basalt.store;

import dev.basalt.store.btree.BTreeConfig;
import dev.basalt.store.journal.JournalConfig;

import java.util.Map;
import java.util.Objects;

/**
 * Settings of one store: its journal, the byte budget of the decoded-page cache shared by all of
 * its B+trees, and per-index B+tree settings (indices not named use {@code defaultTree}).
 */
public record StoreConfig(JournalConfig journal, long pageCacheBytes, BTreeConfig defaultTree,
                          Map<String, BTreeConfig> trees) {
    public StoreConfig {
        Objects.requireNonNull(journal, "journal");
        Objects.requireNonNull(defaultTree, "defaultTree");
        trees = Map.copyOf(trees);
        if (pageCacheBytes < 0) {
            throw new IllegalArgumentException("page cache bytes must not be negative: " + pageCacheBytes);
        }
    }

    public static StoreConfig defaults() {
        return new StoreConfig(JournalConfig.defaults(), 64L * 1024 * 1024, BTreeConfig.DEFAULT, Map.of());
    }

    public StoreConfig withJournal(JournalConfig j) {
        return new StoreConfig(j, pageCacheBytes, defaultTree, trees);
    }

    public StoreConfig withPageCacheBytes(long bytes) {
        return new StoreConfig(journal, bytes, defaultTree, trees);
    }

    public StoreConfig withDefaultTree(BTreeConfig c) {
        return new StoreConfig(journal, pageCacheBytes, c, trees);
    }

    BTreeConfig treeConfig(String name) {
        return trees.getOrDefault(name, defaultTree);
    }
}
