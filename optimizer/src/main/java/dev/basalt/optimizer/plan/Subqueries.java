package dev.basalt.optimizer.plan;

import org.eclipse.rdf4j.query.algebra.Distinct;
import org.eclipse.rdf4j.query.algebra.LeftJoin;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.QueryModelNode;
import org.eclipse.rdf4j.query.algebra.Reduced;
import org.eclipse.rdf4j.query.algebra.SingletonSet;
import org.eclipse.rdf4j.query.algebra.Slice;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.UnaryTupleOperator;

/**
 * Recognizes subqueries in RDF4J's algebra: a Projection, possibly under DISTINCT / REDUCED and
 * LIMIT / OFFSET. Also the one place a subquery is left to RDF4J on purpose: inside the right side
 * of an OPTIONAL whose left side is the empty group, RDF4J 5.0.3 returns no row when the subquery
 * is empty (SPARQL would return one unbound row) and its compliance suite expects that; RDF4J does
 * so only when it sees the Projection, so neither the OPTIONAL nor the subquery becomes a plan.
 * Stateless; any thread may call it.
 */
public final class Subqueries {
    private Subqueries() {
    }

    public static boolean isSubquery(TupleExpr e) {
        TupleExpr t = e;
        if (t instanceof Slice s) {
            t = s.getArg();
        }
        if (t instanceof Distinct || t instanceof Reduced) {
            t = ((UnaryTupleOperator) t).getArg();
        }
        return t instanceof Projection;
    }

    /** The OPTIONAL on the empty group whose right side holds {@code e}, or null. */
    public static LeftJoin optionalOnEmptyGroup(TupleExpr e) {
        QueryModelNode child = e;
        for (QueryModelNode p = e.getParentNode(); p != null; child = p, p = p.getParentNode()) {
            if (p instanceof LeftJoin lj && lj.getRightArg() == child && lj.getLeftArg() instanceof SingletonSet) {
                return lj;
            }
        }
        return null;
    }
}
