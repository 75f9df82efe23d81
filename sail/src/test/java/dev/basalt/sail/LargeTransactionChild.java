package dev.basalt.sail;

import java.io.File;

import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.sail.SailRepository;

import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Child JVM of {@link LargeTransactionCrashTest}: adds {@code n} statements in ONE transaction
 * (spilling pending changes to disk past 20,000), printing "EVENT k" every 20,000 statements and
 * "COMMITTING" before commit(), then "DONE" after it returned; it is killed somewhere on the way.
 */
public final class LargeTransactionChild {
    private LargeTransactionChild() {
    }

    public static void main(String[] args) {
        BasaltStoreConfig config = new BasaltStoreConfig();
        config.setSpillThreshold(20_000);
        SailRepository repo = TestRepos.open(new File(args[0]), config);
        int n = Integer.parseInt(args[1]);
        try (RepositoryConnection c = repo.getConnection()) {
            c.begin();
            for (int i = 0; i < n; i++) {
                c.add(SpillData.statement(i));
                if (i % 20_000 == 19_999) {
                    System.out.println("EVENT " + (i + 1) / 20_000);
                    System.out.flush();
                }
            }
            System.out.println("COMMITTING");
            System.out.flush();
            c.commit();
            System.out.println("DONE");
            System.out.flush();
        }
        repo.shutDown();
    }
}
