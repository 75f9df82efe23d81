package dev.basalt.federation;

import java.util.ArrayList;
import java.util.List;

import org.eclipse.rdf4j.query.algebra.Distinct;
import org.eclipse.rdf4j.query.algebra.Extension;
import org.eclipse.rdf4j.query.algebra.MultiProjection;
import org.eclipse.rdf4j.query.algebra.Order;
import org.eclipse.rdf4j.query.algebra.OrderElem;
import org.eclipse.rdf4j.query.algebra.Projection;
import org.eclipse.rdf4j.query.algebra.QueryRoot;
import org.eclipse.rdf4j.query.algebra.Reduced;
import org.eclipse.rdf4j.query.algebra.Slice;
import org.eclipse.rdf4j.query.algebra.TupleExpr;
import org.eclipse.rdf4j.query.algebra.UnaryTupleOperator;
import org.eclipse.rdf4j.query.algebra.helpers.collectors.VarNameCollector;

/**
 * Sends a query's LIMIT (with its OFFSET, as LIMIT + OFFSET rows) to the members when the query reads
 * one star only and nothing between the slice and the star changes which of the star's solutions the
 * slice keeps: a projection, BINDs (row by row, no aggregate under them), and an ORDER BY whose
 * conditions read only the star's variables, which the members then sort by too. Each member's first
 * LIMIT + OFFSET solutions (in that order) hold the first LIMIT + OFFSET of the whole answer among
 * them, so the front's own ORDER BY and slice over the members' cut answers give the answer one store
 * gives — without a member answering, and the front holding, every solution of the star.
 *
 * <p>A member's answer may hold rows of subjects it does not own (replicated subjects, statements its
 * reasoner derived about other members' subjects), which the front drops ({@link StarEvaluator}); a cut
 * answer can so hold fewer owned rows than needed. {@link StarEvaluator} then asks that member again
 * for more rows until its answer holds enough owned rows or is not cut.
 *
 * <p>A slice over anything else (a join of stars, DISTINCT, grouping, FILTERs the front evaluates,
 * UNION) is applied by the front over the whole answer, as before. Operators above the slice (the
 * projection of a CONSTRUCT, DISTINCT over the sliced rows) only read the slice's rows and do not
 * matter.
 *
 * <p>Thread rules: stateless; {@link #push} changes only the plan it is given, which belongs to the one
 * request thread planning that query.
 */
final class MemberLimit {
    private MemberLimit() {
    }

    /** Marks the star of {@code plan} with the rows its members need to return, when the plan allows it. */
    static void push(TupleExpr plan) {
        TupleExpr node = plan;
        while (!(node instanceof Slice) && isAbove(node)) {
            node = ((UnaryTupleOperator) node).getArg();
        }
        if (!(node instanceof Slice slice) || !slice.hasLimit()) {
            return;
        }
        long rows = slice.getLimit() + Math.max(0, slice.getOffset());
        if (rows <= 0 || rows < slice.getLimit()) {
            return; // LIMIT 0 asks no member anything worth cutting; an overflow keeps the whole answer
        }
        List<Order> orders = new ArrayList<>();
        node = slice.getArg();
        while (node instanceof Projection || node instanceof Extension || node instanceof Order) {
            if (node instanceof Order order) {
                orders.add(order);
            }
            node = ((UnaryTupleOperator) node).getArg();
        }
        if (!(node instanceof StarGroup star) || orders.size() > 1) {
            return;
        }
        String orderBy = "";
        if (orders.size() == 1) {
            orderBy = orderBy(orders.get(0), star);
            if (orderBy == null) {
                return;
            }
        }
        star.limitOnMembers(rows, orderBy);
    }

    /** Operators above a slice that only read its rows. */
    private static boolean isAbove(TupleExpr node) {
        return node instanceof QueryRoot || node instanceof Projection || node instanceof MultiProjection
                || node instanceof Extension || node instanceof Reduced || node instanceof Distinct;
    }

    /**
     * The ORDER BY conditions as a member writes them, or null when one reads a variable the star does not
     * bind (a BIND's, evaluated by the front) or cannot be written as SPARQL that means the same.
     */
    private static String orderBy(Order order, StarGroup star) {
        StringBuilder text = new StringBuilder();
        for (OrderElem element : order.getElements()) {
            if (!star.getBindingNames().containsAll(VarNameCollector.process(element.getExpr()))) {
                return null;
            }
            SparqlText writer = new SparqlText();
            String written;
            try {
                written = writer.expression(element.getExpr());
            } catch (SparqlText.Unwritable e) {
                return null;
            }
            for (String variable : writer.variables()) {
                if (!star.sparqlName(variable).equals(variable)) {
                    return null; // the star spells it differently; keep the front's sort alone
                }
            }
            if (!writer.names().isEmpty()) {
                return null;
            }
            text.append(text.length() == 0 ? "" : " ").append(element.isAscending() ? "ASC(" : "DESC(")
                    .append(written).append(')');
        }
        return text.toString();
    }
}
