package dev.basalt.sail.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Triple;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.datatypes.XMLDatatypeUtil;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.Binding;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.query.resultio.TupleQueryResultFormat;
import org.eclipse.rdf4j.rio.helpers.RDFStarUtil;

import dev.basalt.sail.http.Utf8Sink.Escape;

/**
 * Writes a SELECT result in one of the SPARQL result formats the fast path writes itself: SPARQL/XML,
 * SPARQL/JSON and CSV, byte for byte as RDF4J 5.0.3's writers do with pretty printing off (the launcher's
 * setting), straight from the values' strings into a {@link Utf8Sink}. An RDF-star triple is written as
 * RDF4J's non-star writers write it, as its {@code urn:rdf4j:triple:} IRI. Other formats are left to RDF4J's
 * writers ({@link #forFormat} answers null). One instance writes one response on one thread; not thread-safe.
 */
abstract class RowWriter {
    private static final String XSD_STRING = XSD.STRING.stringValue();

    final Utf8Sink sink;

    RowWriter(Utf8Sink sink) {
        this.sink = sink;
    }

    /** The writer for {@code format}, or null if RDF4J's own writer is to write it. */
    static RowWriter forFormat(TupleQueryResultFormat format, Utf8Sink sink) {
        if (format == TupleQueryResultFormat.SPARQL) {
            return new Xml(sink);
        } else if (format == TupleQueryResultFormat.JSON) {
            return new Json(sink);
        } else if (format == TupleQueryResultFormat.CSV) {
            return new Csv(sink);
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

        Xml(Utf8Sink sink) {
            super(sink);
        }

        @Override
        void start(List<String> variables) throws IOException {
            sink.write(PROLOGUE);
            for (String v : variables) {
                sink.write(VARIABLE);
                sink.write(v, Escape.XML_ATTRIBUTE);
                sink.write(EMPTY_END);
            }
            sink.write(RESULTS);
        }

        @Override
        void row(BindingSet row) throws IOException {
            sink.write(RESULT);
            for (Binding b : row) {
                sink.write(BINDING);
                sink.write(b.getName(), Escape.XML_ATTRIBUTE);
                Value v = plain(b.getValue());
                if (v instanceof IRI) {
                    sink.write(URI);
                    sink.write(v.stringValue(), Escape.XML_TEXT);
                    sink.write(URI_END);
                } else if (v instanceof BNode bnode) {
                    sink.write(BNODE);
                    sink.write(bnode.getID(), Escape.XML_TEXT);
                    sink.write(BNODE_END);
                } else {
                    Literal literal = (Literal) v;
                    String datatype = datatypeShown(literal);
                    if (literal.getLanguage().isPresent()) {
                        sink.write(LITERAL_LANG);
                        sink.write(literal.getLanguage().get(), Escape.XML_ATTRIBUTE);
                        sink.write(ATTRIBUTE_END);
                    } else if (datatype != null) {
                        sink.write(LITERAL_TYPED);
                        sink.write(datatype, Escape.XML_ATTRIBUTE);
                        sink.write(ATTRIBUTE_END);
                    } else {
                        sink.write(LITERAL);
                    }
                    sink.write(literal.getLabel(), Escape.XML_TEXT);
                    sink.write(LITERAL_END);
                }
                sink.write(BINDING_END);
            }
            sink.write(RESULT_END);
        }

        @Override
        void end() throws IOException {
            sink.write(EPILOGUE);
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

        Json(Utf8Sink sink) {
            super(sink);
        }

        @Override
        void start(List<String> variables) throws IOException {
            sink.write(HEAD);
            for (int i = 0; i < variables.size(); i++) {
                if (i > 0) {
                    sink.write(',');
                }
                sink.write('"');
                sink.write(variables.get(i), Escape.JSON);
                sink.write('"');
            }
            sink.write(BINDINGS);
        }

        @Override
        void row(BindingSet row) throws IOException {
            if (!firstRow) {
                sink.write(',');
            }
            firstRow = false;
            sink.write('{');
            boolean first = true;
            for (Binding b : row) {
                if (!first) {
                    sink.write(',');
                }
                first = false;
                sink.write('"');
                sink.write(b.getName(), Escape.JSON);
                Value v = plain(b.getValue());
                if (v instanceof IRI) {
                    sink.write(URI);
                    sink.write(v.stringValue(), Escape.JSON);
                } else if (v instanceof BNode bnode) {
                    sink.write(BNODE);
                    sink.write(bnode.getID(), Escape.JSON);
                } else {
                    Literal literal = (Literal) v;
                    String datatype = datatypeShown(literal);
                    if (literal.getLanguage().isPresent()) {
                        sink.write(LANG);
                        sink.write(literal.getLanguage().get(), Escape.JSON);
                        sink.write(TYPED_VALUE);
                    } else if (datatype != null) {
                        sink.write(DATATYPE);
                        sink.write(datatype, Escape.JSON);
                        sink.write(TYPED_VALUE);
                    } else {
                        sink.write(LITERAL);
                    }
                    sink.write(literal.getLabel(), Escape.JSON);
                }
                sink.write(VALUE_END);
            }
            sink.write('}');
        }

        @Override
        void end() throws IOException {
            sink.write(END);
        }
    }

    /**
     * SPARQL 1.1 Query Results CSV as RDF4J writes it: variable names as they are; an IRI quoted when it holds a
     * comma; a valid integer, decimal or double literal in its canonical form; another literal's label, quoted
     * (inner quotes doubled) when it holds a comma, quote or line break.
     */
    static final class Csv extends RowWriter {
        private List<String> variables;

        Csv(Utf8Sink sink) {
            super(sink);
        }

        @Override
        void start(List<String> variables) throws IOException {
            this.variables = variables;
            for (int i = 0; i < variables.size(); i++) {
                if (i > 0) {
                    sink.write(',');
                }
                sink.write(variables.get(i), Escape.NONE);
            }
            sink.write('\r');
            sink.write('\n');
        }

        @Override
        void row(BindingSet row) throws IOException {
            for (int i = 0; i < variables.size(); i++) {
                if (i > 0) {
                    sink.write(',');
                }
                Value v = row.getValue(variables.get(i));
                if (v == null) {
                    continue;
                }
                v = plain(v);
                if (v instanceof BNode bnode) {
                    sink.write('_');
                    sink.write(':');
                    sink.write(bnode.getID(), Escape.NONE);
                } else if (v instanceof IRI) {
                    String iri = v.stringValue();
                    quoted(iri, iri.indexOf(',') >= 0);
                } else {
                    literal((Literal) v);
                }
            }
            sink.write('\r');
            sink.write('\n');
        }

        private void literal(Literal literal) throws IOException {
            String label = literal.getLabel();
            IRI datatype = literal.getDatatype();
            if (XMLDatatypeUtil.isIntegerDatatype(datatype) || XMLDatatypeUtil.isDecimalDatatype(datatype)
                    || XSD.DOUBLE.equals(datatype)) {
                try {
                    sink.write(XMLDatatypeUtil.normalize(label, datatype), Escape.NONE);
                    return;
                } catch (IllegalArgumentException e) {
                    // not a valid number: written as any other literal
                }
            }
            boolean quote = label.indexOf(',') >= 0 || label.indexOf('"') >= 0 || label.indexOf('\n') >= 0
                    || label.indexOf('\r') >= 0;
            quoted(quote ? label.replace("\"", "\"\"") : label, quote);
        }

        private void quoted(String s, boolean quote) throws IOException {
            if (quote) {
                sink.write('"');
            }
            sink.write(s, Escape.NONE);
            if (quote) {
                sink.write('"');
            }
        }

        @Override
        void end() {
            // CSV has no trailer
        }
    }
}
