package dev.basalt.sail.cli;

import java.io.IOException;
import java.nio.file.Path;

import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import dev.basalt.store.journal.StoreException;

/**
 * {@code basalt backup --jmx HOST:PORT} and {@code basalt compact --jmx HOST:PORT}: asks a running
 * process that has the store open to take a hot backup or to compact the store online, through its {@code dev.basalt:type=Store,store="<dir>"} MBean over remote JMX (the
 * process must be started with {@code -Dcom.sun.management.jmxremote.port=PORT} and the usual
 * authentication settings). The store directory and the target file are paths of that process. It runs on the command
 * line's one thread.
 */
final class BackupClient {
    private BackupClient() {
    }

    static String backup(String hostPort, Path storeDir, Path target, long commit) {
        return commit < 0
                ? invoke(hostPort, storeDir, "backup", "backup", new Object[] { target.toString() },
                        new String[] { "java.lang.String" })
                : invoke(hostPort, storeDir, "backupCommit", "backup", new Object[] { target.toString(), commit },
                        new String[] { "java.lang.String", "long" });
    }

    /**
     * Calls the operation {@code operation} of the store's MBean in the process at {@code hostPort}
     * ({@code what} names it in errors) and returns its result as text.
     */
    static String invoke(String hostPort, Path storeDir, String operation, String what, Object[] args,
            String[] signature) {
        JMXServiceURL url;
        try {
            url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + hostPort + "/jmxrmi");
        } catch (IOException e) {
            throw new IllegalArgumentException("--jmx needs HOST:PORT, not '" + hostPort + "'");
        }
        ObjectName name;
        try {
            name = new ObjectName("dev.basalt:type=Store,store="
                    + ObjectName.quote(storeDir.toAbsolutePath().normalize().toString()));
        } catch (JMException e) {
            throw new IllegalArgumentException("no JMX name for " + storeDir + ": " + e.getMessage());
        }
        try (JMXConnector c = JMXConnectorFactory.connect(url)) {
            MBeanServerConnection server = c.getMBeanServerConnection();
            if (!server.isRegistered(name)) {
                throw new StoreException("the process at " + hostPort + " has no open Basalt store " + storeDir
                        + " (no MBean " + name + "); give the store's directory as that process sees it");
            }
            return String.valueOf(server.invoke(name, operation, args, signature));
        } catch (JMException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new StoreException(what + " through " + hostPort + " failed: " + cause.getMessage(), e);
        } catch (IOException e) {
            throw new StoreException("cannot reach JMX at " + hostPort + " (" + url + "): " + e.getMessage(), e);
        }
    }
}
