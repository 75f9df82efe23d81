package dev.basalt.sail.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.rdf4j.common.lang.FileFormat;
import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.Binding;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.query.QueryResultHandlerException;
import org.eclipse.rdf4j.query.QueryResults;
import org.eclipse.rdf4j.query.TupleQueryResult;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultWriterFactory;
import org.eclipse.rdf4j.rio.helpers.RDFStarUtil;

import dev.basalt.sail.errors.FailureStatus;

/**
 * Writes a SELECT result in one of the SPARQL result formats the fast path writes itself: SPARQL/XML,
 * SPARQL/JSON and CSV, byte for byte as RDF4J 5.0.3's writers do with pretty printing off (the launcher's
 * setting), straight from the values' strings into the response's byte buffer ({@link EncodedOutput}), without
 * intermediate strings. An RDF-star triple is written as RDF4J's non-star writers write it, as its
 * {@code urn:rdf4j:triple:} IRI. SPARQL/XML and SPARQL/JSON are its nested classes, CSV, a table rather than
 * markup, is {@link CsvRowWriter}; other formats are left to RDF4J's writers ({@link #forFormat} answers null).
 * {@link #respond} answers a request with a SELECT result: the response's status and headers, then its rows.
 * One instance writes one response on one thread; not thread-safe (the static methods keep no state).
 */
abstract class RowWriter extends EncodedOutput {
    private static final String XSD_STRING = XSD.STRING.stringValue();

    RowWriter(OutputStream out, byte[] buffer) {
        super(out, buffer);
    }

    /**
     * Answers with a SELECT result: status and headers as RDF4J Server's result views set them ({@link #head}), the
     * rows written by the format's row writer, or by RDF4J's writer for a format without one; a failure while the
     * rows are written is answered with {@link FailureStatus#whileWritingResult}'s status. Closes {@code result}.
     */
    static void respond(HttpServletRequest request, TupleQueryResult result, TupleQueryResultWriterFactory factory,
            HttpServletResponse response) throws IOException {
        head(request, response, factory.getTupleQueryResultFormat());
        byte[] buffer = borrowBuffer();
        try (TupleQueryResult rows = result; OutputStream out = response.getOutputStream()) {
            RowWriter writer = RowWriter.forFormat(factory.getTupleQueryResultFormat(), out, buffer);
            if (writer == null) {
                QueryResults.report(rows, factory.getWriter(out));
                return;
            }
            writer.start(rows.getBindingNames());
            while (rows.hasNext()) {
                writer.row(rows.next());
            }
            writer.end();
            writer.drainLast(response);
        } catch (QueryEvaluationException | QueryResultHandlerException e) {
            sendError(response, FailureStatus.whileWritingResult(e));
        } finally {
            returnBuffer(buffer);
        }
    }

    /** Answers a failure while a result is written with the status and message {@link FailureStatus} gives it. */
    static void sendError(HttpServletResponse response, FailureStatus.Answer answer) throws IOException {
        response.sendError(answer.status(), answer.message());
    }

    /** Status and headers as RDF4J Server's result views set them ({@link Head}). */
    static void head(HttpServletRequest request, HttpServletResponse response, FileFormat format) {
        Head.set(request, response, format);
    }

    /** The writer for {@code format}, or null if RDF4J's own writer is to write it. */
    static RowWriter forFormat(TupleQueryResultFormat format, OutputStream out) {
        return forFormat(format, out, newBuffer());
    }

    /**
     * The writer for {@code format} writing through {@code buffer} ({@link EncodedOutput#borrowBuffer}), or null if
     * RDF4J's own writer is to write it.
     */
    static RowWriter forFormat(TupleQueryResultFormat format, OutputStream out, byte[] buffer) {
        if (format == TupleQueryResultFormat.SPARQL) {
            return new Xml(out, buffer);
        } else if (format == TupleQueryResultFormat.JSON) {
            return new Json(out, buffer);
        } else if (format == TupleQueryResultFormat.CSV) {
            return new CsvRowWriter(out, buffer);
        }
        return null;
    }

    abstract void start(List<String> variables) throws IOException;

    abstract void row(BindingSet row) throws IOException;

    abstract void end() throws IOException;

    static Value plain(Value v) {
        return v instanceof Triple ? RDFStarUtil.toRDFEncodedValue(v) : v;
    }

