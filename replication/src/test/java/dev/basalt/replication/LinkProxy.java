package dev.basalt.replication;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One direction of a network link between two replicas, as a TCP proxy on a loopback port: every
 * connection node A opens to node B's Raft port passes through it. While the link is cut, it still
 * accepts connections and reads what is sent, but forwards nothing and answers nothing (packets
 * lost, as in a real partition, not refused); when healed, it closes the connections that lost
 * bytes (as their TCP timeouts would) and forwards again.
 *
 * <p>Thread rules: one accepting thread and two pumping threads per connection, all daemons;
 * {@link #cut}, {@link #heal}, {@link #retarget} and {@link #close} may be called from any thread.
 */
final class LinkProxy implements AutoCloseable {
    private final ServerSocket server;
    /** The target's port; changed by {@link #retarget} when the target moves to another port. */
    private volatile int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    /** Accepted connections that have no connection to the target (accepted while cut). */
    private final Set<Socket> unconnected = ConcurrentHashMap.newKeySet();
    private final String name;
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private volatile boolean cut;
    private volatile boolean closed;

    LinkProxy(String name, int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.name = name;
        this.server = new ServerSocket();
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread accept = new Thread(this::accept, "link-" + name);
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return server.getLocalPort();
    }

    /** Bytes forwarded and bytes dropped (sent while the link was cut) so far. */
    long forwarded() {
        return forwarded.get();
    }

    long dropped() {
        return dropped.get();
    }

    /** One line for a diagnosis: cut or not, open sockets, those accepted while cut still open, bytes. */
    String describe() {
        return name + (cut ? " CUT" : "") + ": open " + open.size() + ", unconnected " + unconnected.size()
                + ", forwarded " + forwarded.get() + ", dropped " + dropped.get();
    }

    /**
     * Forwards connections accepted from now on to {@code port}, and closes those open now: they
     * lead to the old port, where whatever listens now is not the target.
     */
    void retarget(int port) {
        targetPort = port;
        closeConnections();
    }

    void cut() {
        cut = true;
    }

    /**
     * Forwards again, and closes every connection open now: those that lost bytes, as their TCP
     * timeouts would, and those accepted while cut, which have no connection to the target. The flag
     * goes down first, so a connection accepted meanwhile either is among those closed or is
     * connected to the target; a connection that lost bytes and is read again before it is closed
     * closes itself ({@link #pump}) rather than forward what follows a gap.
     */
    void heal() {
        if (cut) {
            cut = false;
            closeConnections();
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket in = server.accept();
                open.add(in);
                Socket out = null;
                if (!cut) {
                    try {
                        out = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                        open.add(out);
                    } catch (IOException refused) {
                        // the target is down: as for a real link, the connection fails
                        closeQuietly(in);
                        continue;
                    }
                } else {
                    unconnected.add(in);
                }
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                if (!closed) {
                    continue;
                }
                return;
            }
        }
    }

    /**
     * Copies {@code from} to {@code to} while the link is up; a null end drops everything. Once it
     * has dropped bytes, the connection never forwards again: read after the link is up, it closes
     * (a stream with a gap in it is a broken connection, never a shorter one).
     */
    private void pump(Socket from, Socket to) {
        if (from == null) {
            return;
        }
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[64 << 10];
            try (InputStream input = from.getInputStream()) {
                OutputStream output = to == null ? null : to.getOutputStream();
                boolean lost = false;
                int n;
                while ((n = input.read(buffer)) >= 0) {
                    if (cut) {
                        dropped.addAndGet(n);
                        lost = true;
                    } else if (lost || output == null) {
                        dropped.addAndGet(n);
                        break;
                    } else {
                        output.write(buffer, 0, n);
                        output.flush();
                        forwarded.addAndGet(n);
                    }
                }
            } catch (IOException e) {
                // either end closed: close both
            }
            closeQuietly(from);
            closeQuietly(to);
        }, "link-pump");
        t.setDaemon(true);
        t.start();
    }

    private void closeConnections() {
        for (Socket s : open) {
            closeQuietly(s);
        }
    }

    private void closeQuietly(Socket s) {
        if (s == null) {
            return;
        }
        open.remove(s);
        unconnected.remove(s);
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() {
        closed = true;
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        closeConnections();
    }
}
