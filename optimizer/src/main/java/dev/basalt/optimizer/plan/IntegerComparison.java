package dev.basalt.optimizer.plan;

import java.util.Map;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.Compare;
import org.eclipse.rdf4j.query.algebra.MathExpr;
import org.eclipse.rdf4j.query.algebra.ValueExpr;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.InlineValues;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.lexicon.TermKind;

/**
 * A comparison whose sides are sums, differences and products of integers, decided on ids when
 * every operand is an inline integer (any integer datatype): e.g. BSBM's
 * {@code ?sim < (?orig + 120)}. SPARQL computes integer {@code + - *} as xsd:integer and compares
 * integers by value, in STRICT and STANDARD mode alike, so exact long arithmetic gives the same
 * answer. Anything else is UNKNOWN (RDF4J decides on values): an operand that is not an inline
 * integer (a decimal, a double, a dictionary literal, a query-local value), a division (its result
 * is a decimal), or an overflow of 64 bits. An unbound operand is an error, as in SPARQL.
 * Immutable, like every {@link IdCondition}; any thread may test it.
 */
final class IntegerComparison extends IdCondition {
    private final Term left;
    private final Term right;
    private final Compare.CompareOp op;

    private IntegerComparison(Term left, Term right, Compare.CompareOp op) {
        this.left = left;
        this.right = right;
        this.op = op;
    }

    /** The id-level form of {@code c}, or null if a side is not integer arithmetic over variables and constants. */
    static IdCondition compile(Compare c, VarTable vars, QuadSource source) {
        Term l = Term.of(c.getLeftArg(), vars, source);
        Term r = l == null ? null : Term.of(c.getRightArg(), vars, source);
        return r == null ? null : new IntegerComparison(l, r, c.getOperator());
    }

    @Override
    int eval(long[] row) {
        long[] a = new long[1];
        long[] b = new long[1];
        int la = left.value(row, a);
        if (la != TRUE) {
            return la;
        }
        int lb = right.value(row, b);
        if (lb != TRUE) {
            return lb;
        }
        int cmp = Long.compare(a[0], b[0]);
        boolean result = switch (op) {
            case EQ -> cmp == 0;
            case NE -> cmp != 0;
            case LT -> cmp < 0;
            case LE -> cmp <= 0;
            case GT -> cmp > 0;
            case GE -> cmp >= 0;
        };
        return result ? TRUE : FALSE;
    }

    @Override
    String describe() {
        return left.text() + " " + op.getSymbol() + " " + right.text() + " (integers)";
    }

    @Override
    IdCondition bind(Map<Value, Value> values, QuadSource source) {
        Term l = left.bind(values, source);
        Term r = right.bind(values, source);
        return l == left && r == right ? this : new IntegerComparison(l, r, op);
    }

    /** One side: an operand or integer arithmetic over sides. */
    private interface Term {
        /** Stores the value in {@code out[0]} and returns TRUE, or returns ERROR or UNKNOWN. */
        int value(long[] row, long[] out);

        String text();

        /** This side with its constants replaced as {@link IdCondition#bind} says; itself if none is. */
        Term bind(Map<Value, Value> values, QuadSource source);

        static Term of(ValueExpr e, VarTable vars, QuadSource source) {
            if (e instanceof MathExpr m) {
                if (m.getOperator() == MathExpr.MathOp.DIVIDE) {
                    return null;
                }
                Term l = of(m.getLeftArg(), vars, source);
                Term r = l == null ? null : of(m.getRightArg(), vars, source);
                return r == null ? null : new Arithmetic(l, r, m.getOperator());
            }
            Operand o = Operand.of(e, vars, source);
            return o == null ? null : new Leaf(o);
        }
    }

    private record Leaf(Operand operand) implements Term {
        @Override
        public int value(long[] row, long[] out) {
            long id = operand.id(row);
            if (id == Operand.UNKNOWN_ID || TermIds.isLocal(id)) {
                return UNKNOWN;
            }
            if (id == TermIds.NULL) {
                return ERROR;
            }
            if (TermIds.kind(id) != TermKind.INTEGER) {
                return UNKNOWN;
            }
            out[0] = InlineValues.integerValue(id);
            return TRUE;
        }

        @Override
        public String text() {
            return operand.text;
        }

        @Override
        public Term bind(Map<Value, Value> values, QuadSource source) {
            Operand o = operand.bind(values, source);
            return o == operand ? this : new Leaf(o);
        }
    }

    private record Arithmetic(Term left, Term right, MathExpr.MathOp op) implements Term {
        @Override
        public int value(long[] row, long[] out) {
            int l = left.value(row, out);
            if (l != TRUE) {
                return l;
            }
            long a = out[0];
            int r = right.value(row, out);
            if (r != TRUE) {
                return r;
            }
            long b = out[0];
            try {
                out[0] = switch (op) {
                    case PLUS -> Math.addExact(a, b);
                    case MINUS -> Math.subtractExact(a, b);
                    case MULTIPLY -> Math.multiplyExact(a, b);
                    case DIVIDE -> throw new IllegalStateException("division is not compiled on ids");
                };
            } catch (ArithmeticException overflow) {
                return UNKNOWN;
            }
            return TRUE;
        }

        @Override
        public Term bind(Map<Value, Value> values, QuadSource source) {
            Term l = left.bind(values, source);
            Term r = right.bind(values, source);
            return l == left && r == right ? this : new Arithmetic(l, r, op);
        }

        @Override
        public String text() {
            return "(" + left.text() + " " + op.getSymbol() + " " + right.text() + ")";
        }
    }
}
