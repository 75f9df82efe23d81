package dev.basalt.replication.config;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Model;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.impl.SimpleValueFactory;
import org.eclipse.rdf4j.model.util.Models;
import org.eclipse.rdf4j.sail.config.AbstractDelegatingSailImplConfig;
import org.eclipse.rdf4j.sail.config.SailConfigException;
import org.eclipse.rdf4j.sail.config.SailImplConfig;

import dev.basalt.replication.ReplicationSettings;

/**
 * Configuration of a {@code basalt:ReplicatedStore} sail, stacked over a {@code basalt:BasaltStore}
 * delegate, in the vocabulary {@value #NAMESPACE}: {@code nodeId}, {@code peers}
 * ({@code id=host:port,...}), and optionally {@code cluster}, {@code commitTimeoutMillis},
 * {@code snapshotEvery}, {@code retainEntries}, {@code segmentBytes} and {@code electionTimeoutMillis}
 * (see {@link ReplicationSettings}).
 *
 * <p>Not thread-safe; RDF4J builds and reads it on one thread.
 */
public final class ReplicatedStoreConfig extends AbstractDelegatingSailImplConfig {
    public static final String NAMESPACE = "http://basalt.dev/config/replication#";
    public static final IRI NODE_ID = iri("nodeId");
    public static final IRI PEERS = iri("peers");
    public static final IRI CLUSTER = iri("cluster");
    public static final IRI COMMIT_TIMEOUT = iri("commitTimeoutMillis");
    public static final IRI SNAPSHOT_EVERY = iri("snapshotEvery");
    public static final IRI RETAIN_ENTRIES = iri("retainEntries");
    public static final IRI SEGMENT_BYTES = iri("segmentBytes");
    public static final IRI ELECTION_TIMEOUT = iri("electionTimeoutMillis");

    private ReplicationSettings settings;

    public ReplicatedStoreConfig() {
        super(ReplicatedStoreFactory.SAIL_TYPE);
    }

    public ReplicatedStoreConfig(ReplicationSettings settings, SailImplConfig delegate) {
        super(ReplicatedStoreFactory.SAIL_TYPE, delegate);
        this.settings = settings;
    }

    private static IRI iri(String local) {
        return SimpleValueFactory.getInstance().createIRI(NAMESPACE, local);
    }

    public ReplicationSettings getSettings() {
        return settings;
    }

    @Override
    public void validate() throws SailConfigException {
        super.validate();
        if (settings == null) {
            throw new SailConfigException("a basalt:ReplicatedStore needs <" + NODE_ID + "> and <" + PEERS + ">");
        }
    }

    @Override
    public Resource export(Model m) {
        Resource node = super.export(m);
        if (settings != null) {
            SimpleValueFactory vf = SimpleValueFactory.getInstance();
            m.add(node, NODE_ID, vf.createLiteral(settings.nodeId()));
            m.add(node, PEERS, vf.createLiteral(settings.peersString()));
            m.add(node, CLUSTER, vf.createLiteral(settings.cluster()));
            m.add(node, COMMIT_TIMEOUT, vf.createLiteral(settings.commitTimeoutMillis()));
            m.add(node, SNAPSHOT_EVERY, vf.createLiteral(settings.snapshotEvery()));
            m.add(node, RETAIN_ENTRIES, vf.createLiteral(settings.retainEntries()));
            m.add(node, SEGMENT_BYTES, vf.createLiteral(settings.segmentBytes()));
            m.add(node, ELECTION_TIMEOUT, vf.createLiteral(settings.electionTimeoutMillis()));
        }
        return node;
    }

    @Override
    public void parse(Model m, Resource node) throws SailConfigException {
        super.parse(m, node);
        String nodeId = string(m, node, NODE_ID, null);
        String peers = string(m, node, PEERS, null);
        if (nodeId == null || peers == null) {
            settings = null;
            return;
        }
        try {
            settings = new ReplicationSettings(nodeId, ReplicationSettings.parsePeers(peers),
                    string(m, node, CLUSTER, ReplicationSettings.DEFAULT_CLUSTER),
                    number(m, node, COMMIT_TIMEOUT, ReplicationSettings.DEFAULT_COMMIT_TIMEOUT_MILLIS),
                    number(m, node, SNAPSHOT_EVERY, ReplicationSettings.DEFAULT_SNAPSHOT_EVERY),
                    number(m, node, RETAIN_ENTRIES, ReplicationSettings.DEFAULT_RETAIN_ENTRIES),
                    number(m, node, SEGMENT_BYTES, ReplicationSettings.DEFAULT_SEGMENT_BYTES),
                    ReplicationSettings.DEFAULT_PIECE_BYTES,
                    number(m, node, ELECTION_TIMEOUT, ReplicationSettings.DEFAULT_ELECTION_TIMEOUT_MILLIS));
        } catch (IllegalArgumentException e) {
            throw new SailConfigException("replicated store configuration: " + e.getMessage(), e);
        }
    }

    private static String string(Model m, Resource node, IRI property, String fallback) {
        return Models.objectLiteral(m.getStatements(node, property, null)).map(Literal::getLabel).orElse(fallback);
    }

    private static long number(Model m, Resource node, IRI property, long fallback) {
        String s = string(m, node, property, null);
        if (s == null) {
            return fallback;
        }
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw new SailConfigException("<" + property + "> must be a whole number, got '" + s + "'");
        }
    }
}
