package dev.basalt.sail.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

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
 * setting), straight from the values' strings into one byte buffer of the response: characters are encoded
 * as they are escaped and the buffer goes to the response's stream when full, so a row costs no intermediate
 * strings, {@code Writer}s or encoder objects (an unpaired surrogate is written as {@code ?}, as Java's own
 * UTF-8 encoder writes it). An RDF-star triple is written as RDF4J's non-star writers write it, as its
 * {@code urn:rdf4j:triple:} IRI. SPARQL/XML and SPARQL/JSON are its nested classes, CSV, a table rather than
 * markup, is {@link CsvRowWriter}; other formats are left to RDF4J's writers ({@link #forFormat} answers null).
 * {@link #respond} answers a request with a SELECT result: the response's status and headers, then its rows.
 * One instance writes one response on one thread; not thread-safe (the static methods keep no state).
 */
abstract class RowWriter {
    private static final String XSD_STRING = XSD.STRING.stringValue();

    /** How a format escapes the characters of a term. */
    enum Escape {
        /** as written, for text that needs no escaping */
        NONE,
        /** XML character data: {@code & < >} and carriage return as references, other characters as they are */
        XML_TEXT,
        /** an XML attribute in single quotes: as text, plus {@code '}, tab and line feed as references ({@code "} as it is) */
        XML_ATTRIBUTE,
        /** a JSON string's contents */
        JSON
    }

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    /** Room {@link #encode} keeps free before each character: the longest one character gives, and more. */
    private static final int ENCODE_RESERVE = 12;
    /** Bytes one character may take at most: {@code &apos;} and JSON's {@code \\u00XX}. */
    private static final int MAX_BYTES_PER_CHAR = 6;
    private static final int BUFFER_BYTES = 16 * 1024;
    static final int MEMO_MIN_CHARS = 64;
    static final int MEMO_MAX_CHARS = (BUFFER_BYTES - ENCODE_RESERVE) / MAX_BYTES_PER_CHAR;
    private static final int MEMO_SLOTS = 32;

    private final OutputStream out;
    private final byte[] buffer = new byte[BUFFER_BYTES];
    private int size;
    private final String[] memoText = new String[MEMO_SLOTS];
    private final Escape[] memoEscape = new Escape[MEMO_SLOTS];
    private final byte[][] memoBytes = new byte[MEMO_SLOTS][];

    /** Writes bytes that are already encoded (the formats' fixed markup). */
    void write(byte[] bytes) throws IOException {
        if (bytes.length > buffer.length - size) {
            drain();
            if (bytes.length > buffer.length) {
                out.write(bytes);
                return;
            }
        }
        System.arraycopy(bytes, 0, buffer, size, bytes.length);
        size += bytes.length;
    }

    void write(char ascii) throws IOException {
        if (size == buffer.length) {
            drain();
        }
        buffer[size++] = (byte) ascii;
    }

    /**
     * Writes {@code text} in UTF-8 with the given escaping. A text of {@value #MEMO_MIN_CHARS} to
     * {@value #MEMO_MAX_CHARS} characters is kept encoded in a small table of the response (by its hash), so a
     * value a result repeats (BSBM query 2 repeats a product's comment of about a kilobyte on each of its rows)
     * is escaped and encoded once and then copied.
     */
    void write(String text, Escape escape) throws IOException {
        int length = text.length();
        if (length < MEMO_MIN_CHARS || length > MEMO_MAX_CHARS) {
            encode(text, escape);
            return;
        }
        int slot = text.hashCode() & (MEMO_SLOTS - 1);
        String seen = memoText[slot];
        if (seen != null && memoEscape[slot] == escape && seen.equals(text)) {
            write(memoBytes[slot]);
            return;
        }
        if (buffer.length - size < MAX_BYTES_PER_CHAR * length + ENCODE_RESERVE) {
            drain();
        }
        int start = size;
        encode(text, escape); // does not drain: the buffer has room for the longest encoding
        memoText[slot] = text;
        memoEscape[slot] = escape;
        memoBytes[slot] = Arrays.copyOfRange(buffer, start, size);
    }

    private void encode(String text, Escape escape) throws IOException {
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (size > buffer.length - ENCODE_RESERVE) {
                drain();
            }
            if (c >= 0x20 && c < 0x7F && !special(c, escape)) {
                buffer[size++] = (byte) c;
            } else if (c < 0x80) {
                asciiEscaped(c, escape);
            } else if (c < 0x800) {
                buffer[size++] = (byte) (0xC0 | c >> 6);
                buffer[size++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, text.charAt(++i));
                buffer[size++] = (byte) (0xF0 | cp >> 18);
                buffer[size++] = (byte) (0x80 | cp >> 12 & 0x3F);
                buffer[size++] = (byte) (0x80 | cp >> 6 & 0x3F);
                buffer[size++] = (byte) (0x80 | cp & 0x3F);
            } else if (Character.isSurrogate(c)) {
                buffer[size++] = '?';
            } else {
                buffer[size++] = (byte) (0xE0 | c >> 12);
                buffer[size++] = (byte) (0x80 | c >> 6 & 0x3F);
                buffer[size++] = (byte) (0x80 | c & 0x3F);
            }
        }
    }

    private static boolean special(char c, Escape escape) {
        return switch (escape) {
            case NONE -> false;
            case XML_TEXT -> c == '&' || c == '<' || c == '>';
            case XML_ATTRIBUTE -> c == '&' || c == '<' || c == '>' || c == '\'';
            case JSON -> c == '"' || c == '\\';
        };
    }

    private void asciiEscaped(char c, Escape escape) {
        switch (escape) {
            case NONE -> buffer[size++] = (byte) c;
            case XML_TEXT, XML_ATTRIBUTE -> xmlEscaped(c, escape == Escape.XML_ATTRIBUTE);
            case JSON -> jsonEscaped(c);
        }
    }

    private void xmlEscaped(char c, boolean attribute) {
        switch (c) {
            case '&' -> asciiText("&amp;");
            case '<' -> asciiText("&lt;");
            case '>' -> asciiText("&gt;");
            case '\r' -> asciiText("&#xD;");
            case '\'' -> asciiText("&apos;");
            case '\t' -> {
                if (attribute) {
                    asciiText("&#x9;");
                } else {
                    buffer[size++] = '\t';
                }
            }
            case '\n' -> {
                if (attribute) {
                    asciiText("&#xA;");
                } else {
                    buffer[size++] = '\n';
                }
            }
            default -> buffer[size++] = (byte) c; // RDF4J's writer passes other control characters on as they are
        }
    }

    private void jsonEscaped(char c) {
        switch (c) {
            case '"' -> asciiText("\\\"");
            case '\\' -> asciiText("\\\\");
            case '\n' -> asciiText("\\n");
            case '\r' -> asciiText("\\r");
            case '\t' -> asciiText("\\t");
            case '\b' -> asciiText("\\b");
            case '\f' -> asciiText("\\f");
            default -> {
                if (c < 0x20) {
                    asciiText("\\u00");
                    buffer[size++] = HEX[c >> 4];
                    buffer[size++] = HEX[c & 0xF];
                } else {
                    buffer[size++] = (byte) c;
                }
            }
        }
    }

    private void asciiText(String s) {
        for (int i = 0; i < s.length(); i++) {
            buffer[size++] = (byte) s.charAt(i);
        }
    }

    /** Hands the buffered bytes to the stream. */
    void drain() throws IOException {
        if (size > 0) {
            out.write(buffer, 0, size);
            size = 0;
        }
    }

    RowWriter(OutputStream out) {
        this.out = out;
    }

    /**
     * Answers with a SELECT result: status and headers as RDF4J Server's result views set them ({@link #head}), the
     * rows written by the format's row writer, or by RDF4J's writer for a format without one; a failure while the
     * rows are written is answered with {@link FailureStatus#whileWritingResult}'s status. Closes {@code result}.
     */
    static void respond(HttpServletRequest request, TupleQueryResult result, TupleQueryResultWriterFactory factory,
            HttpServletResponse response) throws IOException {
        head(request, response, factory.getTupleQueryResultFormat());
        try (TupleQueryResult rows = result; OutputStream out = response.getOutputStream()) {
            RowWriter writer = RowWriter.forFormat(factory.getTupleQueryResultFormat(), out);
            if (writer == null) {
                QueryResults.report(rows, factory.getWriter(out));
                return;
            }
            writer.start(rows.getBindingNames());
            while (rows.hasNext()) {
                writer.row(rows.next());
            }
            writer.end();
            writer.drain();
        } catch (QueryEvaluationException | QueryResultHandlerException e) {
            sendError(response, FailureStatus.whileWritingResult(e));
        }
    }

    /** Answers a failure while a result is written with the status and message {@link FailureStatus} gives it. */
    static void sendError(HttpServletResponse response, FailureStatus.Answer answer) throws IOException {
        response.sendError(answer.status(), answer.message());
    }

    /** Status and headers as RDF4J Server's result views set them. */
    static void head(HttpServletRequest request, HttpServletResponse response, FileFormat format) {
        response.setLocale(request.getLocale()); // Spring MVC's default locale resolution: Content-Language
        response.setStatus(HttpServletResponse.SC_OK);
        String mimeType = format.getDefaultMIMEType();
        Charset charset = format.hasCharset() ? format.getCharset() : null;
        response.setContentType(charset == null ? mimeType : mimeType + "; charset=" + charset.name());
        String extension = format.getDefaultFileExtension();
        response.setHeader("Content-Disposition",
                "attachment; filename=query-result" + (extension == null ? "" : "." + extension));
    }

    /** The writer for {@code format}, or null if RDF4J's own writer is to write it. */
    static RowWriter forFormat(TupleQueryResultFormat format, OutputStream out) {
        if (format == TupleQueryResultFormat.SPARQL) {
            return new Xml(out);
        } else if (format == TupleQueryResultFormat.JSON) {
            return new Json(out);
        } else if (format == TupleQueryResultFormat.CSV) {
            return new CsvRowWriter(out);
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

        Xml(OutputStream out) {
            super(out);
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

        Json(OutputStream out) {
            super(out);
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
