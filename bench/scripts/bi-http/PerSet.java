import java.nio.file.*;
import java.util.*;
import java.lang.management.*;
import dev.basalt.sail.*;
import dev.basalt.sail.config.*;
import dev.basalt.sail.repository.*;
import org.eclipse.rdf4j.repository.*;
import org.eclipse.rdf4j.query.*;

/**
 * Query-thread CPU per query file in process: median and fastest of RUNS runs after WARMUP rounds, and the rows.
 * Usage: java -Xmx3g -cp basalt-bench.jar PerSet.java STORE_DIR RUNS WARMUP FILE.rq... (EXPLAIN=1 in the environment
 * also prints each file's timed EXPLAIN). The store is opened as `analytic` opens it (native evaluation, no helper threads).
 */
public class PerSet {
    public static void main(String[] a) throws Exception {
        var threads = ManagementFactory.getThreadMXBean();
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setNativeEvaluation(true);
        config.setHelperThreads(0);
        Repository repo = new BasaltRepository(new BasaltStore(Path.of(a[0]).toFile(), config));
        repo.init();
        int runs = Integer.parseInt(a[1]), warm = Integer.parseInt(a[2]);
        List<String> files = Arrays.asList(a).subList(3, a.length);
        double[][] cpu = new double[files.size()][runs];
        int[] rows = new int[files.size()];
        for (int r = -warm; r < runs; r++) {
            for (int f = 0; f < files.size(); f++) {
                String q = Files.readString(Path.of(files.get(f)));
                long c0 = threads.getCurrentThreadCpuTime();
                int n = 0;
                try (RepositoryConnection c = repo.getConnection(); TupleQueryResult res = c.prepareTupleQuery(q).evaluate()) {
                    for (BindingSet b : res) n++;
                }
                if (r >= 0) cpu[f][r] = (threads.getCurrentThreadCpuTime() - c0) / 1e6;
                rows[f] = n;
            }
        }
        if (System.getenv("EXPLAIN") != null) {
            for (String f : files) {
                try (RepositoryConnection c = repo.getConnection()) {
                    System.out.println("== " + f + "\n" + c.prepareTupleQuery(Files.readString(Path.of(f))).explain(org.eclipse.rdf4j.query.explanation.Explanation.Level.Timed));
                }
            }
        }
        double tot = 0;
        for (int f = 0; f < files.size(); f++) {
            Arrays.sort(cpu[f]);
            tot += cpu[f][runs / 2];
            System.out.printf(Locale.ROOT, "%-20s CPU median %7.1f ms min %7.1f rows %d%n", files.get(f), cpu[f][runs / 2], cpu[f][0], rows[f]);
        }
        System.out.printf(Locale.ROOT, "sum of medians %.1f ms, mean %.1f%n", tot, tot / files.size());
        repo.shutDown();
    }
}
