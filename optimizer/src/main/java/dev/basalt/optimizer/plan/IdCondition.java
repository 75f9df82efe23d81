package dev.basalt.optimizer.plan;

import java.util.Map;

import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.Bound;
import org.eclipse.rdf4j.query.algebra.Compare;
import org.eclipse.rdf4j.query.algebra.IsBNode;
import org.eclipse.rdf4j.query.algebra.IsLiteral;
import org.eclipse.rdf4j.query.algebra.IsURI;
import org.eclipse.rdf4j.query.algebra.Not;
import org.eclipse.rdf4j.query.algebra.Or;
import org.eclipse.rdf4j.query.algebra.SameTerm;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.store.lexicon.TermIds;
import dev.basalt.store.lexicon.TermKind;

/**
 * A condition decided on term ids, without materializing values, in SPARQL's three-valued logic
 * (true, false, error) plus UNKNOWN: "the ids do not decide this; ask RDF4J on values". Only
 * answers that hold in both STRICT and STANDARD evaluation modes are given on ids:
 * <ul>
 * <li>{@code bound}, {@code sameTerm}, {@code isIRI}/{@code isBlank}/{@code isLiteral} (by id kind);
 * <li>{@code =} and {@code !=}: identical ids are equal terms (except floats and doubles, for NaN,
 * and dictionary literals, whose datatype may be unknown); an IRI, blank node or triple term
 * against a different term is unequal;
 * <li>{@code = != < <= > >=} between two inline integers (any integer datatype) or two inline
 * decimals, by value: inline ids are order-preserving within a kind;
 * <li>{@code = != < <= > >=} between two inline {@code xsd:dateTime}s that both have a timezone or
 * both have none, by instant (XSD's comparison of a zoned with an unzoned value is left to RDF4J);
 * <li>{@code = != < <= > >=} between two inline {@code xsd:date}s without timezone, by day;
 * <li>comparisons whose sides are integer {@code + - *} over inline integers ({@link IntegerComparison}).
 * </ul>
 * {@code &&}, {@code ||} and {@code !} combine these with SPARQL's error rules; UNKNOWN wins over
 * error but not over a deciding true ({@code ||}) or false ({@code &&}).
 *
 * <p>In a plan kept for a query shape, a constant may be a sentinel that stands for each
 * evaluation's own constant: {@link #bind} gives the condition of one evaluation.
 * Immutable; {@link #bind} makes a new condition per evaluation, so any thread may test one.
 */
abstract class IdCondition {
    static final int FALSE = 0;
    static final int TRUE = 1;
    static final int ERROR = 2;
    static final int UNKNOWN = 3;
    private static final long ZONE_MASK = (1L << TermIds.ZONE_BITS) - 1;

    abstract int eval(long[] row);

    abstract String describe();

    /**
     * This condition with each constant that {@code values} maps (a sentinel of a plan kept for a query shape)
     * replaced by its value's id in {@code source}, as {@link #compile} would have looked it up; itself if none is
     * mapped.
     */
    abstract IdCondition bind(Map<Value, Value> values, QuadSource source);

    /** The id-level form of {@code e}, or null if some part of it needs values. */
    static IdCondition compile(ValueExpr e, VarTable vars, QuadSource source) {
        if (e instanceof And a) {
            IdCondition l = compile(a.getLeftArg(), vars, source);
            IdCondition r = l == null ? null : compile(a.getRightArg(), vars, source);
            return r == null ? null : new Logical(l, r, true);
        }
        if (e instanceof Or o) {
            IdCondition l = compile(o.getLeftArg(), vars, source);
            IdCondition r = l == null ? null : compile(o.getRightArg(), vars, source);
            return r == null ? null : new Logical(l, r, false);
        }
        if (e instanceof Not n) {
            IdCondition c = compile(n.getArg(), vars, source);
            return c == null ? null : new Negation(c);
        }
        if (e instanceof Bound b) {
            int slot = vars.slot(b.getArg().getName());
            return b.getArg().hasValue() ? null : new BoundTest(slot, b.getArg().getName());
        }
        if (e instanceof SameTerm st) {
            Operand l = Operand.of(st.getLeftArg(), vars, source);
            Operand r = Operand.of(st.getRightArg(), vars, source);
            return l == null || r == null ? null : new Comparison(l, r, null, true);
        }
        if (e instanceof IsURI u) {
            Operand a = Operand.of(u.getArg(), vars, source);
            return a == null ? null : new KindTest(a, "isIRI", TermKind.IRI);
        }
        if (e instanceof IsBNode b) {
            Operand a = Operand.of(b.getArg(), vars, source);
            return a == null ? null : new KindTest(a, "isBlank", TermKind.BLANK_NODE);
        }
        if (e instanceof IsLiteral l) {
            Operand a = Operand.of(l.getArg(), vars, source);
            return a == null ? null : new KindTest(a, "isLiteral", null);
        }
        if (e instanceof Compare c) {
            Operand l = Operand.of(c.getLeftArg(), vars, source);
            Operand r = Operand.of(c.getRightArg(), vars, source);
            if (l == null || r == null) {
                return IntegerComparison.compile(c, vars, source);
            }
            return new Comparison(l, r, c.getOperator(), false);
        }
        return null;
    }