    /** The datatype a literal's result form names, or null (plain and language-tagged literals). */
    static String datatypeShown(Literal literal) {
        if (literal.getLanguage().isPresent()) {
            return null;
        }
        String datatype = literal.getDatatype().stringValue();
        return datatype.equals(XSD_STRING) ? null : datatype;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * The status and headers of a fast-path answer, as RDF4J Server's result views set them: {@code 200}, the
     * {@code Content-Language} of the request's locale (Spring MVC's default locale resolution), the format's
     * {@code Content-Type} (with its charset when it has one) and {@code Content-Disposition: attachment;
     * filename=query-result.EXT}. The two format headers are made once per format object ({@link #MAX_FORMATS} at
     * most, found by identity: {@code FileFormat}'s own hash lower-cases its name), the {@code Content-Language}
     * value once per locale in a row (one slot: most clients send no {@code Accept-Language}, whose locale is the
     * server's default).
     *
     * <p>For a format with a charset the locale is set as the {@code Content-Language} header directly: Jetty's
     * {@code setLocale} sets that same header ({@code Locale.toString} with {@code _} as {@code -}) and, before any
     * content type, a charset from the webapp's locale-encoding map, which the content type's own charset then
     * replaces, so the response's headers are the same without its locale lookups. A format without a charset keeps
     * {@code setLocale}, whose locale charset the container may then add to the content type.
     *
     * <p>Thread-safe: the kept values are immutable and published through volatile fields; a value two threads make
     * at once is made twice, one of them kept. Each call sets one response's head.
     */
    static final class Head {
        /** Formats whose headers are kept (the registries hold about twenty). */
        static final int MAX_FORMATS = 32;
        private static volatile Headers[] formats = new Headers[0];
        private static volatile Language lastLanguage = new Language(Locale.ROOT, "");

        private Head() {
        }

        /** A format's {@code Content-Type} and {@code Content-Disposition} values, and whether the type has a charset. */
        private record Headers(FileFormat format, String contentType, String disposition, boolean charset) {
            static Headers of(FileFormat format) {
                String mimeType = format.getDefaultMIMEType();
                Charset charset = format.hasCharset() ? format.getCharset() : null;
                String extension = format.getDefaultFileExtension();
                return new Headers(format, charset == null ? mimeType : mimeType + "; charset=" + charset.name(),
                        "attachment; filename=query-result" + (extension == null ? "" : "." + extension), charset != null);
            }
        }

        /** A locale and its {@code Content-Language} value. */
        private record Language(Locale locale, String value) {
        }

        /** Sets {@code response}'s status and headers for an answer in {@code format} (see the class comment). */
        static void set(HttpServletRequest request, HttpServletResponse response, FileFormat format) {
            Headers headers = headers(format);
            Locale locale = request.getLocale();
            if (!headers.charset()) {
                response.setLocale(locale);
            } else if (locale != null) {
                response.setHeader("Content-Language", contentLanguage(locale));
            }
            response.setStatus(HttpServletResponse.SC_OK);
            response.setContentType(headers.contentType());
            response.setHeader("Content-Disposition", headers.disposition());
        }

        private static Headers headers(FileFormat format) {
            Headers[] known = formats;
            for (Headers h : known) {
                if (h.format() == format) {
                    return h;
                }
            }
            Headers made = Headers.of(format);
            if (known.length < MAX_FORMATS) {
                Headers[] grown = Arrays.copyOf(known, known.length + 1);
                grown[known.length] = made;
                formats = grown;
            }
            return made;
        }

        /** The {@code Content-Language} value Jetty's {@code setLocale} gives {@code locale}. */
        static String contentLanguage(Locale locale) {
            Language last = lastLanguage;
            if (last.locale() == locale || last.locale().equals(locale)) {
                return last.value();
            }
            String value = locale.toString().replace('_', '-');
            lastLanguage = new Language(locale, value);
            return value;
        }
    }

    /** SPARQL Query Results XML Format, as RDF4J's writer writes it unindented: single-quoted attributes. */
    static final class Xml extends RowWriter {
        private static final byte[] PROLOGUE = ascii("<?xml version='1.0' encoding='UTF-8'?>"
                + "<sparql xmlns='http://www.w3.org/2005/sparql-results#'><head>");
        private static final byte[] VARIABLE = ascii("<variable name='");
        private static final byte[] EMPTY_END = ascii("'/>");
        private static final byte[] RESULTS = ascii("</head><results>");
        private static final byte[] RESULT = ascii("<result>");
        private static final byte[] RESULT_END = ascii("</result>");
        private static final byte[] BINDING = ascii("<binding name='");
        private static final byte[] BINDING_END = ascii("</binding>");
        private static final byte[] URI = ascii("'><uri>");
        private static final byte[] URI_END = ascii("</uri>");
        private static final byte[] BNODE = ascii("'><bnode>");
        private static final byte[] BNODE_END = ascii("</bnode>");
        private static final byte[] LITERAL = ascii("'><literal>");
        private static final byte[] LITERAL_LANG = ascii("'><literal xml:lang='");
        private static final byte[] LITERAL_TYPED = ascii("'><literal datatype='");
        private static final byte[] ATTRIBUTE_END = ascii("'>");
        private static final byte[] LITERAL_END = ascii("</literal>");
        private static final byte[] EPILOGUE = ascii("</results></sparql>");

        Xml(OutputStream out, byte[] buffer) {
            super(out, buffer);
        }

        @Override
        void start(List<String> variables) throws IOException {
            write(PROLOGUE);
            for (String v : variables) {
                write(VARIABLE);
                write(v, Escape.XML_ATTRIBUTE);
                write(EMPTY_END);
            }
            write(RESULTS);
        }

        @Override
        void row(BindingSet row) throws IOException {
            write(RESULT);
            for (Binding b : row) {
                write(BINDING);
                write(b.getName(), Escape.XML_ATTRIBUTE);
                Value v = plain(b.getValue());
                if (v instanceof IRI) {
                    write(URI);
                    write(v.stringValue(), Escape.XML_TEXT);
                    write(URI_END);
                } else if (v instanceof BNode bnode) {
                    write(BNODE);
                    write(bnode.getID(), Escape.XML_TEXT);
                    write(BNODE_END);
                } else {
                    Literal literal = (Literal) v;
                    String datatype = datatypeShown(literal);
                    if (literal.getLanguage().isPresent()) {
                        write(LITERAL_LANG);
                        write(literal.getLanguage().get(), Escape.XML_ATTRIBUTE);
                        write(ATTRIBUTE_END);
                    } else if (datatype != null) {
                        write(LITERAL_TYPED);
                        write(datatype, Escape.XML_ATTRIBUTE);
                        write(ATTRIBUTE_END);
                    } else {
                        write(LITERAL);
                    }
                    write(literal.getLabel(), Escape.XML_TEXT);
                    write(LITERAL_END);
                }
                write(BINDING_END);
            }
            write(RESULT_END);
        }

        @Override
        void end() throws IOException {
            write(EPILOGUE);
        }
    }

    /** SPARQL 1.1 Query Results JSON Format, as RDF4J's writer writes it unindented. */
    static final class Json extends RowWriter {
        private static final byte[] HEAD = ascii("{\"head\":{\"vars\":[");
        private static final byte[] BINDINGS = ascii("]},\"results\":{\"bindings\":[");
        private static final byte[] URI = ascii("\":{\"type\":\"uri\",\"value\":\"");
        private static final byte[] BNODE = ascii("\":{\"type\":\"bnode\",\"value\":\"");
        private static final byte[] LITERAL = ascii("\":{\"type\":\"literal\",\"value\":\"");
        private static final byte[] LANG = ascii("\":{\"xml:lang\":\"");
        private static final byte[] DATATYPE = ascii("\":{\"datatype\":\"");
        private static final byte[] TYPED_VALUE = ascii("\",\"type\":\"literal\",\"value\":\"");
        private static final byte[] VALUE_END = ascii("\"}");
        private static final byte[] END = ascii("]}}");
        private boolean firstRow = true;

        Json(OutputStream out, byte[] buffer) {
            super(out, buffer);
        }

        @Override
        void start(List<String> variables) throws IOException {
            write(HEAD);
            for (int i = 0; i < variables.size(); i++) {
                if (i > 0) {
                    write(',');
                }
                write('"');
                write(variables.get(i), Escape.JSON);
                write('"');
            }
            write(BINDINGS);
        }

        @Override
        void row(BindingSet row) throws IOException {
            if (!firstRow) {
                write(',');
            }
            firstRow = false;
            write('{');
            boolean first = true;
            for (Binding b : row) {
                if (!first) {
                    write(',');
                }
                first = false;
                write('"');
                write(b.getName(), Escape.JSON);
                Value v = plain(b.getValue());
                if (v instanceof IRI) {
                    write(URI);
                    write(v.stringValue(), Escape.JSON);
                } else if (v instanceof BNode bnode) {
                    write(BNODE);
                    write(bnode.getID(), Escape.JSON);
                } else {
                    Literal literal = (Literal) v;
                    String datatype = datatypeShown(literal);
                    if (literal.getLanguage().isPresent()) {
                        write(LANG);
                        write(literal.getLanguage().get(), Escape.JSON);
                        write(TYPED_VALUE);
                    } else if (datatype != null) {
                        write(DATATYPE);
                        write(datatype, Escape.JSON);
                        write(TYPED_VALUE);
                    } else {
                        write(LITERAL);
                    }
                    write(literal.getLabel(), Escape.JSON);
                }
                write(VALUE_END);
            }
            write('}');
        }

        @Override
        void end() throws IOException {
            write(END);
        }
    }
}
