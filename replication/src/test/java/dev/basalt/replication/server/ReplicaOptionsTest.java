package dev.basalt.replication.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.StringReader;

import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.Rio;
import org.junit.jupiter.api.Test;

import dev.basalt.replication.ReplicationSettings;
import dev.basalt.replication.config.ReplicatedStoreConfig;

/**
 * The node launcher's {@code --election-timeout-ms} reaches the replica's settings through the
 * repository configuration it writes (and its default when not given); an out-of-range value is
 * refused. Run by JUnit's one thread.
 */
class ReplicaOptionsTest {
    @Test
    void theElectionTimeoutOptionReachesTheReplicasSettings() throws Exception {
        assertEquals(2_500, settings("--election-timeout-ms", "2500").electionTimeoutMillis());
        assertEquals(ReplicationSettings.DEFAULT_ELECTION_TIMEOUT_MILLIS, settings().electionTimeoutMillis());
        assertThrows(Exception.class, () -> settings("--election-timeout-ms", "50"));
    }

    private static ReplicationSettings settings(String... extra) throws Exception {
        String[] args = new String[6 + extra.length];
        System.arraycopy(new String[] {"--id", "n0", "--peers", "n0=127.0.0.1:18090,n1=127.0.0.1:18091", "--home",
                "."}, 0, args, 0, 6);
        System.arraycopy(extra, 0, args, 6, extra.length);
        ReplicaOptions options = ReplicaOptions.parse(args);
        Model model = Rio.parse(new StringReader(ReplicaRepositoryConfig.turtle(options)), "", RDFFormat.TURTLE);
        Resource sail = model.filter(null, SimpleValueFactory.getInstance().createIRI(
                "tag:rdf4j.org,2023:config/sail.type"), SimpleValueFactory.getInstance().createLiteral(
                        "basalt:ReplicatedStore")).subjects().iterator().next();
        ReplicatedStoreConfig config = new ReplicatedStoreConfig();
        config.parse(model, sail);
        return config.getSettings();
    }
}
