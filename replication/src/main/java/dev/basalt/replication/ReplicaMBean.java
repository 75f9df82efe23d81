package dev.basalt.replication;

import java.io.IOException;
import java.lang.management.ManagementFactory;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes a {@link ReplicatedSail}'s {@link ReplicaMXBean} on the platform MBean server while the
 * sail runs. The platform server is shared by every class loader of the JVM, which is how the
 * launcher, outside RDF4J Server's webapp, reaches the replica inside it. Any thread may call it.
 */
final class ReplicaMBean implements ReplicaMXBean {
    private static final Logger LOG = LoggerFactory.getLogger(ReplicaMBean.class);
    public static final String DOMAIN_TYPE = "dev.basalt:type=Replica";

    private final ReplicatedSail sail;

    private ReplicaMBean(ReplicatedSail sail) {
        this.sail = sail;
    }

    /** Unregisters on close. */
    interface Registration extends AutoCloseable {
        @Override
        void close();
    }

    static Registration register(ReplicatedSail sail) {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            ObjectName name = new ObjectName(DOMAIN_TYPE + ",node=" + ObjectName.quote(sail.settings().nodeId()));
            if (server.isRegistered(name)) {
                server.unregisterMBean(name);
            }
            server.registerMBean(new ReplicaMBean(sail), name);
            return () -> {
                try {
                    server.unregisterMBean(name);
                } catch (JMException e) {
                    LOG.debug("replica MBean {} already gone: {}", name, e.getMessage());
                }
            };
        } catch (JMException e) {
            LOG.warn("cannot publish the replica over JMX ({}); the /replication endpoint will not see it",
                    e.getMessage());
            return () -> { };
        }
    }

    @Override
    public String getNodeId() {
        return sail.settings().nodeId();
    }

    @Override
    public String getRole() {
        try {
            return sail.role();
        } catch (IOException e) {
            return "STOPPED";
        }
    }

    @Override
    public String getLeaderId() {
        try {
            String leader = sail.leaderId();
            return leader == null ? "" : leader;
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    @Override
    public String getDiagnostics() {
        return sail.describe();
    }

    @Override
    public long getAppliedIndex() {
        return sail.appliedIndex();
    }

    @Override
    public boolean awaitApplied(long index, long timeoutMillis) throws InterruptedException {
        return sail.awaitApplied(index, timeoutMillis);
    }

    @Override
    public String setPeers(String peers) {
        try {
            sail.setPeers(peers);
            return "";
        } catch (IOException | RuntimeException e) {
            return String.valueOf(e.getMessage());
        }
    }

    @Override
    public long linearizableIndex(long timeoutMillis) throws InterruptedException {
        try {
            return sail.linearizableIndex(timeoutMillis);
        } catch (IOException e) {
            LOG.info("linearizable read failed: {}", e.getMessage());
            return -1;
        }
    }
}
