package dev.basalt.optimizer.plan;

import java.util.List;

import org.eclipse.rdf4j.model.IRI;
import org.eclipse.rdf4j.model.Value;
import org.eclipse.rdf4j.query.algebra.FunctionCall;
import org.eclipse.rdf4j.query.algebra.Order;
import org.eclipse.rdf4j.query.algebra.OrderElem;
import org.eclipse.rdf4j.query.algebra.StatementPattern;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.ValueExpr;
import org.eclipse.rdf4j.query.algebra.Var;

import dev.basalt.optimizer.access.QuadSource;
import dev.basalt.optimizer.exec.KnnOp;
import dev.basalt.optimizer.exec.Operator;
import dev.basalt.optimizer.exec.PatternScan;
import dev.basalt.optimizer.plan.PlanCompiler.Unsupported;

/**
 * Recognizes a k-nearest query, {@code { ?s P ?g } ORDER BY geof:distance(?g, CONST, unit) LIMIT k}
 * (one pattern of the default graph with a constant predicate, the distance ascending, either
 * argument order), and wraps its sorted plan in a {@link KnnOp} that answers from the spatial index
 * when it can. Used by the one thread compiling a query.
 */
final class KnnPlanner {
    private static final String DISTANCE = "http://www.opengis.net/def/function/geosparql/distance";
    private final PlanCompiler compiler;
    private final VarTable vars;
    private final QuadSource source;

    KnnPlanner(PlanCompiler compiler, VarTable vars, QuadSource source) {
        this.compiler = compiler;
        this.vars = vars;
        this.source = source;
    }

    /** {@code sorted} wrapped for an index answer if the query has the shape, else {@code sorted} itself. */
    Operator plan(TupleExpr group, Order order, long keep, Operator sorted) throws Unsupported {
        if (keep < 0 || order.getElements().size() != 1 || !(group instanceof StatementPattern sp)
                || sp.getContextVar() != null || source.spatialIndex() == null) {
            return sorted;
        }
        OrderElem oe = order.getElements().get(0);
        if (!oe.isAscending() || !(oe.getExpr() instanceof FunctionCall f) || !DISTANCE.equals(f.getURI())
                || f.getArgs().size() != 3 || !(SpatialPredicates.constant(f.getArgs().get(2)) instanceof IRI unit)) {
            return sorted;
        }
        List<ValueExpr> args = f.getArgs();
        String g = SpatialPredicates.variable(args.get(0)) != null ? SpatialPredicates.variable(args.get(0)) : SpatialPredicates.variable(args.get(1));
        Value geometry = SpatialPredicates.variable(args.get(0)) != null ? SpatialPredicates.constant(args.get(1)) : SpatialPredicates.constant(args.get(0));
        Var o = sp.getObjectVar();
        Var p = sp.getPredicateVar();
        if (g == null || geometry == null || o.hasValue() || !o.getName().equals(g) || !p.hasValue()
                || sp.getSubjectVar().getName().equals(g)) {
            return sorted;
        }
        PatternScan scan = compiler.scanOf(sp);
        if (scan.contexts() != null || scan.namedGraphsOnly() || scan.matchesNothing()) {
            return sorted;
        }
        KnnOp op = new KnnOp(sorted, scan, scan.constants()[1], vars.find(g), geometry, unit, keep);
        op.setEstimate(sorted.estimate());
        return op;
    }
}
