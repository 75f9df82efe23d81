package dev.basalt.sail.errors;

import java.lang.reflect.Constructor;

import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.QueryInterruptedException;
import org.eclipse.rdf4j.query.QueryResultHandlerException;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.sail.SailException;

/**
 * The one place that decides which HTTP status and message a failure gets, for every layer that answers over
 * HTTP: the SAIL's query errors, the repository's uploads, the SPARQL fast path and the launcher's servlet
 * filter. Each {@link Failure} names one case and its status; the methods below recognise a case and either
 * return the {@link Answer} to send (a servlet layer writes it) or build the exception that makes RDF4J Server
 * answer with that status (a layer below the servlets, which cannot write a response). The cases:
 * <ul>
 * <li>{@link Failure#CLIENT_QUERY_ERROR}, 400 with the exception's message: a query the client got wrong (a
 * commit point that is not readable, a bad hint value), as a {@link QueryEvaluationException} whose cause is RDF4J
 * Server's {@code ClientHTTPException} ({@link #badRequest});</li>
 * <li>{@link Failure#MALFORMED_UPLOAD}, 400: a parser's failure on malformed input, as an {@link RDFParseException}
 * naming the format ({@link #malformedUpload}), told apart from a failure of the store ({@link #fromStore}),
 * which keeps RDF4J Server's 500;</li>
 * <li>{@link Failure#QUERY_TIMEOUT} (503), {@link Failure#QUERY_EVALUATION_ERROR} (500) and
 * {@link Failure#SERIALIZATION_ERROR} (500): a failure while a query result is written, with RDF4J Server's own
 * messages ({@link #whileWritingResult});</li>
 * <li>{@link Failure#NESTED_TOO_DEEP} (400), {@link Failure#UNKNOWN_TRANSACTION} (404) and
 * {@link Failure#FORM_TOO_LARGE} (413): RDF4J Server 5.0.3 answers these client mistakes with 500; they are
 * recognised by the exception ({@link #ofUncaught}) or by RDF4J's and Jetty's messages in the 500 answer's body
 * ({@link #ofServerError}), which the launcher pins ({@code RestFuzzTest} fails if an upgrade changes them);</li>
 * <li>{@link Failure#SERVER_ERROR}: every other 500 keeps its status and body.</li>
 * </ul>
 * Failures this class does not name (an unknown repository, a read-only repository, a transaction conflict, a
 * malformed query, a query over its memory budget or timeout before its result is written) keep the status RDF4J
 * Server gives them. Stateless and thread-safe.
 */
public final class FailureStatus {
    /** The largest form body (a query or an update sent as a form) the server parses: 16 MiB. */
    public static final int MAX_FORM_BYTES = 16 << 20;
    /** The content type of an answer whose message this class writes. */
    public static final String PLAIN_TEXT = "text/plain;charset=UTF-8";

    static final String TOO_DEEP = "MALFORMED QUERY: nested too deeply for the server to parse or evaluate "
            + "(the request thread's stack overflowed); flatten or split the query or update";
    private static final String SERVER_CLIENT_EXCEPTION = "org.eclipse.rdf4j.http.server.ClientHTTPException";

    /** The failures Basalt maps, each with its HTTP status. */
    public enum Failure {
        CLIENT_QUERY_ERROR(400),
        MALFORMED_UPLOAD(400),
        QUERY_TIMEOUT(503),
        QUERY_EVALUATION_ERROR(500),
        SERIALIZATION_ERROR(500),
        NESTED_TOO_DEEP(400),
        UNKNOWN_TRANSACTION(404),
        FORM_TOO_LARGE(413),
        SERVER_ERROR(500);

        private final int status;

        Failure(int status) {
            this.status = status;
        }

        /** The HTTP status this failure is answered with. */
        public int status() {
            return status;
        }
    }

    /**
     * What to answer: the failure, its status, the message to send (null: keep the body already written) and the
     * content type to set with it (null: keep the response's or the container's).
     */
    public record Answer(Failure failure, int status, String message, String contentType) {
        Answer(Failure failure, String message, String contentType) {
            this(failure, failure.status(), message, contentType);
        }
    }

    private FailureStatus() {
    }

    /**
     * A client's error in a query as a {@link QueryEvaluationException} that RDF4J Server answers with 400 and
     * {@code message}: its query handler answers with the status of an {@code HTTPException} found as the cause of
     * a QueryEvaluationException (500 otherwise). That class belongs to the server's web application, not to
     * Basalt's dependencies, so it is found by name; outside the server the exception has no such cause and
     * carries the same message.
     */
    public static QueryEvaluationException badRequest(String message) {
        Throwable cause = serverException(Failure.CLIENT_QUERY_ERROR.status(), message);
        return cause == null ? new QueryEvaluationException(message) : new QueryEvaluationException(message, cause);
    }

