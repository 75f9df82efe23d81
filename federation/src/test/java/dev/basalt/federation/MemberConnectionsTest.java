package dev.basalt.federation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link MemberConnections} against a stand-in member on a raw socket: answers of a known length and chunked ones
 * are read whole, requests reuse one kept-alive socket, a socket the member closed while idle is replaced
 * once without failing the request, and a member that does not answer fails the request at its timeout.
 */
class MemberConnectionsTest {
    private ServerSocket server;
    private final AtomicInteger accepted = new AtomicInteger();

    /** How the stand-in answers: the request's body upper-cased, chunked or not, closing after each answer or not. */
    private void serve(boolean chunked, boolean closeAfterAnswer, boolean silent) throws IOException {
        server = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            while (!server.isClosed()) {
                try {
                    Socket socket = server.accept();
                    accepted.incrementAndGet();
                    Thread connection = new Thread(() -> answer(socket, chunked, closeAfterAnswer, silent));
                    connection.setDaemon(true);
                    connection.start();
                } catch (IOException e) {
                    return;
                }
            }
        });
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private static void answer(Socket socket, boolean chunked, boolean closeAfterAnswer, boolean silent) {
        try (socket) {
            InputStream in = socket.getInputStream();
            OutputStream out = socket.getOutputStream();
            while (true) {
                int length = -1;
                String line;
                StringBuilder head = new StringBuilder();
                while (!(line = readLine(in)).isEmpty()) {
                    head.append(line).append('\n');
                    if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                        length = Integer.parseInt(line.substring(15).trim());
                    }
                }
                if (!head.toString().startsWith("POST /repositories/m HTTP/1.1")) {
                    return;
                }
                String body = new String(in.readNBytes(length), StandardCharsets.UTF_8).toUpperCase(Locale.ROOT);
                if (silent) {
                    Thread.sleep(10_000);
                    return;
                }
                byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
                StringBuilder answer = new StringBuilder("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n");
                if (chunked) {
                    answer.append("Transfer-Encoding: chunked\r\n\r\n");
                    for (int i = 0; i < body.length(); i += 3) {
                        String chunk = body.substring(i, Math.min(body.length(), i + 3));
                        answer.append(Integer.toHexString(chunk.length())).append(";x=y\r\n").append(chunk).append("\r\n");
                    }
                    answer.append("0\r\n\r\n");
                    out.write(answer.toString().getBytes(StandardCharsets.UTF_8));
                } else {
                    answer.append("Content-Length: ").append(bytes.length).append("\r\n\r\n");
                    out.write(answer.toString().getBytes(StandardCharsets.UTF_8));
                    out.write(bytes);
                }
                out.flush();
                if (closeAfterAnswer) {
                    return;
                }
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            // the client went away
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                throw new IOException("closed");
            }
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    private String url() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/repositories/m";
    }

    private static String ask(MemberConnections client, String text) throws IOException {
        try (MemberConnections.Answer answer = client.post(text.getBytes(StandardCharsets.UTF_8), "text/plain", "text/plain", 5_000)) {
            assertEquals(200, answer.status());
            assertEquals("text/plain", answer.contentType());
            return new String(answer.body().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void answersOfAKnownLengthAndChunkedOnesAreReadWholeOnOneSocket() throws IOException {
        for (boolean chunked : new boolean[] { false, true }) {
            serve(chunked, false, false);
            AtomicLong sent = new AtomicLong();
            try (MemberConnections client = new MemberConnections(url(), sent)) {
                for (int i = 0; i < 20; i++) {
                    assertEquals("SELECT * { ?S ?P " + i + " }", ask(client, "select * { ?s ?p " + i + " }"));
                }
            }
            assertEquals(20, sent.get());
            assertEquals(1, accepted.getAndSet(0), "one kept-alive socket, chunked " + chunked);
            server.close();
        }
        server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    }

    @Test
    void aSocketTheMemberClosedIsReplacedWithoutFailingTheRequest() throws IOException {
        serve(false, true, false);
        try (MemberConnections client = new MemberConnections(url(), new AtomicLong())) {
            for (int i = 0; i < 5; i++) {
                assertEquals("ASK " + i, ask(client, "ask " + i));
            }
        }
        assertEquals(5, accepted.get(), "a new socket for each request");
    }

    @Test
    void aMemberThatDoesNotAnswerFailsTheRequestAtItsTimeout() throws IOException {
        serve(false, false, true);
        try (MemberConnections client = new MemberConnections(url(), new AtomicLong())) {
            long started = System.nanoTime();
            assertThrows(SocketTimeoutException.class, () -> client.post(new byte[] { 'a' }, "text/plain", "text/plain", 300));
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertTrue(millis >= 250 && millis < 5_000, "failed after " + millis + " ms");
        }
    }
}
