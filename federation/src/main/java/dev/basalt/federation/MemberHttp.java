package dev.basalt.federation;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.resultio.QueryResultIO;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultParser;
import org.eclipse.rdf4j.query.resultio.helpers.QueryResultCollector;

/**
 * The front's own requests to one member's SPARQL endpoint, on the member's {@link MemberConnections}
 * (kept-alive sockets; a star's SELECT to the member's select port when it has one, docs/federation.md), each waiting at most the member timeout or the query's remaining time, whichever is
 * shorter, for a connection or the next bytes of the answer: a star's SELECT answered in RDF4J's binary results format and read
 * on the calling thread, and a whole query sent on with the client's chosen format and its answer
 * returned as bytes ({@link #forward}). RDF4J's SPARQL client, which FedX uses, reads every answer on a
 * background thread and hands rows over a queue; a star's answer is small and read at once, so the
 * calling thread reads it itself.
 *
 * <p>Thread-safe: each call makes its own request; the HTTP client is shared and thread-safe. A
 * {@link SentSelect} belongs to the thread that sent it, which reads or aborts it once.
 */
final class MemberHttp {
    static final String BINARY = TupleQueryResultFormat.BINARY.getDefaultMIMEType();
    private static final String SPARQL_QUERY = "application/sparql-query; charset=UTF-8";

    private final String name;
    private final String url;
    private final MemberConnections client;
    private final MemberConnections selects;
    private final long memberTimeoutMillis;
    private final long maxRows;

    MemberHttp(String name, String url, MemberConnections client, long memberTimeoutMillis, long maxRows) {
        this(name, url, client, client, memberTimeoutMillis, maxRows);
    }

    /**
     * @param client              connections to the member's repository URL (forwarded queries)
     * @param selects             connections for star SELECTs: to the member's select port, or {@code client}
     * @param memberTimeoutMillis the longest wait for a connection or the next bytes of an answer ({@code --member-timeout})
     * @param maxRows             the most rows read from one answer to a star subquery ({@code --max-member-rows})
     */
    MemberHttp(String name, String url, MemberConnections client, MemberConnections selects, long memberTimeoutMillis,
            long maxRows) {
        this.name = name;
        this.url = url;
        this.client = client;
        this.selects = selects;
        this.memberTimeoutMillis = memberTimeoutMillis;
        this.maxRows = maxRows;
    }

    String name() {
        return name;
    }

    /**
     * The solutions of a SELECT query, read whole; the member may take at most {@code timeoutMillis} (the
     * query's remaining time) or the member timeout, whichever is shorter, to connect or to send more. An
     * answer of more than {@code maxRows} rows is a {@link ResultWriter.TooLarge}: reading stops there, so a
     * query such as {@code SELECT * { ?s ?p ?o } LIMIT 1} (whose LIMIT the front applies after the members
     * answer) fails with 413 rather than filling the front's heap.
     */
    List<BindingSet> select(String query, long timeoutMillis) {
        return sendSelect(query, timeoutMillis).read();
    }

    /**
     * Sends a SELECT query ({@link #select}) without waiting for its answer: {@link SentSelect#read} reads it,
     * so one thread sends a star to every member before it reads any answer.
     */
    SentSelect sendSelect(String query, long timeoutMillis) {
        int timeout = timeout(timeoutMillis);
        try {
            return new SentSelect(selects.begin(query.getBytes(StandardCharsets.UTF_8), SPARQL_QUERY, BINARY, timeout));
        } catch (IOException e) {
            throw new QueryEvaluationException("member " + name + " failed on a star subquery: " + e, e);
        }
    }

    /** A star's SELECT sent to the member, its answer not read yet. */
    final class SentSelect {
        private final MemberConnections.Sent sent;

        private SentSelect(MemberConnections.Sent sent) {
            this.sent = sent;
        }

