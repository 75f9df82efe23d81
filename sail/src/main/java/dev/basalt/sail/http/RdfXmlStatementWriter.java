package dev.basalt.sail.http;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Resource;
import org.eclipse.rdf4j.model.Statement;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.vocabulary.RDF;
import org.eclipse.rdf4j.query.GraphQueryResult;
import org.eclipse.rdf4j.query.QueryEvaluationException;
import org.eclipse.rdf4j.rio.RDFFormat;
import org.eclipse.rdf4j.rio.RDFHandlerException;

import dev.basalt.sail.errors.FailureStatus;
import dev.basalt.sail.query.KeptGraph;

/**
 * Writes the statements of a CONSTRUCT or DESCRIBE answer as RDF/XML, the graph format the BSBM test driver and
 * most SPARQL clients ask for, in place of RDF4J's {@code RDFXMLWriter}: the same graph (the same statements, blank
 * nodes up to renaming), not the same bytes. One small class with no calls through interfaces on the per-statement
 * path but the values' own, so the launcher's warm-up compiles the code every answer runs (RDF4J's writer is a
 * hierarchy of handlers whose compiled code the first answers after a start threw away again).
 *
 * <p>The document: the XML declaration, then {@code rdf:RDF} declaring {@code rdf:} and the prefixes of the query's
 * prologue ({@link GraphQueryResult#getNamespaces}) that are XML prefixes (not {@code xml...}, not the empty one, and
 * {@code rdf} only as RDF's own namespace). Statements of one subject that follow each other share one
 * {@code rdf:Description} ({@code rdf:about} for an IRI, {@code rdf:nodeID} for a blank node); each statement is a
 * property element named by its predicate, split after its longest tail that is an XML local name: with a prefix
 * declared for the head, {@code <prefix:local>}, else {@code <local xmlns='head'>}. Its object is an
 * {@code rdf:resource} or {@code rdf:nodeID} attribute, or a literal's text with {@code xml:lang} or
 * {@code rdf:datatype} (none for {@code xsd:string}). Attributes are single-quoted and escaped as
 * {@link Escape#XML_ATTRIBUTE} (tab, line feed and carriage return as references, so that attribute normalization
 * keeps them), text as {@link Escape#XML_TEXT}. A blank node's label is written as it is when it is an XML name
 * not starting with {@code x-}, else as {@code x-} and the hexadecimal of its UTF-8 bytes, so distinct blank nodes
 * stay distinct. An RDF-star triple is written as its {@code urn:rdf4j:triple:} IRI, as RDF4J's non-star writers
 * write it. Named graphs are not part of RDF/XML: statements of every graph are written alike. A predicate
 * without a tail that is an XML name (such as {@code http://example.org/1}) cannot be written in RDF/XML; the writer
 * then fails with an {@link RDFHandlerException} naming it, as RDF4J's does.
 *
 * <p>A DESCRIBE answered by its kept plan ({@link KeptGraph}) is written from its statements' term ids by
 * {@link KeptGraphWriter}, with the objects' encoded forms and the property elements kept in {@link TermFragments}:
 * the same bytes, through this writer's methods for a description, a property element and an object.
 *
 * <p>Not thread-safe: one instance writes one response on the thread that serves it.
 */
final class RdfXmlStatementWriter extends EncodedOutput {
    private static final String RDF_NAMESPACE = RDF.NAMESPACE;
    private static final String XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";
    private static final byte[] PROLOGUE = RowWriter.ascii("<?xml version='1.0' encoding='UTF-8'?>\n"
            + "<rdf:RDF xmlns:rdf='" + RDF_NAMESPACE + "'");
    private static final byte[] NAMESPACE = RowWriter.ascii("\n\txmlns:");
    private static final byte[] ATTRIBUTE_START = RowWriter.ascii("='");
    private static final byte[] HEAD_END = RowWriter.ascii(">\n");
    private static final byte[] ABOUT = RowWriter.ascii("<rdf:Description rdf:about='");
    private static final byte[] NODE = RowWriter.ascii("<rdf:Description rdf:nodeID='");
    private static final byte[] DESCRIPTION_END = RowWriter.ascii("</rdf:Description>\n");
    private static final byte[] DEFAULT_NAMESPACE = RowWriter.ascii(" xmlns='");
    private static final byte[] RESOURCE = RowWriter.ascii(" rdf:resource='");
    private static final byte[] NODE_ID = RowWriter.ascii(" rdf:nodeID='");
    private static final byte[] LANGUAGE = RowWriter.ascii(" xml:lang='");
    private static final byte[] DATATYPE = RowWriter.ascii(" rdf:datatype='");
    private static final byte[] EMPTY_END = RowWriter.ascii("'/>\n");
    private static final byte[] QUOTE_END = RowWriter.ascii("'>");
    private static final byte[] EPILOGUE = RowWriter.ascii("</rdf:RDF>\n");
    private static final String ENCODED_LABEL = "x-";

