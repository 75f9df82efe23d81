package dev.basalt.sail.errors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.servlet.ServletException;

import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.QueryInterruptedException;
import org.eclipse.rdf4j.query.QueryResultHandlerException;
import org.eclipse.rdf4j.repository.RepositoryException;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandlerException;
import org.eclipse.rdf4j.rio.RDFParseException;
import org.eclipse.rdf4j.sail.SailException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The whole failure-to-status table of {@link FailureStatus}, case by case: each row is an input, the failure
 * it must be recognised as, and the exact status, message and content type of the answer. A changed status, a
 * reworded message or a case added without a row here fails.
 */
class FailureStatusTest {
    private static final String PLAIN = "text/plain;charset=UTF-8";
    private static final String TOO_DEEP = "MALFORMED QUERY: nested too deeply for the server to parse or evaluate "
            + "(the request thread's stack overflowed); flatten or split the query or update";

    @Test
    void everyFailureHasItsStatus() {
        Map<String, Integer> expected = new LinkedHashMap<>();
        expected.put("CLIENT_QUERY_ERROR", 400);
        expected.put("MALFORMED_UPLOAD", 400);
        expected.put("QUERY_TIMEOUT", 503);
        expected.put("QUERY_EVALUATION_ERROR", 500);
        expected.put("SERIALIZATION_ERROR", 500);
        expected.put("NESTED_TOO_DEEP", 400);
        expected.put("UNKNOWN_TRANSACTION", 404);
        expected.put("FORM_TOO_LARGE", 413);
        expected.put("SERVER_ERROR", 500);
        Map<String, Integer> actual = Arrays.stream(FailureStatus.Failure.values()).collect(Collectors.toMap(
                Enum::name, FailureStatus.Failure::status, (a, b) -> a, LinkedHashMap::new));
        assertEquals(expected, actual);
        assertEquals(16 << 20, FailureStatus.MAX_FORM_BYTES);
    }

    static Stream<Arguments> answers() {
        String formBody = "Unable to parse form content";
        return Stream.of(
                // a failure while a query result is written (the SPARQL fast path)
                row("timeout", () -> FailureStatus.whileWritingResult(new QueryInterruptedException("late")),
                        "QUERY_TIMEOUT", 503, "Query evaluation took too long", null),
                row("evaluation", () -> FailureStatus.whileWritingResult(new QueryEvaluationException("boom")),
                        "QUERY_EVALUATION_ERROR", 500, "Query evaluation error: boom", null),
                row("tuple writer", () -> FailureStatus.whileWritingResult(new QueryResultHandlerException("io")),
                        "SERIALIZATION_ERROR", 500, "Serialization error: io", null),
                row("graph writer", () -> FailureStatus.whileWritingResult(new RDFHandlerException("io")),
                        "SERIALIZATION_ERROR", 500, "Serialization error: io", null),
                // an exception escaping RDF4J Server's handlers (the launcher's filter)
                row("stack overflow", () -> FailureStatus.ofUncaught(
                        new ServletException(new RuntimeException(new StackOverflowError()))),
                        "NESTED_TOO_DEEP", 400, TOO_DEEP, PLAIN),
                row("bare stack overflow", () -> FailureStatus.ofUncaught(new StackOverflowError()),
                        "NESTED_TOO_DEEP", 400, TOO_DEEP, PLAIN),
                // RDF4J Server's 500 answers, by body (the launcher's filter)
                row("overflow body", () -> FailureStatus.ofServerError("x java.lang.StackOverflowError y"),
                        "NESTED_TOO_DEEP", 400, TOO_DEEP, PLAIN),
                row("unknown transaction", () -> FailureStatus.ofServerError(
                        "transaction with id 1f2e not registered"), "UNKNOWN_TRANSACTION", 404, null, null),
                row("form unparsable", () -> FailureStatus.ofServerError(formBody), "FORM_TOO_LARGE", 413,
                        "Request body over the server's form limit of 16 MiB: " + formBody, PLAIN),
                row("form over max length", () -> FailureStatus.ofServerError("Form is larger than max length 9"),
                        "FORM_TOO_LARGE", 413,
                        "Request body over the server's form limit of 16 MiB: Form is larger than max length 9", PLAIN),
                row("form too large", () -> FailureStatus.ofServerError("Form too large: 20000000>16777216"),
                        "FORM_TOO_LARGE", 413,
                        "Request body over the server's form limit of 16 MiB: Form too large: 20000000>16777216", PLAIN),
                row("other 500", () -> FailureStatus.ofServerError("Query evaluation error: disk full"),
                        "SERVER_ERROR", 500, null, null),
                row("transaction id alone", () -> FailureStatus.ofServerError("transaction with id 7 failed"),
                        "SERVER_ERROR", 500, null, null));
    }