    /** A variable's id in the row, or a constant's id; {@link #UNKNOWN_ID} for a constant the store has no id for. */
    static final class Operand {
        static final long UNKNOWN_ID = -1L;
        final int slot;
        final long constant;
        final String text;
        /** The constant's value (null for a variable). */
        final Value value;

        private Operand(int slot, long constant, String text, Value value) {
            this.slot = slot;
            this.constant = constant;
            this.text = text;
            this.value = value;
        }

        static Operand of(ValueExpr e, VarTable vars, QuadSource source) {
            if (e instanceof Var v) {
                if (v.hasValue()) {
                    return constant(v.getValue(), source);
                }
                return new Operand(vars.slot(v.getName()), 0, "?" + v.getName(), null);
            }
            if (e instanceof ValueConstant c) {
                return constant(c.getValue(), source);
            }
            return null;
        }

        private static Operand constant(Value v, QuadSource source) {
            long id = source.lookup(v);
            return new Operand(-1, id == TermIds.NULL ? UNKNOWN_ID : id, v.toString(), v);
        }

        /** This operand with its constant replaced if {@code values} maps it; see {@link IdCondition#bind}. */
        Operand bind(Map<Value, Value> values, QuadSource source) {
            Value v = value == null ? null : values.get(value);
            return v == null ? this : constant(v, source);
        }

        long id(long[] row) {
            return slot >= 0 ? row[slot] : constant;
        }
    }

    private static final class Logical extends IdCondition {
        final IdCondition l;
        final IdCondition r;
        final boolean and;

        Logical(IdCondition l, IdCondition r, boolean and) {
            this.l = l;
            this.r = r;
            this.and = and;
        }

        @Override
        int eval(long[] row) {
            int a = l.eval(row);
            int b = r.eval(row);
            int decisive = and ? FALSE : TRUE;
            if (a == decisive || b == decisive) {
                return decisive;
            }
            if (a == UNKNOWN || b == UNKNOWN) {
                return UNKNOWN;
            }
            if (a == ERROR || b == ERROR) {
                return ERROR;
            }
            return and ? TRUE : FALSE;
        }

        @Override
        String describe() {
            return "(" + l.describe() + (and ? " && " : " || ") + r.describe() + ")";
        }

        @Override
        IdCondition bind(Map<Value, Value> values, QuadSource source) {
            IdCondition bl = l.bind(values, source);
            IdCondition br = r.bind(values, source);
            return bl == l && br == r ? this : new Logical(bl, br, and);
        }
    }

    private static final class Negation extends IdCondition {
        final IdCondition c;

        Negation(IdCondition c) {
            this.c = c;
        }

        @Override
        int eval(long[] row) {
            int v = c.eval(row);
            return v == TRUE ? FALSE : v == FALSE ? TRUE : v;
        }

        @Override
        String describe() {
            return "!" + c.describe();
        }

        @Override
        IdCondition bind(Map<Value, Value> values, QuadSource source) {
            IdCondition b = c.bind(values, source);
            return b == c ? this : new Negation(b);
        }
    }

    private static final class BoundTest extends IdCondition {
        final int slot;
        final String name;

        BoundTest(int slot, String name) {
            this.slot = slot;
            this.name = name;
        }

        @Override
        int eval(long[] row) {
            return row[slot] != TermIds.NULL ? TRUE : FALSE;
        }

        @Override
        String describe() {
            return "bound(?" + name + ")";
        }

        @Override
        IdCondition bind(Map<Value, Value> values, QuadSource source) {
            return this;
        }
    }

    private static final class KindTest extends IdCondition {
        final Operand arg;
        final String name;
        final TermKind kind;

        KindTest(Operand arg, String name, TermKind kind) {
            this.arg = arg;
            this.name = name;
            this.kind = kind;
        }