    private static Throwable serverException(int status, String message) {
        for (ClassLoader loader : new ClassLoader[] { FailureStatus.class.getClassLoader(),
                Thread.currentThread().getContextClassLoader() }) {
            if (loader == null) {
                continue;
            }
            try {
                Constructor<?> c = Class.forName(SERVER_CLIENT_EXCEPTION, false, loader).getConstructor(int.class,
                        String.class);
                return (Throwable) c.newInstance(status, message);
            } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
                // not inside RDF4J Server with this loader
            }
        }
        return null;
    }

    /**
     * True if {@code e}, raised during an upload, is not a parser's failure: a store failure raised through the
     * handler (a repository, SAIL or handler exception anywhere in its causes), or an exception whose stack reaches
     * code of the repository, the SAIL or Basalt before it reaches a parser (a closed connection, a store refusing
     * the write). Only an exception thrown inside RDF4J's parsers (or by what they call, such as the value factory)
     * is the input's; when in doubt it is the store's, so a real error is never hidden as a 400.
     */
    public static boolean fromStore(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof RepositoryException || t instanceof SailException || t instanceof RDFHandlerException) {
                return true;
            }
        }
        for (StackTraceElement frame : e.getStackTrace()) {
            String c = frame.getClassName();
            if (c.startsWith("org.eclipse.rdf4j.rio.")) {
                return false;
            }
            if (c.startsWith("org.eclipse.rdf4j.repository.") || c.startsWith("org.eclipse.rdf4j.sail.")
                    || c.startsWith("dev.basalt.")) {
                return true;
            }
        }
        return true;
    }

    /**
     * A parser's unchecked or I/O failure on malformed input as the {@link RDFParseException} RDF4J Server answers
     * with 400 ({@link Failure#MALFORMED_UPLOAD}), naming the format and what the parser met.
     */
    public static RDFParseException malformedUpload(RDFFormat format, Exception e) {
        String what = e.getMessage() == null ? e.getClass().getSimpleName()
                : e.getClass().getSimpleName() + ": " + e.getMessage();
        RDFParseException parse = new RDFParseException("malformed " + (format == null ? "RDF" : format.getName())
                + " upload, the parser failed on it (" + what + "); check the data and its declared format and charset");
        parse.initCause(e);
        return parse;
    }

    /**
     * The answer to a failure while a query result is written, as RDF4J Server's result views give it: a query
     * interrupted by its timeout is 503, any other evaluation failure and a writer's failure are 500. The content
     * type is the container's error page's.
     *
     * @throws IllegalArgumentException for any other exception, which the writer lets through
     */
    public static Answer whileWritingResult(Exception e) {
        if (e instanceof QueryInterruptedException) {
            return new Answer(Failure.QUERY_TIMEOUT, "Query evaluation took too long", null);
        }
        if (e instanceof QueryEvaluationException) {
            return new Answer(Failure.QUERY_EVALUATION_ERROR, "Query evaluation error: " + e.getMessage(), null);
        }
        if (e instanceof QueryResultHandlerException || e instanceof RDFHandlerException) {
            return new Answer(Failure.SERIALIZATION_ERROR, "Serialization error: " + e.getMessage(), null);
        }
        throw new IllegalArgumentException("not a failure of writing a query result: " + e, e);
    }

    /**
     * The answer to a failure while a query is parsed, prepared or its evaluation started on a request thread:
     * {@link Failure#NESTED_TOO_DEEP} for a {@link StackOverflowError}, and for an {@link IndexOutOfBoundsException}
     * thrown by RDF4J's SPARQL parser, whose tree builder's node stack is left short when an overflow unwinds it
     * (the overflow then surfaces as that exception); null for any other failure.
     */
    public static Answer ofQueryPreparation(Throwable e) {
        if (e instanceof StackOverflowError) {
            return new Answer(Failure.NESTED_TOO_DEEP, TOO_DEEP, PLAIN_TEXT);
        }
        if (e instanceof IndexOutOfBoundsException) {
            for (StackTraceElement frame : e.getStackTrace()) {
                if (frame.getClassName().startsWith("org.eclipse.rdf4j.query.parser.sparql.")) {
                    return new Answer(Failure.NESTED_TOO_DEEP, TOO_DEEP, PLAIN_TEXT);
                }
            }
        }
        return null;
    }

    /**
     * The answer to an exception that escaped RDF4J Server's handlers: {@link Failure#NESTED_TOO_DEEP} when its
     * root cause is a {@link StackOverflowError} (the parser or an algebra walk overflowed the request thread's
     * stack), null when it is not a client's mistake and passes on unchanged.
     */
    public static Answer ofUncaught(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t instanceof StackOverflowError ? new Answer(Failure.NESTED_TOO_DEEP, TOO_DEEP, PLAIN_TEXT) : null;
    }

    /**
     * The answer to RDF4J Server's 500 answer with this body (or error message): a 4xx status for a client's
     * mistake this class knows, {@link Failure#SERVER_ERROR} (500, body kept) otherwise.
     */
    public static Answer ofServerError(String body) {
        if (body.contains("java.lang.StackOverflowError")) {
            return new Answer(Failure.NESTED_TOO_DEEP, TOO_DEEP, PLAIN_TEXT);
        }
        if (body.contains("transaction with id") && body.contains("not registered")) {
            return new Answer(Failure.UNKNOWN_TRANSACTION, null, null);
        }
        if (body.contains("Unable to parse form content") || body.contains("Form is larger than max length")
                || body.contains("Form too large")) {
            return new Answer(Failure.FORM_TOO_LARGE, "Request body over the server's form limit of "
                    + (MAX_FORM_BYTES >> 20) + " MiB: " + body, PLAIN_TEXT);
        }
        return new Answer(Failure.SERVER_ERROR, null, null);
    }
}