    private static Arguments row(String name, Supplier<FailureStatus.Answer> answer, String failure, int status,
            String message, String contentType) {
        return Arguments.of(name, answer, failure, status, message, contentType);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("answers")
    void answersEachCaseExactly(String name, Supplier<FailureStatus.Answer> answer, String failure, int status,
            String message, String contentType) {
        FailureStatus.Answer a = answer.get();
        assertEquals(failure, a.failure().name(), "failure");
        assertEquals(status, a.status(), "status");
        assertEquals(status, a.failure().status(), "status of the failure");
        assertEquals(message, a.message(), "message");
        assertEquals(contentType, a.contentType(), "content type");
    }

    @Test
    void otherExceptionsAreNotMapped() {
        assertNull(FailureStatus.ofUncaught(new ServletException(new IllegalStateException("x"))));
        assertNull(FailureStatus.ofUncaught(new RuntimeException()));
        assertThrows(IllegalArgumentException.class,
                () -> FailureStatus.whileWritingResult(new IllegalStateException("not a result failure")));
    }

    @Test
    void clientQueryErrorKeepsItsMessage() {
        QueryEvaluationException e = FailureStatus.badRequest("commit point 9 has not been made yet");
        assertEquals("commit point 9 has not been made yet", e.getMessage());
        // outside RDF4J Server there is no ClientHTTPException to carry the 400
        assertNull(e.getCause());
    }

    @Test
    void malformedUploadNamesTheFormatAndWhatTheParserMet() {
        EOFException eof = new EOFException("ended early");
        RDFParseException e = FailureStatus.malformedUpload(RDFFormat.TURTLE, eof);
        assertEquals("malformed Turtle upload, the parser failed on it (EOFException: ended early); check the data "
                + "and its declared format and charset", e.getMessage());
        assertSame(eof, e.getCause());
        assertEquals("malformed RDF upload, the parser failed on it (IllegalStateException); check the data and its "
                + "declared format and charset", FailureStatus.malformedUpload(null, new IllegalStateException())
                        .getMessage());
    }

    @Test
    void storeFailuresAreToldFromTheParsers() {
        assertTrue(FailureStatus.fromStore(new RepositoryException("closed")));
        assertTrue(FailureStatus.fromStore(new IllegalStateException(new SailException("full"))));
        assertTrue(FailureStatus.fromStore(new RDFHandlerException("handler")));
        assertFalse(FailureStatus.fromStore(thrownIn("org.eclipse.rdf4j.rio.turtle.TurtleParser")));
        assertTrue(FailureStatus.fromStore(thrownIn("org.eclipse.rdf4j.repository.base.Connection")));
        assertTrue(FailureStatus.fromStore(thrownIn("org.eclipse.rdf4j.sail.helpers.Sink")));
        assertTrue(FailureStatus.fromStore(thrownIn("dev.basalt.sail.write.StoreWriter")));
        assertTrue(FailureStatus.fromStore(thrownIn()), "no frame: the store's, never hidden as a 400");
    }

    /** An exception whose stack starts (innermost) at the given classes, then the JDK's. */
    private static RuntimeException thrownIn(String... classes) {
        RuntimeException e = new IllegalArgumentException("x");
        StackTraceElement[] frames = new StackTraceElement[classes.length + 1];
        frames[0] = new StackTraceElement("java.lang.String", "charAt", null, 1);
        for (int i = 0; i < classes.length; i++) {
            frames[i + 1] = new StackTraceElement(classes[i], "run", null, 1);
        }
        e.setStackTrace(frames);
        return e;
    }

    /**
     * A query whose preparation overflowed the stack is nested too deeply, also when the overflow surfaced as the
     * parser's node-stack IndexOutOfBoundsException; any other failure is left to RDF4J Server.
     */
    @Test
    void anOverflowWhilePreparingIsNestedTooDeep() {
        assertEquals(400, FailureStatus.ofQueryPreparation(new StackOverflowError()).status());
        IndexOutOfBoundsException parser = new IndexOutOfBoundsException("Index -1 out of bounds for length 0");
        parser.setStackTrace(new StackTraceElement[] { new StackTraceElement("java.util.ArrayList", "remove", null, 1),
                new StackTraceElement("org.eclipse.rdf4j.query.parser.sparql.ast.JJTSyntaxTreeBuilderState", "popNode",
                        null, 1) });
        FailureStatus.Answer answer = FailureStatus.ofQueryPreparation(parser);
        assertEquals(400, answer.status());
        assertEquals(FailureStatus.PLAIN_TEXT, answer.contentType());
        assertTrue(answer.message().startsWith("MALFORMED QUERY: nested too deeply"), answer.message());
        IndexOutOfBoundsException elsewhere = new IndexOutOfBoundsException("Index -1 out of bounds for length 0");
        elsewhere.setStackTrace(new StackTraceElement[] { new StackTraceElement("java.util.ArrayList", "remove", null, 1),
                new StackTraceElement("dev.basalt.sail.Something", "run", null, 1) });
        assertNull(FailureStatus.ofQueryPreparation(elsewhere));
        assertNull(FailureStatus.ofQueryPreparation(new IllegalStateException("no")));
    }
}
