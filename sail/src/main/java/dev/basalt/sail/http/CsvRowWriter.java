package dev.basalt.sail.http;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.datatypes.XMLDatatypeUtil;
import org.eclipse.rdf4j.model.vocabulary.XSD;
import org.eclipse.rdf4j.query.BindingSet;

/**
 * SPARQL 1.1 Query Results CSV as RDF4J writes it: variable names as they are; an IRI quoted when it holds a
 * comma; a valid integer, decimal or double literal in its canonical form; another literal's label, quoted
 * (inner quotes doubled) when it holds a comma, quote or line break. One instance writes one response on one
 * thread; not thread-safe.
 */
final class CsvRowWriter extends RowWriter {
    private List<String> variables;

    CsvRowWriter(OutputStream out, byte[] buffer) {
        super(out, buffer);
    }

    @Override
    void start(List<String> variables) throws IOException {
        this.variables = variables;
        for (int i = 0; i < variables.size(); i++) {
            if (i > 0) {
                write(',');
            }
            write(variables.get(i), Escape.NONE);
        }
        write('\r');
        write('\n');
    }

    @Override
    void row(BindingSet row) throws IOException {
        for (int i = 0; i < variables.size(); i++) {
            if (i > 0) {
                write(',');
            }
            Value v = row.getValue(variables.get(i));
            if (v == null) {
                continue;
            }
            v = plain(v);
            if (v instanceof BNode bnode) {
                write('_');
                write(':');
                write(bnode.getID(), Escape.NONE);
            } else if (v instanceof IRI) {
                String iri = v.stringValue();
                quoted(iri, iri.indexOf(',') >= 0);
            } else {
                literal((Literal) v);
            }
        }
        write('\r');
        write('\n');
    }

    private void literal(Literal literal) throws IOException {
        String label = literal.getLabel();
        IRI datatype = literal.getDatatype();
        if (XMLDatatypeUtil.isIntegerDatatype(datatype) || XMLDatatypeUtil.isDecimalDatatype(datatype)
                || XSD.DOUBLE.equals(datatype)) {
            try {
                write(XMLDatatypeUtil.normalize(label, datatype), Escape.NONE);
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
            write('"');
        }
        write(s, Escape.NONE);
        if (quote) {
            write('"');
        }
    }

    @Override
    void end() {
        // CSV has no trailer
    }
}
