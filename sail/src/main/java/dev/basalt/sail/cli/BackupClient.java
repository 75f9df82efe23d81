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
 * {@code basalt backup --jmx HOST:PORT}: asks a running process that has the store open to take a
 * hot backup, through its {@code dev.basalt:type=Store,store="<dir>"} MBean over remote JMX (the
 * process must be started with {@code -Dcom.sun.management.jmxremote.port=PORT} and the usual
 * authentication settings). The store directory and the target file are paths of that process. It runs on the command
 * line's one thread.
 */
final class BackupClient {
    private BackupClient() {
    }

    static String backup(String hostPort, Path storeDir, Path target, long commit) {
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
            Object result = commit < 0
                    ? server.invoke(name, "backup", new Object[] { target.toString() }, new String[] { "java.lang.String" })
                    : server.invoke(name, "backupCommit", new Object[] { target.toString(), commit },
                            new String[] { "java.lang.String", "long" });
            return String.valueOf(result);
        } catch (JMException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new StoreException("backup through " + hostPort + " failed: " + cause.getMessage(), e);
        } catch (IOException e) {
            throw new StoreException("cannot reach JMX at " + hostPort + " (" + url + "): " + e.getMessage(), e);
        }
    }
}
