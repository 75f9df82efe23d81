package dev.basalt.bench.load;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.repository.Repository;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.rio.RDFFormat;

import dev.basalt.bench.store.StoreSetups;

/**
 * The child process of a Repository API load, so that the load comparison times a whole process for
 * every store: {@code load STORE DIR FILE} adds an N-Triples file to the store in {@code DIR} (new or
 * existing) in one transaction with isolation NONE, as an application would with
 * {@code RepositoryConnection.add(File)}, and commits; {@code count STORE DIR} prints the number of
 * statements. {@code STORE} is a sail setup name of {@link StoreSetups}. Output: one line
 * {@code statements N} for count, {@code loaded in S s} for load; exit code 2 on failure.
 *
 * <p>Runs on the main thread of its own process only.
 */
public final class RepositoryLoadMain {

	private RepositoryLoadMain() {
	}

	public static void main(String[] args) {
		if (args.length < 3 || !(args[0].equals("load") && args.length == 4 || args[0].equals("count"))) {
			System.err.println("usage: RepositoryLoadMain load STORE DIR FILE | count STORE DIR");
			System.exit(1);
		}
		Path dir = Path.of(args[2]);
		Repository repo = StoreSetups.byName(args[1]).createRepository(dir);
		repo.init();
		try (RepositoryConnection conn = repo.getConnection()) {
			if (args[0].equals("count")) {
				System.out.println("statements " + conn.size());
			} else {
				long t0 = System.nanoTime();
				File file = new File(args[3]);
				conn.begin(IsolationLevels.NONE);
				conn.add(file, RDFFormat.NTRIPLES);
				conn.commit();
				System.out.printf(Locale.ROOT, "loaded in %.1f s%n", (System.nanoTime() - t0) / 1e9);
			}
		} catch (IOException | RuntimeException e) {
			System.err.println("RepositoryLoadMain " + String.join(" ", args) + " failed: " + e);
			repo.shutDown();
			System.exit(2);
		}
		repo.shutDown();
	}
}
