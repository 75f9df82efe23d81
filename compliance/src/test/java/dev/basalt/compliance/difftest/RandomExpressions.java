package dev.basalt.compliance.difftest;

import java.util.Random;

/**
 * Random SPARQL expressions for {@link RandomQueries}: comparison, arithmetic and logical operators,
 * IN, IF, COALESCE, and the function families string (STRLEN, SUBSTR, UCASE, LCASE, STRSTARTS,
 * STRENDS, CONTAINS, STRBEFORE, STRAFTER, CONCAT, REPLACE, REGEX, ENCODE_FOR_URI, LANG, LANGMATCHES,
 * STRDT, STRLANG), numeric (ABS, ROUND, CEIL, FLOOR), date (YEAR ... SECONDS, TIMEZONE, TZ), hash
 * (MD5, SHA1, SHA256, SHA384, SHA512), casts to the XSD types and type tests (isIRI, isBlank,
 * isLiteral, isNumeric, BOUND, DATATYPE, sameTerm). Operands are variables the query mentions
 * (bound or not) and constants of every literal type, so type errors and unbound operands are
 * exercised as much as values.
 *
 * <p>Not thread-safe: it belongs to one {@link RandomQueries}.
 */
final class RandomExpressions {
    private final Random random;
    private final RandomQueries query;

    RandomExpressions(Random random, RandomQueries query) {
        this.random = random;
        this.query = query;
    }

    private String operand() {
        return random.nextInt(3) == 0 ? query.constant() : query.anyVar();
    }

    /** An expression meant as a condition (any expression is one, by its effective boolean value). */
    String bool(int depth) {
        if (depth <= 0) {
            return compare(0);
        }
        switch (random.nextInt(10)) {
        case 0:
            return "(" + bool(depth - 1) + " && " + bool(depth - 1) + ")";
        case 1:
            return "(" + bool(depth - 1) + " || " + bool(depth - 1) + ")";
        case 2:
            return "!(" + bool(depth - 1) + ")";
        case 3:
            return typeTest();
        case 4:
            return operand() + pick(" IN (", " NOT IN (") + operand() + ", " + operand() + ")";
        case 5:
            return pick("STRSTARTS", "STRENDS", "CONTAINS") + "(" + string(depth - 1) + ", " + pick("\"a\"", "\"\"", "\"1\"", "\"ab\"") + ")";
        case 6:
            return "REGEX(" + string(depth - 1) + ", " + pick("\"^a\"", "\"b$\"", "\"[0-9]\"", "\"l+o\"") + pick("", ", \"i\"") + ")";
        case 7:
            return "LANGMATCHES(LANG(" + query.anyVar() + "), " + pick("\"en\"", "\"*\"", "\"fr\"", "\"\"") + ")";
        default:
            return compare(depth - 1);
        }
    }

    private String compare(int depth) {
        String op = pick(" = ", " != ", " < ", " > ", " <= ", " >= ");
        switch (random.nextInt(4)) {
        case 0:
            return query.anyVar() + op + query.anyVar();
        case 1:
            return numeric(depth) + op + numeric(depth);
        default:
            return query.anyVar() + op + query.constant();
        }
    }

    private String typeTest() {
        String v = query.anyVar();
        switch (random.nextInt(8)) {
        case 0:
            return "isIRI(" + v + ")";
        case 1:
            return "isBlank(" + v + ")";
        case 2:
            return "isLiteral(" + v + ")";
        case 3:
            return "isNumeric(" + v + ")";
        case 4:
            return "BOUND(" + v + ")";
        case 5:
            return "sameTerm(" + v + ", " + operand() + ")";
        case 6:
            return "DATATYPE(" + v + ") = " + pick("xsd:integer", "xsd:string", "xsd:double", "xsd:decimal", "xsd:dateTime",
                    "<http://www.w3.org/1999/02/22-rdf-syntax-ns#langString>");
        default:
            return "isLiteral(" + v + ") && " + pick("LANG(", "STR(") + v + ") != \"\"";
        }
    }

    /** An expression meant to be numeric. */
    String numeric(int depth) {
        if (depth <= 0) {
            return random.nextInt(3) == 0 ? pick("1", "2", "0", "-1", "1.5", "2.0e0", "0.0") : query.anyVar();
        }
        switch (random.nextInt(9)) {
        case 0:
        case 1:
            return "(" + numeric(depth - 1) + pick(" + ", " - ", " * ", " / ") + numeric(depth - 1) + ")";
        case 2:
            return pick("ABS", "ROUND", "CEIL", "FLOOR") + "(" + numeric(depth - 1) + ")";
        case 3:
            return "STRLEN(" + string(depth - 1) + ")";
        case 4:
            return pick("YEAR", "MONTH", "DAY", "HOURS", "MINUTES", "SECONDS") + "(" + query.anyVar() + ")";
        case 5:
            return pick("xsd:integer", "xsd:decimal", "xsd:double", "xsd:float") + "(" + operand() + ")";
        case 6:
            return "-" + numeric(depth - 1);
        default:
            return numeric(0);
        }
    }

    /** An expression meant to be a string. */
    String string(int depth) {
        if (depth <= 0) {
            return random.nextBoolean() ? query.anyVar() : "STR(" + query.anyVar() + ")";
        }
        switch (random.nextInt(14)) {
        case 0:
            return pick("UCASE", "LCASE") + "(" + string(depth - 1) + ")";
        case 1:
            return "SUBSTR(" + string(depth - 1) + ", " + pick("1", "2", "0", "-1") + pick("", ", 2", ", 0") + ")";
        case 2:
            return pick("STRBEFORE", "STRAFTER") + "(" + string(depth - 1) + ", " + pick("\"a\"", "\"\"", "\" \"", "\"-\"") + ")";
        case 3:
            return "CONCAT(" + string(depth - 1) + ", " + string(depth - 1) + ")";
        case 4:
            return "REPLACE(" + string(depth - 1) + ", " + pick("\"a\"", "\"[0-9]+\"", "\"^\"") + ", \"x\")";
        case 5:
            return "ENCODE_FOR_URI(" + string(depth - 1) + ")";
        case 6:
            return pick("MD5", "SHA1", "SHA256", "SHA384", "SHA512") + "(" + string(depth - 1) + ")";
        case 7:
            return "LANG(" + query.anyVar() + ")";
        case 8:
            return "STRDT(" + string(depth - 1) + ", xsd:string)";
        case 9:
            return "STRLANG(" + string(depth - 1) + ", \"en\")";
        case 10:
            return pick("TZ", "TIMEZONE") + "(" + query.anyVar() + ")";
        case 11:
            return "xsd:string(" + operand() + ")";
        case 12:
            return "STR(DATATYPE(" + query.anyVar() + "))";
        default:
            return string(0);
        }
    }

    /** Any expression, for BIND and IF. */
    String any(int depth) {
        switch (random.nextInt(8)) {
        case 0:
        case 1:
            return numeric(depth);
        case 2:
        case 3:
            return string(depth);
        case 4:
            return bool(depth);
        case 5:
            return "IF(" + bool(depth - 1) + ", " + operand() + ", " + operand() + ")";
        case 6:
            return "COALESCE(" + query.anyVar() + ", " + operand() + ")";
        default:
            return pick("xsd:boolean", "xsd:dateTime", "xsd:date", "xsd:integer") + "(" + operand() + ")";
        }
    }

    @SafeVarargs
    private <T> T pick(T... options) {
        return options[random.nextInt(options.length)];
    }
}
