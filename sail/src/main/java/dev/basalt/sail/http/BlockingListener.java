package dev.basalt.sail.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening socket of Basalt's small blocking HTTP/1.1 servers ({@link SelectPort}, the federation front):
 * an accepting thread and one thread per open connection, which runs the server's {@link Connection} until the
 * connection ends, then closes it. A request on such a connection wakes only its thread; the NIO servers
 * (Jetty, the JDK's) wake a selector and a worker. At most {@code maxConnections} connections are open: one
 * beyond is answered HTTP 503 and closed.
 *
 * <p>Thread rules: {@link #start} and {@link #close} by the owner; the accepting thread and the connections'
 * threads run on their own, sharing the connection handler (which must be thread-safe), the slot count (a
 * semaphore) and the set of open sockets (a concurrent set, so that {@link #close} can close them).
 */
public final class BlockingListener implements AutoCloseable {
    private static final Logger logger = LoggerFactory.getLogger(BlockingListener.class);

    /** Serves one connection's requests on the connection's own thread until it ends. */
    public interface Connection {
        void serve(Socket socket, InputStream in, OutputStream out) throws IOException;
    }

    private final ServerSocket server;
    private final String name;
    private final Connection connection;
    private final int maxConnections;
    private final int idleMillis;
    private final Semaphore slots;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger accepted = new AtomicInteger();
    private volatile boolean closed;

    private BlockingListener(ServerSocket server, String name, Connection connection, int maxConnections,
            int idleMillis) {
        this.server = server;
        this.name = name;
        this.connection = connection;
        this.maxConnections = maxConnections;
        this.idleMillis = idleMillis;
        this.slots = new Semaphore(maxConnections);
    }

    /**
     * Listens on {@code address} (port 0: a free one); {@code name} names its threads and its messages; a
     * connection that sends nothing for {@code idleMillis} is closed.
     */
    public static BlockingListener start(InetSocketAddress address, String name, int maxConnections, int idleMillis,
            Connection connection) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(address, 128);
        BlockingListener listener = new BlockingListener(socket, name, connection, maxConnections, idleMillis);
        Thread acceptor = new Thread(listener::accept, name + "-accept");
        acceptor.setDaemon(true);
        acceptor.start();
        return listener;
    }

    /** The port listened on. */
    public int port() {
        return server.getLocalPort();
    }

    /** Connections accepted since the listener opened. */
    public long accepted() {
        return accepted.get();
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException e) {
            logger.debug("closing {}", name, e);
        }
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    private void accept() {
        while (!closed) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                if (!closed) {
                    logger.warn("{} stopped accepting connections: {}", name, e.toString());
                }
                return;
            }
            if (!slots.tryAcquire()) {
                try (socket) {
                    socket.getOutputStream().write(HttpHead.plainAnswer(503, name + " has " + maxConnections
                            + " connections open; try again", true));
                } catch (IOException e) {
                    logger.debug("refusing a connection", e);
                }
                continue;
            }
            open.add(socket);
            Thread t = new Thread(() -> run(socket), name + "-" + accepted.incrementAndGet());
            t.setDaemon(true);
            t.start();
        }
    }

    private void run(Socket socket) {
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(idleMillis);
            connection.serve(socket, new java.io.BufferedInputStream(socket.getInputStream(), 8192),
                    socket.getOutputStream());
        } catch (HttpHead.Refused e) {
            try {
                socket.getOutputStream().write(HttpHead.plainAnswer(e.status(), e.getMessage(), true));
            } catch (IOException ignored) {
                // the client is gone
            }
        } catch (IOException e) {
            logger.debug("a connection of {} ended: {}", name, e.toString());
        } finally {
            open.remove(socket);
            closeQuietly(socket);
            slots.release();
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            logger.debug("closing a connection", e);
        }
    }
}