    /** Namespace to prefix, for the prefixes declared on {@code rdf:RDF}. */
    private Map<String, String> prefixes = new HashMap<>();
    /**
     * Per predicate of this response, its property element's name split, prefixed and encoded once: a graph answer
     * repeats few predicates over many statements.
     */
    private final HashMap<String, Element> elements = new HashMap<>();
    /** The subject of the open {@code rdf:Description}, or null. */
    private Resource subject;

    RdfXmlStatementWriter(OutputStream out) {
        super(out);
    }

    RdfXmlStatementWriter(OutputStream out, byte[] buffer) {
        super(out, buffer);
    }

    /**
     * Answers a request with a graph result in RDF/XML: status and headers as RDF4J Server's views set them
     * ({@link RowWriter#head}), then the document; a failure while it is written is answered with
     * {@link FailureStatus#whileWritingResult}'s status. Closes {@code result}.
     */
    static void respond(HttpServletRequest request, GraphQueryResult result, HttpServletResponse response)
            throws IOException {
        RowWriter.head(request, response, RDFFormat.RDFXML);
        byte[] buffer = borrowBuffer();
        try (GraphQueryResult statements = result; OutputStream out = response.getOutputStream()) {
            KeptGraph kept = result instanceof KeptGraph k ? k : null;
            TermFragments fragments = kept == null ? null : TermFragments.of(kept.termSpace());
            RdfXmlStatementWriter writer = new RdfXmlStatementWriter(out, buffer);
            if (fragments != null) {
                new KeptGraphWriter(writer, fragments).document(kept.getNamespaces(), kept.ids());
            } else {
                writer.document(statements);
            }
            writer.drainLast(response);
        } catch (QueryEvaluationException | RDFHandlerException e) {
            RowWriter.sendError(response, FailureStatus.whileWritingResult(e));
        } finally {
            returnBuffer(buffer);
        }
    }

    /**
     * Writes the whole document of {@code statements}; its last bytes stay in the buffer for the caller's
     * {@link #drainLast} or {@link #drain}.
     */
    void document(GraphQueryResult statements) throws IOException {
        start(statements.getNamespaces());
        for (Statement s : statements) {
            statement(s);
        }
        end();
    }

    /** Writes the XML declaration and the opening {@code rdf:RDF} with the prefixes of {@code namespaces}. */
    void start(Map<String, String> namespaces) throws IOException {
        write(PROLOGUE);
        prefixes.put(RDF_NAMESPACE, "rdf");
        for (Map.Entry<String, String> e : namespaces.entrySet()) {
            String prefix = e.getKey();
            String namespace = e.getValue();
            if (!declarable(prefix) || prefix.equals("rdf") || prefixes.containsKey(namespace)) {
                continue;
            }
            prefixes.put(namespace, prefix);
            write(NAMESPACE);
            write(prefix, Escape.NONE);
            write(ATTRIBUTE_START);
            write(namespace, Escape.XML_ATTRIBUTE);
            write('\'');
        }
        write(HEAD_END);
    }

    /** Writes one statement, in the open {@code rdf:Description} if it has the same subject. */
    void statement(Statement statement) throws IOException {
        Resource s = statement.getSubject();
        if (subject == null || s != subject && !s.equals(subject)) {
            if (subject != null) {
                write(DESCRIPTION_END);
            }
            subject = s;
            description(s);
        }
        Element element = element(statement.getPredicate().stringValue());
        elementStart(element);
        if (object(statement.getObject())) {
            write(element.end);
        }
    }

    /** The opening {@code rdf:Description} of {@code s}, with its line break. */
    void description(Resource s) throws IOException {
        Value plain = RowWriter.plain(s);
        if (plain instanceof BNode bnode) {
            write(NODE);
            writeLabel(bnode.getID());
        } else {
            write(ABOUT);
            writeOnce(plain.stringValue(), Escape.XML_ATTRIBUTE);
        }
        write(QUOTE_END);
        write('\n');
    }

    /** A property element's start: its name, and the namespace it declares when it has no prefix. */
    void elementStart(Element element) throws IOException {
        write(element.start);
        if (element.namespace != null) {
            write(DEFAULT_NAMESPACE);
            write(element.namespace, Escape.XML_ATTRIBUTE);
            write('\'');
        }
    }