        /** The solutions, read whole (see {@link #select}). */
        List<BindingSet> read() {
            return MemberHttp.this.read(sent::receive, "a star subquery", MemberHttp.this::rows);
        }

        /** Gives the request up: its connection is closed unread. */
        void abort() {
            sent.abort();
        }
    }

    private List<BindingSet> rows(MemberConnections.Answer answer) throws IOException {
        if (answer.status() != 200) {
            throw new QueryEvaluationException("member " + name + " answered HTTP " + answer.status() + ": "
                    + new String(answer.body().readNBytes(64 * 1024), StandardCharsets.UTF_8));
        }
        TupleQueryResultParser parser = QueryResultIO.createTupleParser(TupleQueryResultFormat.BINARY);
        QueryResultCollector rows = new QueryResultCollector() {
            private long count;

            @Override
            public void handleSolution(BindingSet solution) {
                if (++count > maxRows) {
                    throw new ResultWriter.TooLarge("member " + name + " answered a star subquery with more than "
                            + maxRows + " rows, which the front would hold in memory (--max-member-rows " + maxRows
                            + "); the front sends a query's LIMIT to the members only for a query over one star"
                            + " (docs/federation.md), so narrow the query's patterns, add LIMIT, or start the"
                            + " front with a larger --max-member-rows");
                }
                super.handleSolution(solution);
            }
        };
        parser.setQueryResultHandler(rows);
        parser.parseQueryResult(answer.body());
        return rows.getBindingSets();
    }

    /** A member's answer passed on unread: its HTTP status, content type and body. */
    record Forwarded(int status, String contentType, byte[] body) {
    }

    /**
     * Sends {@code query} asking for {@code mimeType} and returns the answer's bytes, at most {@code maxBytes}
     * of them (more is a {@link ResultWriter.TooLarge}).
     */
    Forwarded forward(String query, String mimeType, long maxBytes, long timeoutMillis) {
        return exchange(query, mimeType, "a forwarded query", timeoutMillis, answer -> {
            SparqlFront.BoundedBuffer body = new SparqlFront.BoundedBuffer(maxBytes);
            answer.body().transferTo(body);
            String type = answer.contentType() == null ? mimeType : answer.contentType();
            return new Forwarded(answer.status(), type, body.toByteArray());
        });
    }

    /** Reads a member's answer. */
    private interface Reader<T> {
        T read(MemberConnections.Answer answer) throws IOException;
    }

    /**
     * One POST of {@code query}, sent directly as the body ({@code application/sparql-query}, SPARQL 1.1
     * protocol), not form-encoded: neither the front nor the member spends time percent-encoding and
     * decoding it. A request that fails while its answer is read closes its connection.
     */
    private <T> T exchange(String query, String accept, String what, long timeoutMillis, Reader<T> reader) {
        int timeout = timeout(timeoutMillis);
        return read(() -> client.post(query.getBytes(StandardCharsets.UTF_8), SPARQL_QUERY, accept, timeout), what,
                reader);
    }

    private int timeout(long timeoutMillis) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.min(memberTimeoutMillis, timeoutMillis)));
    }

    /** Where an answer comes from: a request sent now, or one sent earlier. */
    private interface Receive {
        MemberConnections.Answer answer() throws IOException;
    }

    /** Reads the answer {@code receive} gives; a request that fails while its answer is read closes its connection. */
    private <T> T read(Receive receive, String what, Reader<T> reader) {
        MemberConnections.Answer answer;
        try {
            answer = receive.answer();
        } catch (IOException e) {
            throw new QueryEvaluationException("member " + name + " failed on " + what + ": " + e, e);
        }
        try {
            T read = reader.read(answer);
            answer.close();
            return read;
        } catch (IOException e) {
            answer.abort();
            throw new QueryEvaluationException("member " + name + " failed on " + what + ": " + e, e);
        } catch (RuntimeException e) {
            answer.abort();
            throw e;
        }
    }
}
