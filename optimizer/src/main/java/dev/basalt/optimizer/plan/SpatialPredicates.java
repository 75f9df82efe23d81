package dev.basalt.optimizer.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Literal;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.And;
import org.eclipse.rdf4j.query.algebra.Compare;
import org.eclipse.rdf4j.query.algebra.Compare.CompareOp;
import org.eclipse.rdf4j.query.algebra.FunctionCall;
import org.eclipse.rdf4j.query.algebra.ValueConstant;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;

import dev.basalt.optimizer.exec.SpatialWindow;

/**
 * Finds the conjuncts of a FILTER that the spatial index can narrow: a GeoSPARQL relation
 * function between a variable and a constant geometry, one that implies the two meet (see
 * {@link dev.basalt.optimizer.exec.SpatialWindow}), or {@code geof:distance(?g, CONST, unit) < r}
 * ({@code <=}, or the comparison written the other way round) with a constant radius and one of
 * the units {@code uom:metre}, {@code uom:degree}, {@code uom:radian}, {@code uom:unity}.
 *
 * <p>Stateless; any thread may call it.
 */
final class SpatialPredicates {
    static final String GEOF = "http://www.opengis.net/def/function/geosparql/";
    /** Relations that hold only between geometries that meet (their bounds intersect). */
    static final Set<String> MEETING = Set.of("sfIntersects", "sfWithin", "sfContains", "sfEquals", "sfOverlaps",
            "sfTouches", "sfCrosses", "ehEquals", "ehMeet", "ehOverlap", "ehCovers", "ehCoveredBy", "ehInside",
            "ehContains", "rcc8eq", "rcc8ec", "rcc8po", "rcc8tppi", "rcc8tpp", "rcc8ntpp", "rcc8ntppi");

    /**
     * One narrowable conjunct: the variable, the constant geometry, the function's local name, and
     * for a distance the constant radius and the unit's IRI (null for a relation).
     */
    record Predicate(String variable, Value geometry, String function, Value radius, String unit) {
    }

    private SpatialPredicates() {
    }

    static List<Predicate> of(ValueExpr condition) {
        List<Predicate> out = new ArrayList<>();
        collect(condition, out);
        return out;
    }

    private static void collect(ValueExpr e, List<Predicate> out) {
        if (e instanceof And and) {
            collect(and.getLeftArg(), out);
            collect(and.getRightArg(), out);
        } else if (e instanceof FunctionCall f) {
            relation(f, out);
        } else if (e instanceof Compare c) {
            distance(c, out);
        }
    }

    private static void relation(FunctionCall f, List<Predicate> out) {
        if (!f.getURI().startsWith(GEOF) || !MEETING.contains(f.getURI().substring(GEOF.length()))
                || f.getArgs().size() != 2) {
            return;
        }
        String name = f.getURI().substring(GEOF.length());
        String a = variable(f.getArgs().get(0));
        String b = variable(f.getArgs().get(1));
        Value ca = constant(f.getArgs().get(0));
        Value cb = constant(f.getArgs().get(1));
        if (a != null && cb != null) {
            out.add(new Predicate(a, cb, name, null, null));
        } else if (b != null && ca != null) {
            out.add(new Predicate(b, ca, name, null, null));
        }
    }

    private static void distance(Compare c, List<Predicate> out) {
        ValueExpr call;
        ValueExpr bound;
        if (c.getOperator() == CompareOp.LT || c.getOperator() == CompareOp.LE) {
            call = c.getLeftArg();
            bound = c.getRightArg();
        } else if (c.getOperator() == CompareOp.GT || c.getOperator() == CompareOp.GE) {
            call = c.getRightArg();
            bound = c.getLeftArg();
        } else {
            return;
        }
        if (!(call instanceof FunctionCall f) || !(GEOF + "distance").equals(f.getURI()) || f.getArgs().size() != 3
                || !(constant(bound) instanceof Literal radius) || !(constant(f.getArgs().get(2)) instanceof IRI unit)
                || Double.isNaN(SpatialWindow.degrees(1, unit.stringValue()))) {
            return;
        }
        String a = variable(f.getArgs().get(0));
        String b = variable(f.getArgs().get(1));
        Value ca = constant(f.getArgs().get(0));
        Value cb = constant(f.getArgs().get(1));
        if (a != null && cb != null) {
            out.add(new Predicate(a, cb, "distance", radius, unit.stringValue()));
        } else if (b != null && ca != null) {
            out.add(new Predicate(b, ca, "distance", radius, unit.stringValue()));
        }
    }

    /** The name of an unbound variable, or null for anything else. */
    static String variable(ValueExpr e) {
        return e instanceof Var v && !v.hasValue() ? v.getName() : null;
    }

    /** The value of a constant (or a variable given a value), or null for anything else. */
    static Value constant(ValueExpr e) {
        if (e instanceof ValueConstant c) {
            return c.getValue();
        }
        return e instanceof Var v && v.hasValue() ? v.getValue() : null;
    }
}