    /**
     * What follows a property element's start for {@code value} as its object: an empty element's attribute and
     * close, or a literal's attributes and text; true for a literal, whose element's end tag is still to be written.
     */
    boolean object(Value value) throws IOException {
        Value object = RowWriter.plain(value);
        if (object instanceof IRI) {
            write(RESOURCE);
            write(object.stringValue(), Escape.XML_ATTRIBUTE);
            write(EMPTY_END);
            return false;
        }
        if (object instanceof BNode bnode) {
            write(NODE_ID);
            writeLabel(bnode.getID());
            write(EMPTY_END);
            return false;
        }
        Literal literal = (Literal) object;
        String datatype = literal.getDatatype().stringValue();
        if (literal.getLanguage().isPresent()) {
            write(LANGUAGE);
            write(literal.getLanguage().get(), Escape.XML_ATTRIBUTE);
            write(QUOTE_END);
        } else if (!datatype.equals(XSD_STRING)) {
            write(DATATYPE);
            write(datatype, Escape.XML_ATTRIBUTE);
            write(QUOTE_END);
        } else {
            write('>');
        }
        write(literal.getLabel(), Escape.XML_TEXT);
        return true;
    }

    /** Closes an {@code rdf:Description} opened by {@link #description} (not by {@link #statement}). */
    void descriptionEnd() throws IOException {
        write(DESCRIPTION_END);
    }

    /** Namespace to prefix of the prefixes {@link #start} declared. */
    Map<String, String> prefixes() {
        return prefixes;
    }

    /** Names property elements by {@code declared}, the prefixes of a prologue written already. */
    void usePrefixes(Map<String, String> declared) {
        prefixes = declared;
    }

    /** Closes the open {@code rdf:Description}, if any, and {@code rdf:RDF}. */
    void end() throws IOException {
        if (subject != null) {
            write(DESCRIPTION_END);
            subject = null;
        }
        write(EPILOGUE);
    }

    /**
     * The property element of {@code predicate}, made at its first statement in this response: its encoded start
     * ({@code \t<prefix:local} or {@code \t<local}), the namespace to declare on it when no prefix is declared for it,
     * and its encoded end; an {@link RDFHandlerException} when it has no tail that is an XML local name.
     */
    Element element(String predicate) {
        Element element = elements.get(predicate);
        if (element != null) {
            return element;
        }
        int split = localNameStart(predicate);
        if (split < 0) {
            throw new RDFHandlerException("the predicate <" + predicate + "> has no XML local name: RDF/XML cannot "
                    + "write it");
        }
        String namespace = predicate.substring(0, split);
        String prefix = prefixes.get(namespace);
        // a declared prefix and a local name are XML names: characters of the Basic Multilingual Plane, no escaping
        String name = prefix == null ? predicate.substring(split) : prefix + ':' + predicate.substring(split);
        element = new Element(("\t<" + name).getBytes(StandardCharsets.UTF_8), prefix == null ? namespace : null,
                ("</" + name + ">\n").getBytes(StandardCharsets.UTF_8));
        elements.put(predicate, element);
        return element;
    }

    /** A property element: start and end encoded, and the namespace its start declares (null when prefixed). */
    record Element(byte[] start, String namespace, byte[] end) {
    }

    private void writeLabel(String label) throws IOException {
        if (isName(label) && !label.startsWith(ENCODED_LABEL)) {
            write(label, Escape.NONE);
            return;
        }
        write(ENCODED_LABEL, Escape.NONE);
        StringBuilder hex = new StringBuilder();
        for (byte b : label.getBytes(StandardCharsets.UTF_8)) {
            hex.append(Character.forDigit(b >> 4 & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        write(hex.toString(), Escape.NONE);
    }

    /**
     * Where the longest tail of {@code iri} that is an XML local name (an NCName) starts, or -1 if none does: the
     * name characters at the end, less any leading ones that may not start a name.
     */
    static int localNameStart(String iri) {
        int start = iri.length();
        while (start > 0 && nameChar(iri.charAt(start - 1))) {
            start--;
        }
        while (start < iri.length() && !nameStartChar(iri.charAt(start))) {
            start++;
        }
        return start < iri.length() ? start : -1;
    }

    /** Whether {@code s} is an XML name without colon (NCName), as a blank node's label must be for rdf:nodeID. */
    static boolean isName(String s) {
        if (s.isEmpty() || !nameStartChar(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            if (!nameChar(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    /** A prefix the writer declares: an NCName not starting with {@code xml} in any case (reserved by XML). */
    private static boolean declarable(String prefix) {
        return isName(prefix) && !prefix.regionMatches(true, 0, "xml", 0, 3);
    }

    private static boolean nameStartChar(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c >= 0x80 && Character.isLetter(c);
    }

    private static boolean nameChar(char c) {
        return nameStartChar(c) || c >= '0' && c <= '9' || c == '-' || c == '.'
                || c >= 0x80 && Character.isLetterOrDigit(c);
    }
}
