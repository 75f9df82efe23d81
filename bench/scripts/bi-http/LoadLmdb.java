import java.io.*;
import java.util.*;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;
import org.eclipse.rdf4j.rio.*;
import org.eclipse.rdf4j.rio.helpers.AbstractRDFHandler;
import org.eclipse.rdf4j.sail.lmdb.LmdbStore;
import org.eclipse.rdf4j.sail.lmdb.config.LmdbStoreConfig;

/** Loads an N-Triples file into an LmdbStore directory, committing every 100,000 statements. */
public class LoadLmdb {
    public static void main(String[] a) throws Exception {
        SailRepository repo = new SailRepository(new LmdbStore(new File(a[0]), new LmdbStoreConfig("spoc,posc,ospc")));
        long t0 = System.nanoTime();
        try (RepositoryConnection c = repo.getConnection(); InputStream in = new BufferedInputStream(new FileInputStream(a[1]), 1 << 20)) {
            List<Statement> buf = new ArrayList<>();
            long[] n = {0};
            RDFParser p = Rio.createParser(RDFFormat.NTRIPLES);
            p.setRDFHandler(new AbstractRDFHandler() {
                @Override public void handleStatement(Statement st) {
                    buf.add(st);
                    if (buf.size() == 100_000) { flush(); }
                }
                @Override public void endRDF() { flush(); }
                void flush() {
                    c.begin(); c.add(buf); c.commit(); n[0] += buf.size(); buf.clear();
                    if (n[0] % 1_000_000 == 0) System.out.printf("%,d statements, %.0f s%n", n[0], (System.nanoTime() - t0) / 1e9);
                }
            });
            p.parse(in, "");
            System.out.printf("loaded %,d statements in %.1f s, size %,d%n", n[0], (System.nanoTime() - t0) / 1e9, c.size());
        } finally {
            repo.shutDown();
        }
    }
}