        @Override
        int eval(long[] row) {
            long id = arg.id(row);
            if (id == Operand.UNKNOWN_ID) {
                return UNKNOWN;
            }
            if (id == TermIds.NULL) {
                return ERROR;
            }
            if (TermIds.isLocal(id)) {
                return UNKNOWN;
            }
            TermKind k = TermIds.kind(id);
            boolean yes = kind == null ? k.isLiteral() : k == kind;
            return yes ? TRUE : FALSE;
        }

        @Override
        String describe() {
            return name + "(" + arg.text + ")";
        }

        @Override
        IdCondition bind(Map<Value, Value> values, QuadSource source) {
            Operand a = arg.bind(values, source);
            return a == arg ? this : new KindTest(a, name, kind);
        }
    }

    private static final class Comparison extends IdCondition {
        final Operand l;
        final Operand r;
        final Compare.CompareOp op;
        final boolean sameTerm;

        Comparison(Operand l, Operand r, Compare.CompareOp op, boolean sameTerm) {
            this.l = l;
            this.r = r;
            this.op = op;
            this.sameTerm = sameTerm;
        }

        @Override
        int eval(long[] row) {
            long a = l.id(row);
            long b = r.id(row);
            if (a == Operand.UNKNOWN_ID || b == Operand.UNKNOWN_ID) {
                return UNKNOWN;
            }
            if (a == TermIds.NULL || b == TermIds.NULL) {
                return ERROR;
            }
            if (sameTerm) {
                return a == b ? TRUE : FALSE;
            }
            if (TermIds.isLocal(a) || TermIds.isLocal(b)) {
                return UNKNOWN;
            }
            TermKind ka = TermIds.kind(a);
            TermKind kb = TermIds.kind(b);
            int cmp;
            if (ka == TermKind.INTEGER && kb == TermKind.INTEGER) {
                // value bits above the datatype code, biased so unsigned order is value order
                cmp = Long.compareUnsigned(a >>> TermIds.INTEGER_TYPE_BITS, b >>> TermIds.INTEGER_TYPE_BITS);
            } else if (ka == TermKind.DECIMAL && kb == TermKind.DECIMAL) {
                cmp = Long.compareUnsigned(a, b);
            } else if (ka == TermKind.DATE_TIME && kb == TermKind.DATE_TIME) {
                // the UTC instant sits above the zone code (an unzoned value placed as if UTC): the
                // order of two zoned or two unzoned values; XSD leaves zoned against unzoned
                // indeterminate within 14 hours, so RDF4J decides those
                if (((a & ZONE_MASK) == TermIds.ZONE_NONE) != ((b & ZONE_MASK) == TermIds.ZONE_NONE)) {
                    return UNKNOWN;
                }
                cmp = Long.compareUnsigned(a >>> TermIds.ZONE_BITS, b >>> TermIds.ZONE_BITS);
            } else if (ka == TermKind.DATE && kb == TermKind.DATE) {
                // two dates without timezone compare by day, which sits above the zone code; zoned
                // dates are left to RDF4J
                if ((a & ZONE_MASK) != TermIds.ZONE_NONE || (b & ZONE_MASK) != TermIds.ZONE_NONE) {
                    return UNKNOWN;
                }
                cmp = Long.compareUnsigned(a >>> TermIds.ZONE_BITS, b >>> TermIds.ZONE_BITS);
            } else if (op == Compare.CompareOp.EQ || op == Compare.CompareOp.NE) {
                boolean resource = !ka.isLiteral() || !kb.isLiteral();
                boolean identicalDecides = a == b && ka.isInline() && ka != TermKind.FLOAT && ka != TermKind.DOUBLE;
                if (resource && ka != TermKind.RESERVED && kb != TermKind.RESERVED || identicalDecides) {
                    boolean eq = a == b;
                    return (op == Compare.CompareOp.EQ) == eq ? TRUE : FALSE;
                }
                return UNKNOWN;
            } else {
                return UNKNOWN;
            }
            boolean result;
            switch (op) {
                case EQ -> result = cmp == 0;
                case NE -> result = cmp != 0;
                case LT -> result = cmp < 0;
                case LE -> result = cmp <= 0;
                case GT -> result = cmp > 0;
                case GE -> result = cmp >= 0;
                default -> {
                    return UNKNOWN;
                }
            }
            return result ? TRUE : FALSE;
        }

        @Override
        String describe() {
            return sameTerm ? "sameTerm(" + l.text + ", " + r.text + ")" : l.text + " " + op.getSymbol() + " " + r.text;
        }

        @Override
        IdCondition bind(Map<Value, Value> values, QuadSource source) {
            Operand bl = l.bind(values, source);
            Operand br = r.bind(values, source);
            return bl == l && br == r ? this : new Comparison(bl, br, op, sameTerm);
        }
    }
}
