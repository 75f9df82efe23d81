package dev.basalt.sail.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFParserRegistry;
import org.eclipse.rdf4j.rio.Rio;

import dev.basalt.sail.SailLayout;
import dev.basalt.sail.config.BasaltStoreConfig;
import dev.basalt.sail.load.BasaltLoader;
import dev.basalt.sail.load.LoadException;
import dev.basalt.sail.load.LoadOptions;
import dev.basalt.sail.load.LoadProgress;
import dev.basalt.sail.load.LoadResult;
import dev.basalt.sail.load.LoggingProgress;
import dev.basalt.store.Snapshot;
import dev.basalt.store.Store;
import dev.basalt.store.StoreBackup;
import dev.basalt.store.StoreCompactor;
import dev.basalt.store.journal.JournalStats;
import dev.basalt.store.journal.StoreException;
import dev.basalt.store.lexicon.Lexicon;
import dev.basalt.store.lexicon.LexiconCounts;
import dev.basalt.store.quads.QuadOrder;

/**
 * The {@code basalt} command line, on a Basalt data directory that no process has open:
 * <pre>
 * basalt load --store DIR [--context IRI] [--format F] [--threads N] [--inference rdfs|owl-rl] FILES-OR-DIRECTORIES...
 * basalt stats --store DIR
 * basalt verify --store DIR
 * basalt compact --store DIR
 * basalt compact --jmx HOST:PORT --store DIR
 * basalt backup --store DIR --to FILE [--commit N] [--jmx HOST:PORT]
 * basalt restore --from FILE --store DIR
 * </pre>
 * {@code backup --jmx} asks the process that has the store open (e.g. RDF4J Server, started with
 * remote JMX) to take the backup through its {@code dev.basalt:type=Store} MBean; DIR and FILE are
 * then paths on that process's machine.
 * Exit codes: 0 success, 1 usage error, 2 failure (one line on standard error naming the file
 * and line or the store at fault).
 */
public final class BasaltCli {
    static final int OK = 0;
    static final int USAGE = 1;
    static final int FAILED = 2;

    private final PrintStream out;
    private final PrintStream err;
    private final boolean terminal;

    BasaltCli(PrintStream out, PrintStream err, boolean terminal) {
        this.out = out;
        this.err = err;
        this.terminal = terminal;
    }

    public static void main(String[] args) {
        configureLogging();
        System.exit(new BasaltCli(System.out, System.err, System.console() != null).run(args));
    }

