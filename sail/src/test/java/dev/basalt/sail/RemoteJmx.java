package dev.basalt.sail;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.ServerSocket;
import java.rmi.NoSuchObjectException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.UnicastRemoteObject;

import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The platform MBean server published over RMI on a free loopback port, as a server started with
 * {@code -Dcom.sun.management.jmxremote.port} publishes it: what {@code basalt … --jmx HOST:PORT}
 * connects to in the tests. Closing stops the connector and takes the registry down. Used by one
 * test thread.
 */
final class RemoteJmx implements AutoCloseable {
    private final Registry registry;
    private final JMXConnectorServer server;
    private final int port;

    RemoteJmx() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        registry = LocateRegistry.createRegistry(port);
        server = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi"), null,
                ManagementFactory.getPlatformMBeanServer());
        server.start();
    }

    /** {@code 127.0.0.1:PORT}, the value of the CLI's {@code --jmx}. */
    String address() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void close() throws IOException {
        try {
            server.stop();
        } finally {
            try {
                UnicastRemoteObject.unexportObject(registry, true);
            } catch (NoSuchObjectException e) {
                // already gone
            }
        }
    }
}
