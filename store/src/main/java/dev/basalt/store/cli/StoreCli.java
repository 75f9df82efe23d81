package dev.basalt.store.cli;

import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreCompactor;
import dev.basalt.store.StoreConfig;
import dev.basalt.store.StoreSizes;
import dev.basalt.store.StoreStats;
import dev.basalt.store.WriteTransaction;
import dev.basalt.store.btree.BTree;
import dev.basalt.store.journal.CommitPoint;
import dev.basalt.store.journal.JournalMode;
import dev.basalt.store.journal.StoreException;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Command line of the storage engine: {@code demo} creates (or reopens) a store, writes keys in a
 * transaction, reads them back and prints the store's statistics; {@code stats}, {@code verify}
 * and {@code history} inspect an existing store, {@code sizes} says where its bytes go; {@code compact} rewrites it to its newest commit point.
 *
 * <p>Runs one command on the calling thread (the main thread from {@link #main}); it opens its own
 * store and closes it before returning, so an instance is not shared between threads.
 */
public final class StoreCli {
    static final String JOURNAL_FILE = "basalt.jnl";
    private final PrintStream out;

    StoreCli(PrintStream out) {
        this.out = out;
    }

    public static void main(String[] args) {
        quietLogging();
        int code;
        try {
            code = new StoreCli(System.out).run(args);
        } catch (StoreException | IllegalArgumentException e) {
            System.err.println("basalt: " + e.getMessage());
            code = 2;
        }
        System.exit(code);
    }

    int run(String[] args) {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help")) {
            usage();
            return args.length == 0 ? 1 : 0;
        }
        Map<String, String> opts = options(Arrays.copyOfRange(args, 1, args.length));
        Path dir = Path.of(opts.getOrDefault("store", "data/demo"));
        StoreConfig config = StoreConfig.defaults();
        if ("worm".equalsIgnoreCase(opts.get("mode"))) {
            config = config.withJournal(config.journal().withMode(JournalMode.WORM));
        }
        if (args[0].equals("compact")) {
            out.println(StoreCompactor.compact(dir.resolve(JOURNAL_FILE), config));
            return 0;
        }
        try (Store store = Store.open(dir.resolve(JOURNAL_FILE), config)) {
            switch (args[0]) {
                case "demo" -> demo(store, Integer.parseInt(opts.getOrDefault("keys", "100000")));
                case "stats" -> printStats(store.stats());
                case "sizes" -> printSizes(StoreSizes.of(store));
                case "verify" -> out.println("verify ok: " + store.verify());
                case "history" -> store.retainedCommits().forEach(c -> out.printf("commit %d at %tFT%<tT.%<tLZ%n",
                        c.counter(), c.timeMillis()));
                default -> {
                    usage();
                    return 1;
                }
            }
        }
        return 0;
    }

    private void demo(Store store, int keys) {
        long t0 = System.nanoTime();
        CommitPoint cp;
        try (WriteTransaction tx = store.begin()) {
            BTree tree = tx.tree("demo");
            for (int i = 0; i < keys; i++) {
                tree.put(key(i), ("value " + i).getBytes(StandardCharsets.UTF_8));
            }
            cp = tx.commit();
        }
        long t1 = System.nanoTime();
        int found = 0;
        try (Snapshot s = store.snapshot()) {
            BTree tree = s.tree("demo");
            for (int i = 0; i < keys; i++) {
                byte[] v = tree.get(key(i));
                if (v != null && new String(v, StandardCharsets.UTF_8).equals("value " + i)) {
                    found++;
                }
            }
            out.printf("wrote %,d keys in commit %d (%.0f ms), read back %,d of them (%.0f ms); range count [1000, 2000) = %d%n",
                    keys, cp.counter(), (t1 - t0) / 1e6, found, (System.nanoTime() - t1) / 1e6,
                    tree.rangeCount(key(1000), key(2000)));
        }
        if (found != keys) {
            throw new StoreException("read back " + found + " of " + keys + " keys");
        }
        printStats(store.stats());
    }

    private void printStats(StoreStats s) {
        var j = s.journal();
        out.printf("store         %s (%s)%n", s.path(), j.mode());
        out.printf("commit        %d%n", j.commitCounter());
        out.printf("file bytes    %,d (in use %,d, deferred %,d, pinned %,d)%n", j.fileBytes(), j.bytesInUse(),
                j.bytesDeferred(), j.bytesPinned());
        out.printf("readers       %d (oldest pinned commit %d); oldest readable commit %d%n", j.openReaders(),
                j.oldestPinnedCommit(), j.oldestReadableCommit());
        s.treeSizes().forEach((name, n) -> out.printf("tree %-8s %,d entries%n", name, n));
    }

    private void printSizes(StoreSizes sizes) {
        long file = sizes.journal().fileBytes();
        out.printf("%-12s %12s %10s %10s %14s %14s %14s %14s%n", "tree", "entries", "leaves", "pages", "leaf bytes",
                "other bytes", "records", "in slots");
        long slots = 0;
        for (var e : sizes.trees().entrySet()) {
            StoreSizes.Tree t = e.getValue();
            out.printf("%-12s %,12d %,10d %,10d %,14d %,14d %,14d %,14d%n", e.getKey(), t.stats().entries(),
                    t.stats().leafPages(), t.stats().pages(), t.stats().leafBytes(), t.otherRecordBytes(),
                    t.stats().recordBytes(), t.slotBytes());
            slots += t.slotBytes();
        }
        out.printf("trees in slots %,d; rest of the file (allocator, commit records, free) %,d; file %,d%n", slots,
                sizes.otherBytes(), file);
    }

    /** Library debug logging is for log files, not this terminal: show warnings and errors only. */
    private static void quietLogging() {
        org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (root instanceof ch.qos.logback.classic.Logger logback) {
            logback.setLevel(ch.qos.logback.classic.Level.WARN);
        }
    }

    private static byte[] key(int i) {
        return ByteBuffer.allocate(8).putLong(i).array();
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value, got '" + args[i] + "'");
            }
            m.put(args[i].substring(2), args[++i]);
        }
        return m;
    }

    private void usage() {
        out.println("usage: basalt-store <demo|stats|sizes|verify|history|compact> [--store DIR] [--keys N] [--mode rw|worm]");
    }
}
