package dev.basalt.compliance.difftest;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.model.base.CoreDatatype;
import org.eclipse.rdf4j.query.BindingSet;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;

/**
 * What one store answered to a query: its rows, each as a canonical string of its bindings (in
 * order if the query fixes it, else sorted); or its error; or {@code skip} when the answer was too
 * large or too slow to compare. {@link #values()} gives the rows with literals of numeric, boolean
 * and date-time types replaced by their values; it is computed only when asked, since only a
 * disagreement needs it. Thread-safe: immutable once built (the solutions are not changed).
 *
 * @param rows      the rows, terms as N-Triples (blank nodes by label); null on error or skip
 * @param solutions the solutions the rows were made of, in the rows' order; null on error or skip
 * @param error     the exception's class and message, or null
 * @param skip      true if the answer was not compared
 */
record Answer(List<String> rows, List<BindingSet> solutions, String error, boolean skip) {

    static Answer skipped() {
        return new Answer(null, null, null, true);
    }

    static Answer failed(Throwable e) {
        return new Answer(null, null, e.getClass().getSimpleName() + ": " + e.getMessage(), false);
    }

    /** The rows by value, sorted, for telling apart a difference in lexical forms only; null on error or skip. */
    List<String> values() {
        if (solutions == null) {
            return null;
        }
        List<String> values = new ArrayList<>(solutions.size());
        for (BindingSet row : solutions) {
            List<String> names = new ArrayList<>(row.getBindingNames());
            names.sort(null);
            values.add(row(row, names, Answer::value));
        }
        values.sort(null);
        return values;
    }

    /** A row as "{ name=term ... }" over the sorted {@code names}, terms written by {@code write}. */
    private static String row(BindingSet row, List<String> names, Function<Value, String> write) {
        StringBuilder s = new StringBuilder("{");
        for (String name : names) {
            Value v = row.getValue(name);
            if (v != null) {
                s.append(' ').append(name).append('=').append(write.apply(v));
            }
        }
        return s.append(" }").toString();
    }

    /** Builds an answer row by row. */
    static final class Builder {
        private final List<String> names;
        private final List<String> rows = new ArrayList<>();
        private final List<BindingSet> solutions = new ArrayList<>();

        Builder(List<String> bindingNames) {
            names = new ArrayList<>(bindingNames);
            names.sort(null);
        }

        int size() {
            return rows.size();
        }

        void add(BindingSet row) {
            rows.add(row(row, names, Answer::term));
            solutions.add(row);
        }

        Answer build(boolean ordered) {
            if (!ordered) {
                rows.sort(null);
            }
            return new Answer(rows, solutions, null, false);
        }
    }

    /** The terms of a row written by {@link Builder} ("{ name=term ... }"), in order. */
    static List<String> terms(String row) {
        List<String> terms = new ArrayList<>();
        int i = 1;
        while (i < row.length() - 1) {
            int eq = row.indexOf('=', i);
            if (eq < 0) {
                break;
            }
            int end = termEnd(row, eq + 1);
            terms.add(row.substring(eq + 1, end));
            i = end;
        }
        return terms;
    }

    /** Where the N-Triples term starting at {@code start} ends: past its closing quote, suffix or bracket. */
    private static int termEnd(String row, int start) {
        int i = start;
        if (row.charAt(i) == '"') {
            i++;
            while (row.charAt(i) != '"') {
                i += row.charAt(i) == '\\' ? 2 : 1;
            }
        }
        while (i < row.length() && row.charAt(i) != ' ') {
            i++;
        }
        return i;
    }

    static String term(Value v) {
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
