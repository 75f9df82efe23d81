package dev.basalt.federation;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import org.eclipse.rdf4j.model.BNode;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.Bound;
import org.eclipse.rdf4j.query.algebra.Coalesce;
import org.eclipse.rdf4j.query.algebra.Compare;
import org.eclipse.rdf4j.query.algebra.Datatype;
import org.eclipse.rdf4j.query.algebra.FunctionCall;
import org.eclipse.rdf4j.query.algebra.If;
import org.eclipse.rdf4j.query.algebra.IsBNode;
import org.eclipse.rdf4j.query.algebra.IsLiteral;
import org.eclipse.rdf4j.query.algebra.IsNumeric;
import org.eclipse.rdf4j.query.algebra.IsURI;
import org.eclipse.rdf4j.query.algebra.Lang;
import org.eclipse.rdf4j.query.algebra.LangMatches;
import org.eclipse.rdf4j.query.algebra.ListMemberOperator;
import org.eclipse.rdf4j.query.algebra.MathExpr;
import org.eclipse.rdf4j.query.algebra.Not;
import org.eclipse.rdf4j.query.algebra.Or;
import org.eclipse.rdf4j.query.algebra.Regex;
import org.eclipse.rdf4j.query.algebra.SameTerm;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.Str;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;
import org.eclipse.rdf4j.query.algebra.evaluation.function.FunctionRegistry;
import org.eclipse.rdf4j.rio.helpers.NTriplesUtil;

/**
 * Writes parts of a query's algebra back as SPARQL text for a member: terms, triple patterns and
 * the FILTER expressions a star may carry. An expression it cannot write exactly (aggregates,
 * EXISTS, functions it does not know) raises {@link Unwritable}, and the caller leaves that part to
 * FedX. Variables keep their names when SPARQL can spell them; others (RDF4J's internal names) get a
 * SPARQL name recorded in {@link #names()}. One instance per star being written; not thread-safe.
 */
final class SparqlText {
    private static final Pattern VARNAME = Pattern.compile("[A-Za-z0-9_]+");

    /** The part cannot be written as SPARQL that means the same. */
    static final class Unwritable extends Exception {
        Unwritable(String what) {
            super(what, null, false, false);
        }
    }

    private final Map<String, String> names = new HashMap<>();
    private final Set<String> variables = new LinkedHashSet<>();

    /** SPARQL name to query variable name, for the variables whose names had to change. */
    Map<String, String> names() {
        return names;
    }

    /** The unbound variables written so far. */
    Set<String> variables() {
        return variables;
    }

    String pattern(StatementPattern pattern) throws Unwritable {
        return term(pattern.getSubjectVar()) + " " + term(pattern.getPredicateVar()) + " "
                + term(pattern.getObjectVar()) + " .";
    }

    String term(Var var) throws Unwritable {
        if (var.hasValue()) {
            return value(var.getValue());
        }
        String name = var.getName();
        variables.add(name);
        if (VARNAME.matcher(name).matches()) {
            return "?" + name;
        }
        String sparql = "basalt_v" + Integer.toHexString(name.hashCode()) + "_" + names.size();
        for (Map.Entry<String, String> e : names.entrySet()) {
            if (e.getValue().equals(name)) {
                sparql = e.getKey();
            }
        }
        names.put(sparql, name);
        return "?" + sparql;
    }

    static String value(Value value) throws Unwritable {
        if (value instanceof BNode) {
            throw new Unwritable("a blank node constant");
        }
        if (value.isTriple()) {
            throw new Unwritable("an RDF-star triple");
        }
        if (value instanceof org.eclipse.rdf4j.model.IRI iri && plain(iri.stringValue(), true)) {
            return "<" + iri.stringValue() + ">"; // what N-Triples writes of an IRI without characters to escape
        }
        if (value instanceof org.eclipse.rdf4j.model.Literal literal && literal.getLanguage().isEmpty()
                && plain(literal.getLabel(), false) && plain(literal.getDatatype().stringValue(), true)) {
            String datatype = literal.getDatatype().stringValue();
            return XSD_STRING.equals(datatype) ? "\"" + literal.getLabel() + "\""
                    : "\"" + literal.getLabel() + "\"^^<" + datatype + ">";
        }
        return NTriplesUtil.toNTriplesString(value);
    }

    private static final String XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";

