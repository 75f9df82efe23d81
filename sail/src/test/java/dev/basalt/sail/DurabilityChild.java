package dev.basalt.sail;

import java.io.File;

import org.eclipse.rdf4j.common.transaction.IsolationLevels;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.ValueFactory;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.repository.RepositoryConnection;
import org.eclipse.rdf4j.repository.RepositoryResult;
import org.eclipse.rdf4j.repository.sail.SailRepository;

import dev.basalt.sail.config.BasaltStoreConfig;

/**
 * Child JVM of {@link DurabilityTest}: opens a durable store, keeps readers open (an iteration
 * outside a transaction and one inside a SNAPSHOT transaction), and commits one statement per
 * transaction from another connection, printing {@code committed <i>} after each commit returns,
 * until it is killed.
 */
public final class DurabilityChild {
    static final String NS = "http://example.org/durable/";

    private DurabilityChild() {
    }

    public static void main(String[] args) {
        SailRepository repo = new SailRepository(new BasaltStore(new File(args[0]), new BasaltStoreConfig()));
        repo.init();
        ValueFactory vf = SimpleValueFactory.getInstance();
        IRI p = vf.createIRI(NS, "p");
        RepositoryConnection reader = repo.getConnection();
        RepositoryConnection snapshotReader = repo.getConnection();
        RepositoryConnection writer = repo.getConnection();
        writer.add(vf.createIRI(NS, "seed"), p, vf.createLiteral(-1));
        RepositoryResult<Statement> open = reader.getStatements(null, null, null, false);
        open.hasNext();
        snapshotReader.begin(IsolationLevels.SNAPSHOT);
        RepositoryResult<Statement> openInTx = snapshotReader.getStatements(null, null, null, true);
        openInTx.hasNext();
        for (int i = 0;; i++) {
            writer.begin();
            writer.add(vf.createIRI(NS, "s" + i), p, vf.createLiteral(i));
            writer.commit();
            System.out.println("committed " + i);
            System.out.flush();
        }
    }
}
