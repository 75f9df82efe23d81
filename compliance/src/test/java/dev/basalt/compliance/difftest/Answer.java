package dev.basalt.compliance.difftest;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.base.CoreDatatype;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;

/**
 * What one store answered to a query: its rows, each as a canonical string of its bindings (in
 * order if the query fixes it, else sorted), and the same rows with literals of numeric, boolean
 * and date-time types replaced by their values; or its error; or {@code skip} when the answer was
 * too large or too slow to compare. Thread-safe: immutable once built.
 *
 * @param rows   the rows, terms as N-Triples (blank nodes by label); null on error or skip
 * @param values the rows by value, for telling apart a difference in lexical forms only
 * @param error  the exception's class and message, or null
 * @param skip   true if the answer was not compared
 */
record Answer(List<String> rows, List<String> values, String error, boolean skip) {

    static Answer skipped() {
        return new Answer(null, null, null, true);
    }

    static Answer failed(Throwable e) {
        return new Answer(null, null, e.getClass().getSimpleName() + ": " + e.getMessage(), false);
    }

    /** Builds an answer row by row. */
    static final class Builder {
        private final List<String> names;
        private final List<String> rows = new ArrayList<>();
        private final List<String> values = new ArrayList<>();

        Builder(List<String> bindingNames) {
            names = new ArrayList<>(bindingNames);
            names.sort(null);
        }

        int size() {
            return rows.size();
        }

        void add(BindingSet row) {
            StringBuilder terms = new StringBuilder("{");
            StringBuilder byValue = new StringBuilder("{");
            for (String name : names) {
                Value v = row.getValue(name);
                if (v != null) {
                    terms.append(' ').append(name).append('=').append(term(v));
                    byValue.append(' ').append(name).append('=').append(value(v));
                }
            }
            rows.add(terms.append(" }").toString());
            values.add(byValue.append(" }").toString());
        }

        Answer build(boolean ordered) {
            if (!ordered) {
                rows.sort(null);
                values.sort(null);
            }
            return new Answer(rows, values, null, false);
        }
    }

    private static String term(Value v) {
        return v instanceof BNode b ? "_:" + b.getID() : NTriplesUtil.toNTriplesString(v);
    }

    /** A literal's value where its type has one that lexical forms may spell differently; else the term. */
    private static String value(Value v) {
        if (!(v instanceof Literal l)) {
            return term(v);
        }
        CoreDatatype.XSD type = l.getCoreDatatype().asXSDDatatype().orElse(null);
        try {
            if (type != null && type.isNumericDatatype()) {
                if (type == CoreDatatype.XSD.DOUBLE || type == CoreDatatype.XSD.FLOAT) {
                    return "num:" + l.doubleValue();
                }
                return "num:" + l.decimalValue().stripTrailingZeros().toPlainString();
            }
            if (type == CoreDatatype.XSD.BOOLEAN) {
                return "bool:" + l.booleanValue();
            }
            if (type == CoreDatatype.XSD.DATETIME || type == CoreDatatype.XSD.DATE) {
                return type + ":" + l.calendarValue().normalize().toXMLFormat();
            }
        } catch (IllegalArgumentException e) {
            // an ill-typed literal has no value: it stays a term
        }
        return term(v);
    }
}
