package dev.basalt.store.lexicon;

import java.util.HashMap;
import java.util.Map;

/**
 * Frozen table of datatype IRIs that a term key names by a one-byte code instead of spelling the
 * IRI (interned datatypes). Codes 1..n are indices + 1; the table belongs to format version
 * {@link TermIds#FORMAT_VERSION} and may only be extended at its end. xsd:string and
 * rdf:langString never appear: those literals have term key tags of their own.
 *
 * <p>Its tables are filled once, at class initialisation, and only read after; any thread may call
 * it.
 */
final class KnownDatatypes {
    private static final String XSD = "http://www.w3.org/2001/XMLSchema#";
    private static final String RDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#";
    private static final String[] TABLE = {
        XSD + "boolean", XSD + "decimal", XSD + "integer", XSD + "double", XSD + "float",
        XSD + "date", XSD + "time", XSD + "dateTime", XSD + "dateTimeStamp", XSD + "duration",
        XSD + "dayTimeDuration", XSD + "yearMonthDuration", XSD + "gYear", XSD + "gYearMonth",
        XSD + "gMonth", XSD + "gMonthDay", XSD + "gDay", XSD + "long", XSD + "int", XSD + "short",
        XSD + "byte", XSD + "nonNegativeInteger", XSD + "positiveInteger", XSD + "nonPositiveInteger",
        XSD + "negativeInteger", XSD + "unsignedLong", XSD + "unsignedInt", XSD + "unsignedShort",
        XSD + "unsignedByte", XSD + "hexBinary", XSD + "base64Binary", XSD + "anyURI",
        XSD + "normalizedString", XSD + "token", XSD + "language", XSD + "NMTOKEN", XSD + "Name",
        XSD + "NCName", RDF + "XMLLiteral", RDF + "HTML", RDF + "JSON",
        "http://www.opengis.net/ont/geosparql#wktLiteral", "http://www.opengis.net/ont/geosparql#gmlLiteral",
    };
    private static final Map<String, Integer> CODES = new HashMap<>();

    static {
        for (int i = 0; i < TABLE.length; i++) {
            CODES.put(TABLE[i], i + 1);
        }
    }

    private KnownDatatypes() {
    }

    /** Code 1..255 of a datatype IRI, or 0 if it is not in the table. */
    static int code(String datatypeIri) {
        return CODES.getOrDefault(datatypeIri, 0);
    }

    static String iri(int code) {
        if (code < 1 || code > TABLE.length) {
            throw new IllegalArgumentException("no known datatype code " + code);
        }
        return TABLE[code - 1];
    }

    static int size() {
        return TABLE.length;
    }
}
