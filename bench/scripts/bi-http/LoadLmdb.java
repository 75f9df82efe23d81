import java.io.*;
import java.util.*;
import java.util.zip.GZIPInputStream;
import org.eclipse.rdf4j.common.transaction.IsolationLevel;
import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.*;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;
import org.eclipse.rdf4j.sail.lmdb.LmdbStore;
import org.eclipse.rdf4j.sail.lmdb.config.LmdbStoreConfig;

/**
 * Loads an N-Triples file (FILE, FILE.gz, or - for standard input) into an LmdbStore directory (indexes spoc,posc,ospc)
 * through the Repository API, statement by statement, and prints the rate every million statements ({@code --progress N}:
 * every N).
 *
 * <p>Defaults, each chosen for a bulk load: isolation NONE (statements go straight to the store's sink; under the
 * store's default isolation every transaction is first buffered in a changeset model that may spill to a temporary
 * store on disk), one transaction for the whole file ({@code --commit N} commits every N statements instead), and
 * LMDB maps preset to {@code --triple-db-mib} and {@code --value-db-mib} (LmdbStore's own default is 10 MiB with
 * autoGrow: each time a map fills inside a transaction, the rest of that transaction goes to a temporary record cache
 * and is replayed at commit into a grown map). The maps are sparse files: only the pages written take disk. forceSync
 * stays off (LmdbStore's default). {@code --isolation SNAPSHOT_READ --commit 100000 --triple-db-mib 10 --value-db-mib
 * 10} gives the loader this replaced. {@code --value-cache N} and {@code --value-id-cache N} set LmdbStore's value
 * caches (its defaults are kept unless given). No final size(): counting 100M statements takes minutes.
 *
 * <p>Usage: java -Xmx2g -cp basalt-bench.jar LoadLmdb.java DIR FILE [--commit N] [--isolation NONE|SNAPSHOT_READ|...]
 * [--triple-db-mib N] [--value-db-mib N] [--value-cache N] [--value-id-cache N] [--progress N]
 */
public class LoadLmdb {
    public static void main(String[] a) throws Exception {
        if (a.length < 2 || a.length % 2 != 0) {
            throw new IllegalArgumentException("usage: LoadLmdb DIR FILE|FILE.gz|- [--commit N] [--isolation LEVEL]"
                    + " [--triple-db-mib N] [--value-db-mib N] [--value-cache N] [--value-id-cache N] [--progress N]");
        }
        Map<String, String> opt = new HashMap<>();
        for (int i = 2; i < a.length; i += 2) {
            if (!List.of("--commit", "--isolation", "--triple-db-mib", "--value-db-mib", "--value-cache", "--value-id-cache", "--progress").contains(a[i])) {
                throw new IllegalArgumentException("unknown option " + a[i]);
            }
            opt.put(a[i], a[i + 1]);
        }
        long commitEvery = Long.parseLong(opt.getOrDefault("--commit", "0"));
        long progress = Long.parseLong(opt.getOrDefault("--progress", "1000000"));
        IsolationLevel isolation = IsolationLevels.valueOf(opt.getOrDefault("--isolation", "NONE"));
        LmdbStoreConfig config = new LmdbStoreConfig("spoc,posc,ospc");
        config.setForceSync(false);
        config.setTripleDBSize(Long.parseLong(opt.getOrDefault("--triple-db-mib", "65536")) << 20);
        config.setValueDBSize(Long.parseLong(opt.getOrDefault("--value-db-mib", "32768")) << 20);
        if (opt.containsKey("--value-cache")) config.setValueCacheSize(Integer.parseInt(opt.get("--value-cache")));
        if (opt.containsKey("--value-id-cache")) config.setValueIDCacheSize(Integer.parseInt(opt.get("--value-id-cache")));
        System.out.printf("isolation %s, commit every %s, tripleDBSize %,d, valueDBSize %,d, autoGrow %s, forceSync %s,"
                + " valueCacheSize %,d, valueIDCacheSize %,d%n", isolation, commitEvery == 0 ? "file" : commitEvery,
                config.getTripleDBSize(), config.getValueDBSize(), config.getAutoGrow(), config.getForceSync(),
                config.getValueCacheSize(), config.getValueIDCacheSize());
        SailRepository repo = new SailRepository(new LmdbStore(new File(a[0]), config));
        long t0 = System.nanoTime();
        InputStream raw = a[1].equals("-") ? System.in : new FileInputStream(a[1]);
        if (a[1].endsWith(".gz")) raw = new GZIPInputStream(raw, 1 << 16);
        try (RepositoryConnection c = repo.getConnection(); InputStream in = new BufferedInputStream(raw, 1 << 20)) {
            long[] n = {0};
            double[] last = {0};
            RDFParser p = Rio.createParser(RDFFormat.NTRIPLES);
            c.begin(isolation);
            p.setRDFHandler(new AbstractRDFHandler() {
                @Override public void handleStatement(Statement st) {
                    c.add(st);
                    n[0]++;
                    if (commitEvery > 0 && n[0] % commitEvery == 0) { c.commit(); c.begin(isolation); }
                    if (n[0] % progress == 0) {
                        double s = (System.nanoTime() - t0) / 1e9;
                        System.out.printf("%,d statements, %.1f s, %,.0f/s since the last line%n", n[0], s, progress / (s - last[0]));
                        last[0] = s;
                    }
                }
            });
            p.parse(in, "");
            double parsed = (System.nanoTime() - t0) / 1e9;
            c.commit();
            double s = (System.nanoTime() - t0) / 1e9;
            System.out.printf("loaded %,d statements in %.1f s (last commit %.1f s), %,.0f statements/s%n", n[0], s, s - parsed, n[0] / s);
        } finally {
            repo.shutDown();
        }
    }
}
