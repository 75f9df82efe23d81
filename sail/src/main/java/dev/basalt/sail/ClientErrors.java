package dev.basalt.sail;

import java.lang.reflect.Constructor;

import org.eclipse.rdf4j.query.QueryEvaluationException;

/**
 * Query errors that are the client's fault (a commit point that is not readable, a bad hint
 * value) as a {@link QueryEvaluationException} that RDF4J Server answers with HTTP 400 and the
 * message: the server's query handler answers with the status of an
 * {@code org.eclipse.rdf4j.http.server.HTTPException} found as the cause of a
 * QueryEvaluationException, and with 500 otherwise. That class is part of the server's web
 * application, not of Basalt's dependencies, so it is found by name; outside the server the
 * exception has no such cause and carries the same message. Stateless and thread-safe.
 */
final class ClientErrors {
    static final int BAD_REQUEST = 400;
    private static final String SERVER_CLIENT_EXCEPTION = "org.eclipse.rdf4j.http.server.ClientHTTPException";

    private ClientErrors() {
    }

    static QueryEvaluationException badRequest(String message) {
        Throwable cause = serverException(message);
        return cause == null ? new QueryEvaluationException(message) : new QueryEvaluationException(message, cause);
    }

    private static Throwable serverException(String message) {
        for (ClassLoader loader : new ClassLoader[] { ClientErrors.class.getClassLoader(),
                Thread.currentThread().getContextClassLoader() }) {
            if (loader == null) {
                continue;
            }
            try {
                Constructor<?> c = Class.forName(SERVER_CLIENT_EXCEPTION, false, loader).getConstructor(int.class,
                        String.class);
                return (Throwable) c.newInstance(BAD_REQUEST, message);
            } catch (ReflectiveOperationException | LinkageError | ClassCastException e) {
                // not inside RDF4J Server with this loader
            }
        }
        return null;
    }
}