    /**
     * Whether N-Triples writes {@code text} as it is: printable ASCII only, without the characters it escapes in a
     * literal's label ({@code "} and {@code \}) or, for an IRI, those it escapes there ({@code <>"{}|^`\} and space).
     */
    private static boolean plain(String text, boolean iri) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c > 0x7e || c == '"' || c == '\\'
                    || iri && (c == ' ' || c == '<' || c == '>' || c == '{' || c == '}' || c == '|' || c == '^' || c == '`')) {
                return false;
            }
        }
        return true;
    }

    String expression(ValueExpr expr) throws Unwritable {
        if (expr instanceof Var var) {
            return term(var);
        }
        if (expr instanceof ValueConstant constant) {
            return value(constant.getValue());
        }
        if (expr instanceof And and) {
            return "(" + expression(and.getLeftArg()) + " && " + expression(and.getRightArg()) + ")";
        }
        if (expr instanceof Or or) {
            return "(" + expression(or.getLeftArg()) + " || " + expression(or.getRightArg()) + ")";
        }
        if (expr instanceof Not not) {
            return "(!" + expression(not.getArg()) + ")";
        }
        if (expr instanceof Compare compare) {
            return "(" + expression(compare.getLeftArg()) + " " + compare.getOperator().getSymbol() + " "
                    + expression(compare.getRightArg()) + ")";
        }
        if (expr instanceof MathExpr math) {
            return "(" + expression(math.getLeftArg()) + " " + math.getOperator().getSymbol() + " "
                    + expression(math.getRightArg()) + ")";
        }
        if (expr instanceof SameTerm same) {
            return call("sameTerm", same.getLeftArg(), same.getRightArg());
        }
        if (expr instanceof LangMatches matches) {
            return call("langMatches", matches.getLeftArg(), matches.getRightArg());
        }
        if (expr instanceof Bound bound) {
            return "bound(" + term(bound.getArg()) + ")";
        }
        if (expr instanceof Str str) {
            return call("str", str.getArg());
        }
        if (expr instanceof Lang lang) {
            return call("lang", lang.getArg());
        }
        if (expr instanceof Datatype datatype) {
            return call("datatype", datatype.getArg());
        }
        if (expr instanceof IsURI isUri) {
            return call("isIRI", isUri.getArg());
        }
        if (expr instanceof IsBNode isBNode) {
            return call("isBlank", isBNode.getArg());
        }
        if (expr instanceof IsLiteral isLiteral) {
            return call("isLiteral", isLiteral.getArg());
        }
        if (expr instanceof IsNumeric isNumeric) {
            return call("isNumeric", isNumeric.getArg());
        }
        if (expr instanceof Regex regex) {
            return regex.getFlagsArg() == null ? call("regex", regex.getArg(), regex.getPatternArg())
                    : call("regex", regex.getArg(), regex.getPatternArg(), regex.getFlagsArg());
        }
        if (expr instanceof If conditional) {
            return call("IF", conditional.getCondition(), conditional.getResult(), conditional.getAlternative());
        }
        if (expr instanceof Coalesce coalesce) {
            return call("COALESCE", coalesce.getArguments().toArray(ValueExpr[]::new));
        }
        if (expr instanceof ListMemberOperator in) {
            List<ValueExpr> args = in.getArguments();
            StringBuilder text = new StringBuilder("(").append(expression(args.get(0))).append(" IN (");
            for (int i = 1; i < args.size(); i++) {
                text.append(i > 1 ? ", " : "").append(expression(args.get(i)));
            }
            return text.append("))").toString();
        }
        if (expr instanceof FunctionCall function) {
            // SPARQL's built-ins (STRSTARTS, CONTAINS, …) parse into calls by their XPath/SPARQL IRIs,
            // which a member reads back as the same function.
            if (!FunctionRegistry.getInstance().has(function.getURI())) {
                throw new Unwritable("function " + function.getURI());
            }
            return "<" + function.getURI() + ">" + arguments(function.getArgs().toArray(ValueExpr[]::new));
        }
        throw new Unwritable(expr.getClass().getSimpleName());
    }

    private String call(String name, ValueExpr... args) throws Unwritable {
        return name + arguments(args);
    }

    private String arguments(ValueExpr... args) throws Unwritable {
        StringBuilder text = new StringBuilder("(");
        for (int i = 0; i < args.length; i++) {
            text.append(i > 0 ? ", " : "").append(expression(args[i]));
        }
        return text.append(')').toString();
    }
}