    int run(String[] args) {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h")) {
            usage(args.length == 0 ? err : out);
            return args.length == 0 ? USAGE : OK;
        }
        Args a;
        try {
            a = Args.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("basalt: " + e.getMessage());
            usage(err);
            return USAGE;
        }
        try {
            return switch (a.command) {
                case "load" -> load(a);
                case "stats" -> stats(a.store);
                case "verify" -> verify(a.store);
                case "compact" -> compact(a);
                case "backup" -> backup(a);
                case "restore" -> restore(a);
                default -> throw new IllegalStateException(a.command);
            };
        } catch (LoadException | StoreException e) {
            err.println("basalt: " + oneLine(e.getMessage()));
            traceIfAsked(e);
            return FAILED;
        } catch (RuntimeException e) {
            err.println("basalt: " + a.command + " failed: " + oneLine(String.valueOf(e)));
            traceIfAsked(e);
            return FAILED;
        }
    }

    /** {@code -Dbasalt.stacktrace=true} adds the stack trace to the one-line message, for bug reports. */
    private void traceIfAsked(RuntimeException e) {
        if (Boolean.getBoolean("basalt.stacktrace")) {
            e.printStackTrace(err);
        }
    }

    private int load(Args a) {
        LoadOptions options = LoadOptions.defaults();
        if (a.context != null) {
            options = options.withContext(SimpleValueFactory.getInstance().createIRI(a.context));
        }
        if (a.format != null) {
            options = options.withFormat(a.format);
        }
        if (a.threads > 0) {
            options = options.withParserThreads(a.threads);
        }
        if (a.inference != null) {
            BasaltStoreConfig config = new BasaltStoreConfig();
            config.setInference(a.inference);
            options = options.withConfig(config);
        }
        LoadProgress progress = terminal && System.console() != null
                ? new ConsoleProgress(System.console().writer()) : new LoggingProgress();
        LoadResult r = BasaltLoader.load(a.store, a.files, options.withProgress(progress));
        out.printf("loaded %,d statements (%,d new, %,d new terms) from %d input(s) in %.1f s: %,.0f triples/s; %s%n",
                r.statementsRead(), r.statementsAdded(), r.termsAdded(), a.files.size(),
                r.elapsed().toNanos() / 1e9, r.statementsPerSecond(),
                r.commit() >= 0 ? "commit " + r.commit() : "nothing new, no commit");
        return OK;
    }

    private int stats(Path dir) {
        try (Store store = openExisting(dir)) {
            JournalStats j = store.stats().journal();
            printStats(dir, store, j);
        }
        return OK;
    }

    private void printStats(Path dir, Store store, JournalStats j) {
        try (Snapshot s = store.snapshot()) {
            List<QuadOrder> orders = SailLayout.indexOrders(s.property(SailLayout.INDEXES_PROPERTY));
            long explicit = 0;
            long inferred = 0;
            if (orders != null) {
                explicit = size(s, SailLayout.explicitTree(orders.get(0)));
                inferred = size(s, SailLayout.inferredTree(orders.get(0)));
            }
            LexiconCounts t = Lexicon.counts(s);
            long statements = explicit + inferred;
            out.printf("store            %s (%s)%n", SailLayout.journal(dir), j.mode());
            out.printf("commit           %d at %tFT%<tT.%<tLZ%n", j.commitCounter(), j.commitTimeMillis());
            out.printf("statements       %,d (explicit %,d, inferred %,d)%n", statements, explicit, inferred);
            out.printf("indexes          %s%n", orders == null ? "none yet" : orders);
            out.printf("terms            %,d (IRIs %,d, literals %,d, blank nodes %,d, triple terms %,d; inline values not counted)%n",
                    t.total(), t.iris(), t.literals(), t.blankNodes(), t.triples());
            out.printf("bytes on disk    %,d (in use %,d, deferred %,d)%n", j.fileBytes(), j.bytesInUse(), j.bytesDeferred());
            out.printf("bytes/triple     %s%n", statements == 0 ? "-" : String.format("%.1f", (double) j.fileBytes() / statements));
            out.printf("open readers     %d%s%n", j.openReaders(),
                    j.openReaders() > 0 ? " (oldest pinned commit " + j.oldestPinnedCommit() + ")" : "");
            out.printf("pinned bytes     %,d%n", j.bytesPinned());
        }
    }

    private int verify(Path dir) {
        try (Store store = openExisting(dir)) {
            Object report = store.verify(); // StoreVerifier.Report; its toString is the summary
            List<String> problems;
            try (Snapshot s = store.snapshot()) {
                List<QuadOrder> orders = SailLayout.indexOrders(s.property(SailLayout.INDEXES_PROPERTY));
                problems = orders == null ? List.of() : StatementIndexCheck.check(s, orders);
            }
            if (!problems.isEmpty()) {
                problems.forEach(p -> err.println("basalt: verify: " + p));
                err.println("basalt: verify failed: " + problems.size() + " problem(s) in the statement indexes of " + dir);
                return FAILED;
            }
            out.println("verify ok: " + report);
            out.println("verify ok: every statement index order holds the same quads");
        }
        return OK;
    }

    /**
     * Online compaction through JMX of a running process that has the store open, or the offline
     * rewrite of a store no process has open to its newest commit point (history dropped).
     */
    private int compact(Args a) {
        if (a.jmx != null) {
            out.println(BackupClient.invoke(a.jmx, a.store, "compact", "compaction", new Object[0], new String[0]));
            return OK;
        }
        Path dir = a.store;
        Path journal = SailLayout.journal(dir);
        if (!Files.isRegularFile(journal)) {
            throw new StoreException("no Basalt store in " + dir + " (" + journal + " does not exist)");
        }
        out.println(StoreCompactor.compact(journal, new BasaltStoreConfig().toStoreConfig()));
        return OK;
    }

    /** A hot backup through JMX of a running process, or a backup of a store no process has open. */
    private int backup(Args a) {
        if (a.jmx != null) {
            out.println(BackupClient.backup(a.jmx, a.store, a.to, a.commit));
            return OK;
        }
        try (Store store = openExisting(a.store);
                Snapshot s = a.commit < 0 ? store.snapshot() : store.snapshot(a.commit)) {
            out.println(StoreBackup.backup(store, s, a.to, new BasaltStoreConfig().toStoreConfig()));
        }
        return OK;
    }

    /** Verifies a backup and makes it the journal of a store directory that has none. */
    private int restore(Args a) {
        StoreBackup.Result r = StoreBackup.restore(a.from, SailLayout.journal(a.store),
                new BasaltStoreConfig().toStoreConfig());
        out.printf("restored commit point %d (%s) of %s into %s: %,d bytes, trees %s%n", r.commit(), r.commitTime(),
                r.source(), a.store, r.bytes(), r.entries());
        return OK;
    }

    private static long size(Snapshot s, String tree) {
        var t = s.tree(tree);
        return t == null ? 0 : t.size();
    }

    private static Store openExisting(Path dir) {
        Path journal = SailLayout.journal(dir);
        if (!Files.isRegularFile(journal)) {
            throw new StoreException("no Basalt store in " + dir + " (" + journal + " does not exist)");
        }
        return Store.open(journal, new BasaltStoreConfig().toStoreConfig());
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    private static void usage(PrintStream p) {
        p.println("usage: basalt load --store DIR [--context IRI] [--format F] [--threads N] [--inference rdfs|owl-rl] FILES-OR-DIRECTORIES...");
        p.println("       basalt stats --store DIR");
        p.println("       basalt verify --store DIR");
        p.println("       basalt compact --store DIR   (rewrites the store to its newest commit; history is dropped)");
        p.println("       basalt compact --jmx HOST:PORT --store DIR   (online compaction of a store a server has open)");
        p.println("       basalt backup --store DIR --to FILE [--commit N]   (verified compact copy of one commit point)");
        p.println("       basalt backup --jmx HOST:PORT --store DIR --to FILE [--commit N]   (of a store a server has open)");
        p.println("       basalt restore --from FILE --store DIR   (DIR must hold no journal)");
        p.println("The store directory must not be open in another process (except for backup --jmx). Formats come from the file names");
        p.println("(.nt .nq .ttl .trig .rdf .jsonld ..., optionally .gz or .bz2) unless --format names one (e.g. turtle,");
        p.println("nq); a directory stands for the RDF files under it; - stands for standard input (N-Triples, or N-Quads");
        p.println("with --format nq), e.g. 'basalt-bench generate-bsbm ... --out - | basalt load --store DIR -'. --threads: N-Triples/N-Quads parser threads");
        p.println("(default: the number of processors). --inference: compute the closure under that rule set after the");
        p.println("load (default: the rule set recorded in the store, if any).");
    }

    /** Turns {@code basalt.load} etc. quiet: library debug logs are for log files; loader progress stays at INFO. */
    private static void configureLogging() {
        org.slf4j.Logger root = org.slf4j.LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        if (root instanceof ch.qos.logback.classic.Logger logback) {
            logback.setLevel(ch.qos.logback.classic.Level.WARN);
            ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("dev.basalt.sail.load"))
                    .setLevel(ch.qos.logback.classic.Level.INFO);
        }
    }

    /** Parsed command line. */
    static final class Args {
        String command;
        Path store;
        String context;
        RDFFormat format;
        int threads;
        Path to;
        Path from;
        long commit = -1;
        String jmx;
        dev.basalt.sail.config.InferenceMode inference;
        final List<Path> files = new ArrayList<>();

        static Args parse(String[] args) {
            Args a = new Args();
            a.command = args[0];
            if (!List.of("load", "stats", "verify", "compact", "backup", "restore").contains(a.command)) {
                throw new IllegalArgumentException("unknown command '" + a.command + "'");
            }
            for (int i = 1; i < args.length; i++) {
                String arg = args[i];
                if (arg.startsWith("--")) {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(arg + " needs a value");
                    }
                    String value = args[++i];
                    switch (arg) {
                        case "--store" -> a.store = Path.of(value);
                        case "--context" -> a.context = value;
                        case "--format" -> a.format = format(value);
                        case "--threads" -> a.threads = threads(value);
                        case "--to" -> a.to = Path.of(value);
                        case "--from" -> a.from = Path.of(value);
                        case "--commit" -> a.commit = commit(value);
                        case "--jmx" -> a.jmx = value;
                        case "--inference" -> a.inference = dev.basalt.sail.config.InferenceMode.parse(value);
                        default -> throw new IllegalArgumentException("unknown option " + arg);
                    }
                    String owner = switch (arg) {
                        case "--store" -> a.command;
                        case "--jmx" -> a.command.equals("compact") ? "compact" : "backup";
                        case "--to", "--commit" -> "backup";
                        case "--from" -> "restore";
                        default -> "load";
                    };
                    if (!owner.equals(a.command)) {
                        throw new IllegalArgumentException(arg + " applies to " + owner + " only");
                    }
                } else if (a.command.equals("load")) {
                    a.files.add(Path.of(arg));
                } else {
                    throw new IllegalArgumentException(a.command + " takes no files: '" + arg + "'");
                }
            }
            if (a.store == null) {
                throw new IllegalArgumentException("--store DIR is required");
            }
            if (a.command.equals("backup") && a.to == null) {
                throw new IllegalArgumentException("backup needs --to FILE");
            }
            if (a.command.equals("restore") && a.from == null) {
                throw new IllegalArgumentException("restore needs --from FILE");
            }
            if (a.command.equals("load") && a.files.isEmpty()) {
                throw new IllegalArgumentException("load needs at least one file");
            }
            if (a.context != null && !a.context.contains(":")) {
                throw new IllegalArgumentException("--context must be an absolute IRI: '" + a.context + "'");
            }
            return a;
        }

        static long commit(String value) {
            try {
                long n = Long.parseLong(value);
                if (n >= 0) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // the message below
            }
            throw new IllegalArgumentException("--commit needs a commit counter (0 or more): '" + value + "'");
        }

        static int threads(String value) {
            try {
                int n = Integer.parseInt(value);
                if (n >= 1) {
                    return n;
                }
            } catch (NumberFormatException ignored) {
                // the message below
            }
            throw new IllegalArgumentException("--threads needs a positive number: '" + value + "'");
        }

        /** A format by name (e.g. "Turtle", "N-Quads") or by file extension (e.g. "ttl", "nq"). */
        static RDFFormat format(String name) {
            for (RDFFormat f : RDFParserRegistry.getInstance().getKeys()) {
                if (f.getName().equalsIgnoreCase(name) || f.getName().replace("-", "").equalsIgnoreCase(name)) {
                    return f;
                }
            }
            Optional<RDFFormat> byExt = Rio.getParserFormatForFileName("x." + name.toLowerCase(Locale.ROOT));
            return byExt.orElseThrow(() -> new IllegalArgumentException("unknown format '" + name + "'"));
        }
    }
}
